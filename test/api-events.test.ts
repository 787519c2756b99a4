/**
 * Events: core v1 Event and events.orch.io/v1 Event as two views of the same stored events
 * (upstream's field mapping), the spec's events.orch.io/v1 validation table one rule per
 * test, and expiry after --event-ttl.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, startTestCluster, type RawResponse, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;
/** A second cluster whose events live 1.5 s. */
let shortLived: TestCluster;

const NS = 'ev';
const CORE = `/api/v1/namespaces/${NS}/events`;
const V1 = `/apis/events.orch.io/v1/namespaces/${NS}/events`;
const MERGE = { 'content-type': 'application/merge-patch+json' };

before(async () => {
  [cluster, shortLived] = await Promise.all([startTestCluster(), startTestCluster({ eventTtlMs: 1500 })]);
  assertOk(await call('POST', '/api/v1/namespaces', { metadata: { name: NS } }), 201);
});

after(async () => {
  await Promise.all([cluster?.close(), shortLived?.close()]);
});

function call(method: string, path: string, body?: unknown, headers?: Record<string, string>, on: TestCluster = cluster): Promise<RawResponse> {
  return request(on, method, path, { body: body as object | undefined, headers });
}

function assertOk(r: RawResponse, code = 200): any {
  assert.equal(r.status, code, `expected ${code}, got ${r.status}: ${r.text.slice(0, 600)}`);
  return r.json;
}

function assertInvalid(r: RawResponse, fields: string[]): any {
  assert.equal(r.status, 422, `expected 422, got ${r.status}: ${r.text.slice(0, 600)}`);
  assert.equal(r.json.kind, 'Status');
  assert.equal(r.json.reason, 'Invalid');
  assert.equal(r.json.details.kind, 'Event');
  const got: string[] = r.json.details.causes.map((c: any) => c.field);
  assert.ok(
    fields.some((f) => got.includes(f)),
    `causes ${JSON.stringify(got)} include one of ${JSON.stringify(fields)}: ${r.json.message}`,
  );
  return r.json;
}

const EVENT_TIME = '2024-05-01T10:00:00.123456Z';

/** A valid events.orch.io/v1 Event. */
function v1Event(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'events.orch.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: EVENT_TIME,
    action: 'Binding',
    reason: 'Scheduled',
    type: 'Normal',
    note: 'Successfully assigned ev/web to node-1',
    reportingController: 'example.com/scheduler',
    reportingInstance: 'scheduler-1',
    regarding: { kind: 'Pod', namespace: NS, name: 'web', uid: 'uid-web', apiVersion: 'v1' },
    ...extra,
  };
}

