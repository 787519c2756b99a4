import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import { decodeProtobufObject, encodeProtobufObject } from './codec.js';
import { decodeEnvelope, encodeEnvelope } from './envelope.js';
import { ProtobufDecodeError, ProtobufEncodeError, UnsupportedProtobufType } from './errors.js';
import { protobufTypeFor } from './registry.js';

type Obj = Record<string, unknown>;

/** Objects below are written as the JSON API shows them, so a round trip must be the identity. */
function roundTrip(obj: Obj): Obj {
  return decodeProtobufObject(encodeProtobufObject(obj));
}

const fieldsV1 = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} }, 'f:annotations': { 'f:note': {} } }, 'f:data': { 'f:a': {} } };

function meta(name: string, namespace?: string): Obj {
  return {
    name,
    ...(namespace ? { namespace } : {}),
    uid: '6f2b6a3e-8c1d-4a57-9d0e-2b1f4c3a5e71',
    resourceVersion: '12345',
    generation: 3,
    creationTimestamp: '2024-01-01T00:00:00Z',
    labels: { app: 'web', 'app.kubernetes.io/part-of': 'shop' },
    annotations: { note: 'hello, world', empty: '' },
    ownerReferences: [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9', uid: '0d3c1f2a-0000-4000-8000-000000000001', controller: true, blockOwnerDeletion: true },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '0d3c1f2a-0000-4000-8000-000000000002' },
    ],
    finalizers: ['example.com/cleanup', 'foregroundDeletion'],
    managedFields: [
      { manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', time: '2024-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1 },
      { manager: 'controller', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': {} }, subresource: 'status' },
    ],
  };
}

const listMeta = { resourceVersion: '999', continue: 'eyJydiI6OTk5fQ', remainingItemCount: 12 };

const namespace: Obj = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { ...meta('shop'), deletionTimestamp: '2024-02-03T04:05:06Z', deletionGracePeriodSeconds: 0 },
  spec: { finalizers: ['kubernetes'] },
  status: {
    phase: 'Terminating',
    conditions: [
      {
        type: 'NamespaceDeletionContentFailure',
        status: 'False',
        lastTransitionTime: '2024-02-03T04:05:07Z',
        reason: 'ContentDeleted',
        message: 'All content successfully deleted',
      },
      { type: 'NamespaceFinalizersRemaining', status: 'False', lastTransitionTime: null },
    ],
  },
};

const configMap: Obj = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: meta('settings', 'shop'),
  immutable: false,
  data: { 'app.properties': 'color=blue\nsize=10\n', empty: '', unicode: 'héllo ✓' },
  binaryData: { 'logo.bin': Buffer.from([0, 1, 2, 0xfe, 0xff]).toString('base64'), none: '' },
};

const secret: Obj = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: meta('creds', 'shop'),
  immutable: false,
  data: { password: Buffer.from('s3cr3t').toString('base64'), key: Buffer.from([0x00, 0x80, 0xff, 0x10, 0x20]).toString('base64') },
  type: 'kubernetes.io/tls',
};

const serviceAccount: Obj = {
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: meta('builder', 'shop'),
  secrets: [
    { name: 'builder-token' },
    { kind: 'Secret', namespace: 'shop', name: 'other', uid: 'u1', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'data' },
  ],
  imagePullSecrets: [{ name: 'registry' }],
  automountServiceAccountToken: false,
};

const coreEvent: Obj = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: meta('web.17a8c', 'shop'),
  involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web', uid: 'p1', apiVersion: 'v1', resourceVersion: '10', fieldPath: 'spec.containers{web}' },
  reason: 'Pulled',
  message: 'Successfully pulled image',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2024-01-01T00:00:00Z',
  lastTimestamp: '2024-01-01T00:10:00Z',
  count: 4,
  type: 'Normal',
  eventTime: '2024-01-01T00:00:00.123456Z',
  series: { count: 3, lastObservedTime: '2024-01-01T00:10:00.000001Z' },
  action: 'Pulling',
  related: { kind: 'Node', name: 'node-1' },
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
};

/** What a minimal core Event looks like in JSON: Go writes value structs and non-omitempty strings. */
const sparseCoreEvent: Obj = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'e', namespace: 'default', creationTimestamp: null },
  involvedObject: {},
  source: {},
  firstTimestamp: null,
  lastTimestamp: null,
  eventTime: null,
  reportingComponent: '',
  reportingInstance: '',
};

