import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import { decodeProtobufObject, encodeProtobufObject } from './codec.js';
import { decodeEnvelope } from './envelope.js';
import * as cluster from './fixtures/cluster.js';
import { cronJob, deployment, job, node, service } from './fixtures/workloads.js';
import { findProtoDir, newProtoRoot, protoFileFor } from './proto-root.js';
import { protobufTypeFor, registeredProtobufTypes } from './registry.js';

type Obj = Record<string, unknown>;

function roundTrip(obj: Obj): Obj {
  return decodeProtobufObject(encodeProtobufObject(obj));
}

/** The same object under the orch brand (`rbac.authorization.orch.io/v1`...); core and bare groups are unchanged. */
function orchBranded(obj: Obj): Obj {
  const apiVersion = (obj.apiVersion as string).replace(`.${KUBERNETES_BRAND.domain}/`, `.${ORCH_BRAND.domain}/`);
  return { ...obj, apiVersion };
}

const OBJECTS: Obj[] = [
  deployment,
  job,
  cronJob,
  service,
  node,
  cluster.role,
  cluster.roleBinding,
  cluster.aggregatedClusterRole,
  cluster.priorityClass,
  cluster.lease,
  cluster.ingress,
  cluster.podDisruptionBudget,
  cluster.podDisruptionBudgetMin,
  cluster.selfSubjectAccessReview,
  cluster.subjectAccessReview,
  cluster.selfSubjectRulesReview,
  cluster.tokenReview,
  cluster.tokenRequest,
  cluster.storageClass,
  cluster.csiNode,
  cluster.controllerRevision,
  cluster.certificateSigningRequest,
  cluster.customResourceDefinition,
  ...cluster.apiServices,
  cluster.podSecurityPolicy,
];

describe('protobuf codec round trips for every group (JSON -> Protobuf -> JSON)', () => {
  for (const obj of OBJECTS) {
    it(`${obj.apiVersion} ${obj.kind} ${(obj.metadata as Obj).name ?? ''}`, () => {
      assert.deepStrictEqual(roundTrip(obj), obj);
      const branded = orchBranded(obj);
      assert.deepStrictEqual(roundTrip(branded), branded);
    });
  }

  it('round trips a list of Deployments', () => {
    const { apiVersion: _a, kind: _k, ...item } = deployment;
    const list = { apiVersion: 'apps/v1', kind: 'DeploymentList', metadata: { resourceVersion: '9' }, items: [item, item] };
    assert.deepStrictEqual(roundTrip(list), list);
  });
});

describe('protobuf codec JSON shapes of the generated messages', () => {
  it('inlines embedded structs (Volume sources, probe handlers, key selectors)', () => {
    const pod = roundTrip({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        volumes: [{ name: 'v', hostPath: { path: '/data', type: '' } }],
        containers: [{ name: 'c', readinessProbe: { grpc: { port: 9090 } }, env: [{ name: 'E', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }] }],
      },
    });
    const spec = pod.spec as Obj;
    assert.deepStrictEqual(spec.volumes, [{ name: 'v', hostPath: { path: '/data', type: '' } }]);
    const c = (spec.containers as Obj[])[0]!;
    // GRPCAction.service is a pointer without omitempty: Go writes null.
    assert.deepStrictEqual(c.readinessProbe, { grpc: { port: 9090, service: null } });
    assert.deepStrictEqual(c.env, [{ name: 'E', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }]);
    assert.deepStrictEqual(pod.status, {});
  });

  it('writes Go value structs and non-omitempty fields a minimal object leaves out', () => {
    assert.deepStrictEqual(roundTrip({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } }), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', creationTimestamp: null },
      spec: { selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, strategy: {} },
      status: {},
    });
    assert.deepStrictEqual(roundTrip({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'p' } }), {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'p', creationTimestamp: null },
      value: 0,
    });
  });

  it('keeps JSON keys that are not Protobuf identifiers ($ref, x-kubernetes-*) and upstream field names', () => {
    const crd = roundTrip({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'x' },
      spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { $ref: '#/x', 'x-kubernetes-map-type': 'atomic', items: [{ type: 'string' }] } } }] },
    });
    const schema = ((crd.spec as Obj).versions as Obj[])[0] as Obj;
    assert.deepStrictEqual((schema.schema as Obj).openAPIV3Schema, { $ref: '#/x', items: [{ type: 'string' }], 'x-kubernetes-map-type': 'atomic' });
    const webhook = { name: 'w.example.com', clientConfig: { url: 'https://hooks.example.com' }, sideEffects: 'None', admissionReviewVersions: ['v1'] };
    const hook = roundTrip({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'h' },
      webhooks: [webhook],
    });
    assert.deepStrictEqual(hook.webhooks, [webhook]);
  });

  it('writes the schema-or-X unions of a CRD schema as Go does', () => {
    const schema = {
      type: 'object',
      items: { type: 'string' },
      dependencies: { a: ['b', 'c'], d: { required: ['e'] } },
      additionalProperties: true,
      additionalItems: false,
      definitions: { x: { type: 'integer', minimum: -1.5, multipleOf: 0.5 } },
      example: { any: ['json', 1, true, null] },
      enum: [1, 'two', { three: 3 }, null],
    };
    const crd = roundTrip({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'x' },
      spec: { versions: [{ name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: schema } }] },
    });
    const version = ((crd.spec as Obj).versions as Obj[])[0]!;
    assert.deepStrictEqual((version.schema as Obj).openAPIV3Schema, {
      type: 'object',
      enum: [1, 'two', { three: 3 }, null],
      items: { type: 'string' },
      additionalProperties: true,
      dependencies: { a: ['b', 'c'], d: { required: ['e'] } },
      additionalItems: false,
      definitions: { x: { type: 'integer', minimum: -1.5, multipleOf: 0.5 } },
      example: { any: ['json', 1, true, null] },
    });
  });

  it('decodes a value RawExtension without data as null, as Go writes it', () => {
    const rev = roundTrip({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1 });
    assert.equal(rev.data, null);
  });
});

describe('protobuf registry coverage', () => {
  it('resolves every registered message', () => {
    for (const [stem, version, kind, message] of registeredProtobufTypes()) {
      const apiVersion = stem === '*' ? 'v1' : stem === '' ? version : `${stem}.${KUBERNETES_BRAND.domain}/${version}`;
      assert.equal(protobufTypeFor(apiVersion, kind).fullName, `.${message}`);
    }
  });

  it("loads each registered message from its own file and that file's imports alone", () => {
    const dir = findProtoDir();
    for (const [, , , message] of registeredProtobufTypes()) {
      const root = newProtoRoot(dir);
      root.loadSync(protoFileFor(message), { keepCase: true });
      // resolveAll throws when a referenced message lives in a file that is not imported.
      assert.doesNotThrow(() => root.resolveAll(), message);
      assert.equal(root.lookupType(message).fullName, `.${message}`);
    }
  });

  it('keeps the client apiVersion in the envelope', () => {
    const branded = orchBranded(cluster.role);
    assert.equal(decodeEnvelope(encodeProtobufObject(branded)).apiVersion, `rbac.authorization.${ORCH_BRAND.domain}/v1`);
  });
});