describe('two views of one store', () => {
  it('an events.orch.io/v1 Event reads back through core v1 with the upstream field names', async () => {
    const created = assertOk(
      await call(
        'POST',
        V1,
        v1Event('from-v1', {
          related: { kind: 'Node', name: 'node-1', apiVersion: 'v1' },
          series: { count: 3, lastObservedTime: '2024-05-01T10:05:00.000000Z' },
        }),
      ),
      201,
    );
    assert.equal(created.apiVersion, 'events.orch.io/v1');
    const core = assertOk(await call('GET', `${CORE}/from-v1`));
    assert.equal(core.apiVersion, 'v1');
    assert.equal(core.kind, 'Event');
    assert.equal(core.metadata.uid, created.metadata.uid);
    assert.equal(core.metadata.resourceVersion, created.metadata.resourceVersion);
    const mapping: [string, string][] = [
      ['note', 'message'],
      ['regarding', 'involvedObject'],
      ['related', 'related'],
      ['reportingController', 'reportingComponent'],
      ['reportingInstance', 'reportingInstance'],
      ['action', 'action'],
      ['reason', 'reason'],
      ['type', 'type'],
      ['series', 'series'],
    ];
    for (const [v1Field, coreField] of mapping) {
      assert.deepEqual(core[coreField], created[v1Field], `${v1Field} -> ${coreField}`);
    }
    assert.equal(Date.parse(core.eventTime), Date.parse(EVENT_TIME));
    for (const f of ['note', 'regarding', 'reportingController', 'deprecatedSource', 'deprecatedCount']) {
      assert.equal(core[f], undefined, `core view has no ${f}`);
    }
  });

  it('a core v1 Event reads back through events.orch.io/v1 with the deprecated fields', async () => {
    const created = assertOk(
      await call('POST', CORE, {
        metadata: { name: 'from-core' },
        involvedObject: { kind: 'Pod', namespace: NS, name: 'db', uid: 'uid-db' },
        reason: 'BackOff',
        message: 'Back-off restarting failed container',
        type: 'Warning',
        source: { component: 'kubelet', host: 'node-2' },
        count: 7,
        firstTimestamp: '2024-05-01T09:00:00Z',
        lastTimestamp: '2024-05-01T09:30:00Z',
        reportingComponent: 'kubelet',
        reportingInstance: 'node-2',
      }),
      201,
    );
    const v1 = assertOk(await call('GET', `${V1}/from-core`));
    assert.equal(v1.apiVersion, 'events.orch.io/v1');
    assert.equal(v1.kind, 'Event');
    assert.equal(v1.metadata.uid, created.metadata.uid);
    const mapping: [string, string][] = [
      ['message', 'note'],
      ['involvedObject', 'regarding'],
      ['source', 'deprecatedSource'],
      ['count', 'deprecatedCount'],
      ['reportingComponent', 'reportingController'],
      ['reportingInstance', 'reportingInstance'],
      ['reason', 'reason'],
      ['type', 'type'],
    ];
    for (const [coreField, v1Field] of mapping) {
      assert.deepEqual(v1[v1Field], created[coreField], `${coreField} -> ${v1Field}`);
    }
    assert.equal(Date.parse(v1.deprecatedFirstTimestamp), Date.parse('2024-05-01T09:00:00Z'));
    assert.equal(Date.parse(v1.deprecatedLastTimestamp), Date.parse('2024-05-01T09:30:00Z'));
    for (const f of ['message', 'involvedObject', 'source', 'count', 'firstTimestamp', 'lastTimestamp', 'reportingComponent']) {
      assert.equal(v1[f], undefined, `events.orch.io/v1 view has no ${f}`);
    }
  });

  it('both views list the same events, each in its own list kind', async () => {
    const core = assertOk(await call('GET', CORE));
    const v1 = assertOk(await call('GET', V1));
    assert.equal(core.kind, 'EventList');
    assert.equal(core.apiVersion, 'v1');
    assert.equal(v1.kind, 'EventList');
    assert.equal(v1.apiVersion, 'events.orch.io/v1');
    const key = (l: any) => l.items.map((i: any) => `${i.metadata.name}@${i.metadata.resourceVersion}`).sort();
    assert.deepEqual(key(core), key(v1));
    assert.ok(key(core).length >= 2);
    for (const i of v1.items) assert.equal(i.apiVersion, 'events.orch.io/v1');
    // Across all namespaces too.
    assert.ok(assertOk(await call('GET', '/apis/events.orch.io/v1/events')).items.some((i: any) => i.metadata.name === 'from-core'));
  });

  it('an update through core shows through events.orch.io/v1', async () => {
    assertOk(await call('PATCH', `${CORE}/from-core`, { message: 'changed through core', count: 8 }, MERGE));
    const v1 = assertOk(await call('GET', `${V1}/from-core`));
    assert.equal(v1.note, 'changed through core');
    assert.equal(v1.deprecatedCount, 8);
  });

  it('a series update through events.orch.io/v1 shows through core', async () => {
    const cur = assertOk(await call('GET', `${V1}/from-v1`));
    const upd = assertOk(await call('PUT', `${V1}/from-v1`, { ...cur, series: { count: 4, lastObservedTime: '2024-05-01T10:06:00.000000Z' } }));
    assert.equal(upd.series.count, 4);
    assert.equal(assertOk(await call('GET', `${CORE}/from-v1`)).series.count, 4);
  });

  it('a stale resourceVersion conflicts across views', async () => {
    const v1 = assertOk(await call('GET', `${V1}/from-core`));
    assertOk(await call('PATCH', `${CORE}/from-core`, { count: 9 }, MERGE));
    const r = await call('PUT', `${V1}/from-core`, { ...v1, metadata: { ...v1.metadata, labels: { x: 'y' } } });
    assert.equal(r.status, 409, r.text);
    assert.equal(r.json.reason, 'Conflict');
  });

  it('an event created through one view is a duplicate in the other', async () => {
    const r = await call('POST', CORE, { metadata: { name: 'from-v1' }, involvedObject: { namespace: NS }, reason: 'x' });
    assert.equal(r.status, 409);
    assert.equal(r.json.reason, 'AlreadyExists');
  });

  it('a delete through one view removes it from both', async () => {
    assertOk(await call('POST', V1, v1Event('short')), 201);
    assertOk(await call('DELETE', `${CORE}/short`));
    assert.equal((await call('GET', `${V1}/short`)).status, 404);
    assertOk(await call('POST', CORE, { metadata: { name: 'short2' }, involvedObject: { namespace: NS }, reason: 'x' }), 201);
    assertOk(await call('DELETE', `${V1}/short2`));
    assert.equal((await call('GET', `${CORE}/short2`)).status, 404);
  });

  it('core v1 accepts old-style events without eventTime or action', async () => {
    const e = assertOk(
      await call('POST', CORE, {
        metadata: { name: 'old-style' },
        involvedObject: { kind: 'Pod', name: 'x', namespace: NS },
        reason: 'Started',
        message: 'hi',
      }),
      201,
    );
    assert.equal(e.reason, 'Started');
    // ...which events.orch.io/v1 still serves, read-only fields mapped.
    assert.equal(assertOk(await call('GET', `${V1}/old-style`)).note, 'hi');
  });

  it('a core v1 Event must live in its involved object namespace', async () => {
    const r = await call('POST', CORE, { metadata: { name: 'wrong-ns' }, involvedObject: { kind: 'Pod', name: 'x', namespace: 'other' }, reason: 'x' });
    assertInvalid(r, ['involvedObject.namespace']);
  });
});