function eventsV1Event(brandDomain: string): Obj {
  return {
    apiVersion: `events.${brandDomain}/v1`,
    kind: 'Event',
    metadata: meta('web.17a8d', 'shop'),
    eventTime: '2024-01-01T00:00:00.500000Z',
    series: { count: 2, lastObservedTime: '2024-01-01T00:00:01.000000Z' },
    reportingController: `${brandDomain}/scheduler`,
    reportingInstance: 'scheduler-1',
    action: 'Binding',
    reason: 'Scheduled',
    regarding: { kind: 'Pod', namespace: 'shop', name: 'web', uid: 'p1', apiVersion: 'v1' },
    related: { kind: 'Node', name: 'node-1' },
    note: 'Successfully assigned shop/web to node-1',
    type: 'Normal',
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
  };
}

function list(kind: string, apiVersion: string, items: Obj[]): Obj {
  // Items in a typed list carry no apiVersion/kind, as upstream's JSON lists show them.
  return { apiVersion, kind, metadata: listMeta, items: items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest) };
}

describe('protobuf codec round trips (JSON -> Protobuf -> JSON)', () => {
  const cases: Obj[] = [
    namespace,
    configMap,
    secret,
    serviceAccount,
    coreEvent,
    sparseCoreEvent,
    eventsV1Event(KUBERNETES_BRAND.domain),
    eventsV1Event(ORCH_BRAND.domain),
    list('NamespaceList', 'v1', [namespace, { ...namespace, metadata: { name: 'b', creationTimestamp: '2024-01-01T00:00:00Z' } }]),
    list('ConfigMapList', 'v1', [configMap, { ...configMap, immutable: true }]),
    list('SecretList', 'v1', [secret, secret]),
    list('ServiceAccountList', 'v1', [serviceAccount]),
    list('EventList', 'v1', [coreEvent, sparseCoreEvent]),
    list('EventList', `events.${ORCH_BRAND.domain}/v1`, [eventsV1Event(ORCH_BRAND.domain)]),
    { apiVersion: 'v1', kind: 'NamespaceList', metadata: {}, items: [] },
    {
      apiVersion: 'v1',
      kind: 'Status',
      metadata: {},
      status: 'Failure',
      message: 'ConfigMap "x" is invalid: data: Invalid value',
      reason: 'Invalid',
      details: { name: 'x', kind: 'ConfigMap', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value', field: 'data' }], retryAfterSeconds: 2 },
      code: 422,
    },
    { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Success', details: { name: 'x', group: 'apps', kind: 'deployments', uid: 'u' } },
    {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u', resourceVersion: '' },
      orphanDependents: false,
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
      ignoreStoreReadErrorWithClusterBreakingPotential: false,
    },
  ];
  for (const obj of cases) {
    it(`${obj.apiVersion} ${obj.kind} ${(obj.metadata as Obj | undefined)?.name ?? ''}`, () => {
      assert.deepStrictEqual(roundTrip(obj), obj);
    });
  }
});

describe('protobuf codec JSON shape', () => {
  it('omits what Go omitempty omits and keeps set pointers even when zero', () => {
    const out = roundTrip({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', generation: 0, labels: {}, finalizers: [], creationTimestamp: null, deletionGracePeriodSeconds: 0 },
      data: {},
      immutable: false,
    });
    assert.deepStrictEqual(out, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', creationTimestamp: null, deletionGracePeriodSeconds: 0 },
      immutable: false,
    });
  });

  it('adds the value structs and non-omitempty fields Go always writes', () => {
    assert.deepStrictEqual(roundTrip({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } }), {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'n', creationTimestamp: null },
      spec: {},
      status: {},
    });
    assert.deepStrictEqual(
      roundTrip({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'default', creationTimestamp: null } }),
      sparseCoreEvent,
    );
    assert.deepStrictEqual(roundTrip({ apiVersion: 'v1', kind: 'Status', status: 'Success' }), {
      apiVersion: 'v1',
      kind: 'Status',
      metadata: {},
      status: 'Success',
    });
  });

  it('writes Time as RFC 3339 UTC seconds and MicroTime with six fractional digits', () => {
    const out = roundTrip({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e', creationTimestamp: '2024-03-04T06:07:08.999+01:00' },
      firstTimestamp: '1970-01-01T00:00:00Z',
      lastTimestamp: '1969-12-31T23:59:59Z',
      eventTime: '2024-03-04T05:07:08.1234567Z',
    });
    assert.equal((out.metadata as Obj).creationTimestamp, '2024-03-04T05:07:08Z');
    assert.equal(out.firstTimestamp, '1970-01-01T00:00:00Z');
    assert.equal(out.lastTimestamp, '1969-12-31T23:59:59Z');
    assert.equal(out.eventTime, '2024-03-04T05:07:08.123456Z');
  });

  it('writes int64 fields as JSON numbers', () => {
    const out = roundTrip({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { remainingItemCount: 2 ** 40 }, items: [] });
    assert.equal((out.metadata as Obj).remainingItemCount, 2 ** 40);
    const meta = roundTrip({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', generation: 9007199254740991 } }).metadata as Obj;
    assert.equal(meta.generation, Number.MAX_SAFE_INTEGER);
  });

  it('decodes FieldsV1 Raw into the parsed field set', () => {
    const bytes = encodeProtobufObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', managedFields: [{ manager: 'm', fieldsType: 'FieldsV1', fieldsV1 }] },
    });
    const mf = ((decodeProtobufObject(bytes).metadata as Obj).managedFields as Obj[])[0]!;
    assert.deepStrictEqual(mf.fieldsV1, fieldsV1);
    // On the wire Raw is the JSON text itself.
    assert.ok(Buffer.from(bytes).includes(Buffer.from(JSON.stringify(fieldsV1))));
  });

  it('drops apiVersion/kind of list items and fields the message does not have', () => {
    const out = roundTrip({
      apiVersion: 'v1',
      kind: 'SecretList',
      metadata: {},
      items: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a' }, bogus: 1 }],
      extra: true,
    });
    assert.deepStrictEqual(out, { apiVersion: 'v1', kind: 'SecretList', metadata: {}, items: [{ metadata: { name: 'a', creationTimestamp: null } }] });
  });
});