describe('events.orch.io/v1 validation (spec Event table)', () => {
  let n = 0;
  const name = () => `val-${++n}`;

  function without(field: string): Record<string, unknown> {
    const e = v1Event(name());
    delete e[field];
    return e;
  }

  const rejected: [string, () => Record<string, unknown>, string[]][] = [
    ['eventTime is required', () => without('eventTime'), ['eventTime']],
    ['eventTime may not be empty', () => v1Event(name(), { eventTime: null }), ['eventTime']],
    ['action is required on a new Event', () => without('action'), ['action']],
    ['action may not be empty', () => v1Event(name(), { action: '' }), ['action']],
    ['action is at most 128 characters', () => v1Event(name(), { action: 'a'.repeat(129) }), ['action']],
    ['reason is required on a new Event', () => without('reason'), ['reason']],
    ['reason is at most 128 characters', () => v1Event(name(), { reason: 'r'.repeat(129) }), ['reason']],
    ['type is required on a new Event', () => without('type'), ['type']],
    ['type must be Normal or Warning (Info)', () => v1Event(name(), { type: 'Info' }), ['type']],
    ['type is case-sensitive (normal)', () => v1Event(name(), { type: 'normal' }), ['type']],
    ['reportingController is required on a new Event', () => without('reportingController'), ['reportingController']],
    ['reportingController must be a qualified name', () => v1Event(name(), { reportingController: 'not a name!' }), ['reportingController']],
    ['reportingInstance is required on a new Event', () => without('reportingInstance'), ['reportingInstance']],
    ['reportingInstance is at most 128 characters', () => v1Event(name(), { reportingInstance: 'i'.repeat(129) }), ['reportingInstance']],
    ['note is at most 1 kB', () => v1Event(name(), { note: 'n'.repeat(1025) }), ['note', 'message']],
    ['series.count is at least 2', () => v1Event(name(), { series: { count: 1, lastObservedTime: EVENT_TIME } }), ['series.count']],
    ['series.lastObservedTime is required', () => v1Event(name(), { series: { count: 2 } }), ['series.lastObservedTime']],
    ['deprecatedCount must be unset', () => v1Event(name(), { deprecatedCount: 3 }), ['deprecatedCount', 'count']],
    ['deprecatedSource must be unset', () => v1Event(name(), { deprecatedSource: { component: 'x' } }), ['deprecatedSource', 'source']],
    [
      'deprecatedFirstTimestamp must be unset',
      () => v1Event(name(), { deprecatedFirstTimestamp: '2024-01-01T00:00:00Z' }),
      ['deprecatedFirstTimestamp', 'firstTimestamp'],
    ],
    [
      'deprecatedLastTimestamp must be unset',
      () => v1Event(name(), { deprecatedLastTimestamp: '2024-01-01T00:00:00Z' }),
      ['deprecatedLastTimestamp', 'lastTimestamp'],
    ],
    [
      'an Event about a cluster-scoped object lives in default or orch-system',
      () => v1Event(name(), { regarding: { kind: 'Node', name: 'node-1' } }),
      ['regarding.namespace', 'involvedObject.namespace'],
    ],
  ];
  for (const [rule, body, fields] of rejected) {
    it(`${rule} (422)`, async () => {
      const b = body();
      assertInvalid(await call('POST', V1, b), fields);
      const metaName = (b.metadata as { name: string }).name;
      assert.equal((await call('GET', `${V1}/${metaName}`)).status, 404, 'nothing stored');
    });
  }

  const accepted: [string, () => Record<string, unknown>][] = [
    ['a complete Event', () => v1Event(name())],
    ['type Warning', () => v1Event(name(), { type: 'Warning' })],
    [
      'action, reason and reportingInstance of exactly 128 characters',
      () => v1Event(name(), { action: 'a'.repeat(128), reason: 'r'.repeat(128), reportingInstance: 'i'.repeat(128) }),
    ],
    ['a note of exactly 1024 bytes', () => v1Event(name(), { note: 'n'.repeat(1024) })],
    ['no note at all', () => without('note')],
    ['a series of count 2', () => v1Event(name(), { series: { count: 2, lastObservedTime: EVENT_TIME } })],
    ['no regarding in the default namespace', () => ({ ...without('regarding'), metadata: { name: name(), namespace: 'default' } })],
    [
      'a cluster-scoped regarding in orch-system',
      () => ({ ...v1Event(name(), { regarding: { kind: 'Node', name: 'node-1' } }), metadata: { name: name(), namespace: 'orch-system' } }),
    ],
    ['a regarding object in another namespace', () => v1Event(name(), { regarding: { kind: 'Pod', name: 'p', namespace: 'elsewhere' } })],
  ];
  for (const [what, body] of accepted) {
    it(`accepts ${what}`, async () => {
      const b = body();
      const ns = (b.metadata as { namespace?: string }).namespace ?? NS;
      assertOk(await call('POST', `/apis/events.orch.io/v1/namespaces/${ns}/events`, b), 201);
    });
  }

  it('all violations are reported together', async () => {
    // Without eventTime an Event is old-style, and only eventTime and type are checked (upstream).
    const old = assertInvalid(await call('POST', V1, { metadata: { name: name() }, regarding: { namespace: NS } }), ['eventTime']);
    assert.deepEqual(old.details.causes.map((c: any) => c.field).sort(), ['eventTime', 'type']);
    const s = assertInvalid(await call('POST', V1, { metadata: { name: name() }, eventTime: EVENT_TIME, regarding: { namespace: NS } }), ['action']);
    const fields = s.details.causes.map((c: any) => c.field);
    for (const f of ['action', 'reason', 'type', 'reportingController', 'reportingInstance']) assert.ok(fields.includes(f), `${f} in ${fields}`);
  });

  it('the note of an existing Event cannot change (422); its series can', async () => {
    const e = assertOk(await call('POST', V1, v1Event('immutable', { series: { count: 2, lastObservedTime: EVENT_TIME } })), 201);
    assertInvalid(await call('PUT', `${V1}/immutable`, { ...e, note: 'rewritten' }), ['message', 'note']);
    assertInvalid(await call('PATCH', `${V1}/immutable`, { reason: 'Other' }, MERGE), ['reason']);
    const u = assertOk(await call('PATCH', `${V1}/immutable`, { series: { count: 3, lastObservedTime: '2024-05-01T11:00:00.000000Z' } }, MERGE));
    assert.equal(u.series.count, 3);
  });

  it('dryRun=All validates without storing', async () => {
    assertInvalid(await call('POST', `${V1}?dryRun=All`, v1Event('dry', { type: 'Info' })), ['type']);
    assertOk(await call('POST', `${V1}?dryRun=All`, v1Event('dry')), 201);
    assert.equal((await call('GET', `${V1}/dry`)).status, 404);
  });
});

describe('expiry after --event-ttl', () => {
  const TTL = 1500;

  async function exists(path: string): Promise<boolean> {
    const r = await call('GET', path, undefined, undefined, shortLived);
    assert.ok(r.status === 200 || r.status === 404, r.text);
    return r.status === 200;
  }

  async function waitGone(path: string, boundMs: number): Promise<number> {
    const start = Date.now();
    while (await exists(path)) {
      if (Date.now() - start > boundMs) assert.fail(`${path} still exists after ${boundMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return Date.now() - start;
  }

  it('events disappear after the TTL (sweeps every max(ttl/4, 1 s)); other objects stay', async () => {
    const created = Date.now();
    assertOk(
      await call(
        'POST',
        '/api/v1/namespaces/default/events',
        { metadata: { name: 'ttl-core' }, involvedObject: { namespace: 'default' }, reason: 'R', message: 'm' },
        undefined,
        shortLived,
      ),
      201,
    );
    assertOk(
      await call(
        'POST',
        '/apis/events.orch.io/v1/namespaces/default/events',
        v1Event('ttl-v1', { regarding: { kind: 'Pod', name: 'p', namespace: 'default' } }),
        undefined,
        shortLived,
      ),
      201,
    );
    assertOk(await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'not-an-event' } }, undefined, shortLived), 201);
    assert.ok(await exists('/api/v1/namespaces/default/events/ttl-core'), 'present right after creation');
    // TTL + one sweep interval (1 s) + slack.
    const bound = TTL + 1000 + 2500;
    await waitGone('/api/v1/namespaces/default/events/ttl-core', bound);
    await waitGone('/apis/events.orch.io/v1/namespaces/default/events/ttl-v1', bound - (Date.now() - created));
    assert.ok(Date.now() - created >= TTL - 100, `expired no earlier than the TTL (after ${Date.now() - created} ms)`);
    assert.ok(await exists('/api/v1/namespaces/default/configmaps/not-an-event'), 'configmaps do not expire');
  });

  it('a rewritten event lives for the TTL after its last write', async () => {
    assertOk(
      await call(
        'POST',
        '/api/v1/namespaces/default/events',
        { metadata: { name: 'ttl-renewed' }, involvedObject: { namespace: 'default' }, reason: 'R', message: 'm', count: 1 },
        undefined,
        shortLived,
      ),
      201,
    );
    await new Promise((r) => setTimeout(r, 1000));
    const rewritten = Date.now();
    assertOk(await call('PATCH', '/api/v1/namespaces/default/events/ttl-renewed', { count: 2 }, MERGE, shortLived));
    await new Promise((r) => setTimeout(r, TTL - 600));
    assert.ok(await exists('/api/v1/namespaces/default/events/ttl-renewed'), `still present ${Date.now() - rewritten} ms after its last write`);
    await waitGone('/api/v1/namespaces/default/events/ttl-renewed', TTL + 1000 + 2500);
  });
});