describe('protobuf codec types and errors', () => {
  it('maps branded groups by stem: events.orch.io/v1 and events.k8s.io/v1 are the same message', () => {
    const a = protobufTypeFor(`events.${ORCH_BRAND.domain}/v1`, 'Event');
    const b = protobufTypeFor(`events.${KUBERNETES_BRAND.domain}/v1`, 'Event');
    assert.equal(a, b);
    assert.equal(a.fullName, '.k8s.io.api.events.v1.Event');
    assert.equal(protobufTypeFor('v1', 'Event').fullName, '.k8s.io.api.core.v1.Event');
    assert.equal(protobufTypeFor('apps/v1', 'DeleteOptions').fullName, '.k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions');
    // The envelope keeps the client's apiVersion.
    const obj = eventsV1Event(KUBERNETES_BRAND.domain);
    assert.equal(decodeEnvelope(encodeProtobufObject(obj)).apiVersion, `events.${KUBERNETES_BRAND.domain}/v1`);
  });

  it('throws UnsupportedProtobufType for unknown apiVersion/kind, both ways', () => {
    for (const [apiVersion, kind] of [
      ['apps/v1', 'Frobnicator'],
      ['apps/v2', 'Deployment'],
      ['v2', 'ConfigMap'],
      ['events.example.com/v1', 'Event'],
      ['', ''],
    ] as const) {
      assert.throws(() => encodeProtobufObject({ apiVersion, kind, metadata: {} }), UnsupportedProtobufType);
      const bytes = encodeEnvelope({ apiVersion, kind, raw: new Uint8Array(0) });
      assert.throws(
        () => decodeProtobufObject(bytes),
        (err: unknown) => err instanceof UnsupportedProtobufType && err.apiVersion === apiVersion && err.kind === kind,
      );
    }
  });

  it('takes apiVersion/kind from defaults when the envelope leaves them empty', () => {
    const raw = decodeEnvelope(encodeProtobufObject(configMap)).raw;
    const out = decodeProtobufObject(encodeEnvelope({ apiVersion: '', kind: '', raw }), { apiVersion: 'v1', kind: 'ConfigMap' });
    assert.deepStrictEqual(out, configMap);
  });

  it('rejects malformed messages and encodings it cannot honour as ProtobufDecodeError', () => {
    const bad = encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap', raw: Uint8Array.of(0x0a, 0x05, 0x01) });
    assert.throws(() => decodeProtobufObject(bad), ProtobufDecodeError);
    const gz = encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap', raw: new Uint8Array(0), contentEncoding: 'gzip' });
    assert.throws(() => decodeProtobufObject(gz), ProtobufDecodeError);
    const json = encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap', raw: new Uint8Array(0), contentType: 'application/json' });
    assert.throws(() => decodeProtobufObject(json), ProtobufDecodeError);
    assert.throws(() => decodeProtobufObject(Buffer.from(JSON.stringify(configMap))), ProtobufDecodeError);
  });

  it('rejects ill-typed JSON values with the field path', () => {
    assert.throws(
      () => encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', creationTimestamp: 'yesterday' } }),
      (err: unknown) => err instanceof ProtobufEncodeError && err.message.startsWith('metadata: creationTimestamp:'),
    );
    assert.throws(() => encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: 1 } }), ProtobufEncodeError);
    assert.throws(() => encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { finalizers: 'x' } }), ProtobufEncodeError);
    assert.throws(() => encodeProtobufObject({ apiVersion: 'v1', kind: 'Secret', metadata: [] }), ProtobufEncodeError);
  });
});
