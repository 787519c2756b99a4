/**
 * The Get and List resource-version tables of the spec, one test per cell, as a client sees
 * them: which state comes back (most recent, any, not older than, exact), the ListMeta
 * resourceVersion, 410 for an exact read of a compacted revision, every Invalid cell with
 * upstream's status and message, and 504 for a resourceVersion the server never reaches.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RawResponse } from './helpers/cluster.js';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';
import { delay, keepAliveClient, type Client } from './helpers/watch-client.js';

let fresh: TestCluster;
let compacting: TestCluster;
let api: Client;
let capi: Client;

const NS = 'rvt';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

/** Revisions of the fixture: `r0` has a (v1), b, c, d, e; later a becomes v2 (ra) and f is created (rf). */
let r0 = 0;
let ra = 0;
let rf = 0;

const list = (query: Record<string, string>, c: Client = api, path = CM): Promise<RawResponse> =>
  c.req('GET', `${path}?${new URLSearchParams(query).toString()}`);

function ok(r: RawResponse): any {
  assert.equal(r.status, 200, `expected 200, got ${r.status}: ${r.text.slice(0, 400)}`);
  return r.json;
}

const names = (l: any): string[] => l.items.map((i: any) => i.metadata.name);
const dataOf = (l: any, name: string): unknown => l.items.find((i: any) => i.metadata.name === name)?.data;
const rvOf = (l: any): number => Number(l.metadata.resourceVersion);

/** Asserts upstream's 422 for ListOptions and that the message names the parameter. */
function assertInvalidListOptions(r: RawResponse, details: string[]): void {
  assert.equal(r.status, 422, `expected 422, got ${r.status}: ${r.text.slice(0, 400)}`);
  const s = r.json;
  assert.equal(s.kind, 'Status');
  assert.equal(s.reason, 'Invalid');
  assert.equal(s.code, 422);
  assert.equal(s.details.kind, 'ListOptions');
  assert.equal(s.details.group, 'meta.orch.io');
  const agg = details.length === 1 ? details[0] : `[${details.join(', ')}]`;
  assert.equal(s.message, `ListOptions.meta.orch.io "" is invalid: ${agg}`);
  assert.deepEqual(
    s.details.causes.map((c: any) => `${c.field}: ${c.message}`),
    details,
  );
}

const FORBIDDEN_WITHOUT_RV = 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided';
const FORBIDDEN_EXACT_ZERO = 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"';
const FORBIDDEN_WITH_CONTINUE = 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided';

function assertBadRequest(r: RawResponse, message: string | RegExp): void {
  assert.equal(r.status, 400, `expected 400, got ${r.status}: ${r.text.slice(0, 400)}`);
  assert.equal(r.json.reason, 'BadRequest');
  if (typeof message === 'string') assert.equal(r.json.message, message);
  else assert.match(r.json.message, message);
}

function assertExpired(r: RawResponse): void {
  assert.equal(r.status, 410, `expected 410, got ${r.status}: ${r.text.slice(0, 400)}`);
  assert.equal(r.json.kind, 'Status');
  assert.equal(r.json.reason, 'Expired');
  assert.equal(r.json.code, 410);
  assert.equal(r.json.message, 'The resourceVersion for the provided list is too old.');
}

/** The compacting cluster's fixture: an old revision that is surely compacted by the time tests run. */
let compactedRev = 0;
const CNS = 'rvc';
const CCM = `/api/v1/namespaces/${CNS}/configmaps`;

before(async () => {
  [fresh, compacting] = await Promise.all([startTestCluster(), startTestCluster({ compactionIntervalMs: 300 })]);
  api = keepAliveClient(fresh);
  capi = keepAliveClient(compacting);
  await api.ok('POST', '/api/v1/namespaces', { metadata: { name: NS } });
  for (const n of ['a', 'b', 'c', 'd', 'e']) {
    const o = await api.ok('POST', CM, { metadata: { name: n }, data: { v: '1' } });
    r0 = Number(o.metadata.resourceVersion);
  }
  ra = Number((await api.ok('PUT', `${CM}/a`, { metadata: { name: 'a' }, data: { v: '2' } })).metadata.resourceVersion);
  rf = Number((await api.ok('POST', CM, { metadata: { name: 'f' }, data: { v: '1' } })).metadata.resourceVersion);

  await capi.ok('POST', '/api/v1/namespaces', { metadata: { name: CNS } });
  for (const n of ['a', 'b', 'c']) {
    const o = await capi.ok('POST', CCM, { metadata: { name: n }, data: { v: '1' } });
    compactedRev ||= Number(o.metadata.resourceVersion);
  }
  // The compactor compacts to the revision it saw one interval earlier: keep writing until an
  // exact read of the first revision is refused, so every compacted-cell test below is settled.
  const deadline = Date.now() + 10_000;
  for (let i = 0; ; i++) {
    await capi.ok('PUT', `${CCM}/c`, { metadata: { name: 'c' }, data: { v: String(i) } });
    const probe = await list({ resourceVersion: String(compactedRev), resourceVersionMatch: 'Exact' }, capi, CCM);
    if (probe.status === 410) break;
    assert.ok(Date.now() < deadline, 'history was never compacted');
    await delay(100);
  }
});

after(async () => {
  api?.close();
  capi?.close();
  await Promise.all([fresh?.close(), compacting?.close()]);
});

describe('Get table', () => {
  it('resourceVersion unset: Most Recent (a write is visible as soon as it is acknowledged)', async () => {
    const o = await api.ok('POST', CM, { metadata: { name: 'g1' }, data: { v: '1' } });
    for (let i = 2; i <= 20; i++) {
      const put = await api.ok('PUT', `${CM}/g1`, { metadata: { name: 'g1' }, data: { v: String(i) } });
      const got = ok(await api.req('GET', `${CM}/g1`));
      assert.deepEqual(got.data, { v: String(i) });
      assert.equal(got.metadata.resourceVersion, put.metadata.resourceVersion);
    }
    assert.ok(o.metadata.resourceVersion);
  });

  it('resourceVersion=0: Any (the object, served from the cache)', async () => {
    const got = ok(await api.req('GET', `${CM}/a?resourceVersion=0`));
    assert.equal(got.metadata.name, 'a');
    assert.ok(Number(got.metadata.resourceVersion) >= ra - 0, 'not older than the last write of a');
    assert.deepEqual(got.data, { v: '2' });
  });

  it('resourceVersion=N: Not older than N (the current object, not the one at N)', async () => {
    const got = ok(await api.req('GET', `${CM}/a?resourceVersion=${r0}`));
    assert.equal(Number(got.metadata.resourceVersion), ra);
    assert.deepEqual(got.data, { v: '2' });
  });

  it('resourceVersion=N older than the compacted history: still Not older than (200, never 410)', async () => {
    const got = ok(await capi.req('GET', `${CCM}/a?resourceVersion=${compactedRev}`));
    assert.equal(got.metadata.name, 'a');
  });

  it('resourceVersion=N just ahead: waits until the server reaches it (through any resource) and answers', async () => {
    const current = Number(ok(await list({ limit: '1' })).metadata.resourceVersion);
    const t0 = performance.now();
    const pending = api.req('GET', `${CM}/a?resourceVersion=${current + 1}`);
    await delay(300);
    // The revision is reached by a write to another resource type.
    await api.ok('POST', '/api/v1/namespaces', { metadata: { name: 'rvt-other' } });
    const r = await pending;
    const took = performance.now() - t0;
    assert.equal(r.status, 200, r.text);
    assert.ok(took >= 250 && took < 1500, `answered after ${Math.round(took)} ms`);
  });

  it('resourceVersion that is not a number: 400', async () => {
    const r = await api.req('GET', `${CM}/a?resourceVersion=abc`);
    assertBadRequest(r, /resource ?version/i);
  });
});

describe('List table, resourceVersionMatch unset, limit unset', () => {
  it('resourceVersion unset: Most Recent', async () => {
    const o = await api.ok('POST', CM, { metadata: { name: 'l1' } });
    const l = ok(await list({}));
    assert.ok(names(l).includes('l1'));
    assert.ok(rvOf(l) >= Number(o.metadata.resourceVersion));
    assert.equal(l.metadata.continue, undefined);
    await api.ok('DELETE', `${CM}/l1`);
    const after = ok(await list({}));
    assert.ok(!names(after).includes('l1'));
  });

  it('resourceVersion=0: Any (every object)', async () => {
    const l = ok(await list({ resourceVersion: '0' }));
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) assert.ok(names(l).includes(n), n);
    assert.ok(rvOf(l) >= rf);
  });

  it('resourceVersion=N: Not older than N (current state, ListMeta at least N)', async () => {
    const l = ok(await list({ resourceVersion: String(r0) }));
    assert.ok(names(l).includes('f'), 'f was created after N and is shown');
    assert.deepEqual(dataOf(l, 'a'), { v: '2' });
    assert.ok(rvOf(l) >= rf);
  });

  it('resourceVersion=N older than the compacted history: still 200 (not older than is never 410)', async () => {
    const l = ok(await list({ resourceVersion: String(compactedRev) }, capi, CCM));
    assert.deepEqual(names(l), ['a', 'b', 'c']);
  });
});

describe('List table, resourceVersionMatch unset, limit=n, continue unset', () => {
  it('resourceVersion unset: Most Recent, paginated', async () => {
    const l = ok(await list({ limit: '2' }));
    assert.equal(l.items.length, 2);
    assert.ok(l.metadata.continue);
    assert.ok(rvOf(l) >= rf);
    assert.equal(l.metadata.remainingItemCount, names(ok(await list({}))).length - 2);
  });

  it('resourceVersion=0: Any, from the cache: limit is ignored', async () => {
    const l = ok(await list({ resourceVersion: '0', limit: '2' }));
    assert.ok(l.items.length >= 6, `got ${l.items.length} items`);
    assert.equal(l.metadata.continue, undefined);
  });

  it('resourceVersion=N: Exact (the state at N, from the store, every chunk at N)', async () => {
    const first = ok(await list({ resourceVersion: String(r0), limit: '2' }));
    assert.equal(rvOf(first), r0);
    assert.deepEqual(names(first), ['a', 'b']);
    assert.deepEqual(dataOf(first, 'a'), { v: '1' }, 'a as it was at N');
    const all = [...first.items];
    let token = first.metadata.continue;
    while (token) {
      const next = ok(await list({ limit: '2', continue: token }));
      assert.equal(rvOf(next), r0);
      all.push(...next.items);
      token = next.metadata.continue;
    }
    assert.deepEqual(
      all.map((i: any) => i.metadata.name),
      ['a', 'b', 'c', 'd', 'e'],
      'f did not exist at N',
    );
  });

  it('resourceVersion=N of a compacted revision: 410 Expired', async () => {
    assertExpired(await list({ resourceVersion: String(compactedRev), limit: '2' }, capi, CCM));
  });
});

describe('List table, resourceVersionMatch unset, limit=n, continue=token', () => {
  let token = '';
  before(async () => {
    token = ok(await list({ resourceVersion: String(r0), limit: '2' })).metadata.continue;
  });

  it('resourceVersion unset: Continue Token, Exact', async () => {
    const l = ok(await list({ limit: '2', continue: token }));
    assert.equal(rvOf(l), r0);
    assert.deepEqual(names(l), ['c', 'd']);
  });

  it('resourceVersion=0: Invalid, treated as Continue Token, Exact', async () => {
    const l = ok(await list({ resourceVersion: '0', limit: '2', continue: token }));
    assert.equal(rvOf(l), r0);
    assert.deepEqual(names(l), ['c', 'd']);
  });

  it('resourceVersion=N: Invalid, HTTP 400', async () => {
    for (const rv of [String(r0), String(rf)]) {
      assertBadRequest(await list({ resourceVersion: rv, limit: '2', continue: token }), 'specifying resource version is not allowed when using continue');
    }
  });

  it('a continue token with resourceVersionMatch: 422 naming resourceVersionMatch', async () => {
    assertInvalidListOptions(await list({ resourceVersion: String(r0), resourceVersionMatch: 'Exact', limit: '2', continue: token }), [
      FORBIDDEN_WITH_CONTINUE,
    ]);
    assertInvalidListOptions(await list({ resourceVersion: '0', resourceVersionMatch: 'NotOlderThan', limit: '2', continue: token }), [
      FORBIDDEN_WITH_CONTINUE,
    ]);
    assertInvalidListOptions(await list({ resourceVersionMatch: 'NotOlderThan', limit: '2', continue: token }), [
      FORBIDDEN_WITHOUT_RV,
      FORBIDDEN_WITH_CONTINUE,
    ]);
  });
});

describe('List table, resourceVersionMatch=Exact', () => {
  for (const limit of [undefined, '2']) {
    const q = (extra: Record<string, string>) => ({ ...extra, ...(limit ? { limit } : {}) });
    const label = limit ? 'limit=2' : 'limit unset';

    it(`${label}, resourceVersion unset: Invalid (422)`, async () => {
      assertInvalidListOptions(await list(q({ resourceVersionMatch: 'Exact' })), [FORBIDDEN_WITHOUT_RV]);
    });

    it(`${label}, resourceVersion=0: Invalid (422)`, async () => {
      assertInvalidListOptions(await list(q({ resourceVersionMatch: 'Exact', resourceVersion: '0' })), [FORBIDDEN_EXACT_ZERO]);
    });

    it(`${label}, resourceVersion=N: Exact`, async () => {
      const l = ok(await list(q({ resourceVersionMatch: 'Exact', resourceVersion: String(r0) })));
      assert.equal(rvOf(l), r0, 'ListMeta resourceVersion is the requested one');
      assert.deepEqual(dataOf(l, 'a'), { v: '1' });
      if (limit) {
        assert.deepEqual(names(l), ['a', 'b']);
        assert.ok(l.metadata.continue);
      } else {
        assert.deepEqual(names(l), ['a', 'b', 'c', 'd', 'e']);
        assert.equal(l.metadata.continue, undefined);
      }
      // An exact read in the middle of the history.
      const mid = ok(await list(q({ resourceVersionMatch: 'Exact', resourceVersion: String(ra) })));
      assert.equal(rvOf(mid), ra);
      assert.deepEqual(dataOf(mid, 'a'), { v: '2' });
    });

    it(`${label}, resourceVersion=N of a compacted revision: 410 Expired`, async () => {
      assertExpired(await list(q({ resourceVersionMatch: 'Exact', resourceVersion: String(compactedRev) }), capi, CCM));
    });
  }
});

describe('List table, resourceVersionMatch=NotOlderThan', () => {
  for (const limit of [undefined, '2']) {
    const q = (extra: Record<string, string>) => ({ ...extra, ...(limit ? { limit } : {}) });
    const label = limit ? 'limit=2' : 'limit unset';

    it(`${label}, resourceVersion unset: Invalid (422)`, async () => {
      assertInvalidListOptions(await list(q({ resourceVersionMatch: 'NotOlderThan' })), [FORBIDDEN_WITHOUT_RV]);
    });

    it(`${label}, resourceVersion=0: Any`, async () => {
      const l = ok(await list(q({ resourceVersionMatch: 'NotOlderThan', resourceVersion: '0' })));
      for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) assert.ok(names(l).includes(n), n);
      assert.ok(rvOf(l) >= rf);
    });

    it(`${label}, resourceVersion=N: Not older than`, async () => {
      const l = ok(await list(q({ resourceVersionMatch: 'NotOlderThan', resourceVersion: String(r0) })));
      assert.ok(rvOf(l) >= rf, `ListMeta ${rvOf(l)} is at least the newest write ${rf}`);
      assert.deepEqual(dataOf(l, 'a'), { v: '2' }, 'current content, not the one at N');
      const all = [...l.items];
      let token = l.metadata.continue;
      if (!limit) assert.equal(token, undefined);
      while (token) {
        const next = ok(await list({ limit: '2', continue: token }));
        assert.equal(rvOf(next), rvOf(l));
        all.push(...next.items);
        token = next.metadata.continue;
      }
      assert.ok(
        all.some((i: any) => i.metadata.name === 'f'),
        'f (created after N) is listed',
      );
    });

    it(`${label}, resourceVersion=N older than the compacted history: 200 (not 410)`, async () => {
      const l = ok(await list(q({ resourceVersionMatch: 'NotOlderThan', resourceVersion: String(compactedRev) }), capi, CCM));
      assert.ok(rvOf(l) > compactedRev);
      assert.equal(names(l)[0], 'a');
    });
  }
});

describe('List options validation', () => {
  it('an unknown resourceVersionMatch: 422 Unsupported value', async () => {
    assertInvalidListOptions(await list({ resourceVersionMatch: 'Newest', resourceVersion: '1' }), [
      'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
    ]);
  });

  it('several errors at once are aggregated', async () => {
    assertInvalidListOptions(await list({ resourceVersionMatch: 'Newest' }), [
      FORBIDDEN_WITHOUT_RV,
      'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
    ]);
  });

  it('sendInitialEvents on a list: 422 (it is for watches only)', async () => {
    const r = await list({ sendInitialEvents: 'true' });
    assertInvalidListOptions(r, ['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list']);
  });

  it('a resourceVersion that is not a number: 400', async () => {
    assertBadRequest(await list({ resourceVersion: 'abc' }), /resource ?version/i);
    assertBadRequest(await list({ resourceVersion: '-5', limit: '2' }), /resource ?version/i);
  });
});

describe('Too large resource version', () => {
  it('get and every list form wait about 3 s, then 504 Timeout / ResourceVersionTooLarge with Retry-After', async () => {
    const current = Number(ok(await list({ limit: '1' })).metadata.resourceVersion);
    const n = current + 1000;
    const cases: [string, string][] = [
      ['get', `${CM}/a?resourceVersion=${n}`],
      ['list', `${CM}?resourceVersion=${n}`],
      ['list NotOlderThan', `${CM}?resourceVersion=${n}&resourceVersionMatch=NotOlderThan`],
      ['list NotOlderThan limit', `${CM}?resourceVersion=${n}&resourceVersionMatch=NotOlderThan&limit=2`],
      ['list Exact', `${CM}?resourceVersion=${n}&resourceVersionMatch=Exact`],
      ['list limit (exact)', `${CM}?resourceVersion=${n}&limit=2`],
      ['list all namespaces', `/api/v1/configmaps?resourceVersion=${n}`],
    ];
    const t0 = performance.now();
    const results = await Promise.all(
      cases.map(async ([what, path]) => {
        const r = await api.req('GET', path);
        return { what, r, took: performance.now() - t0 };
      }),
    );
    for (const { what, r, took } of results) {
      assert.equal(r.status, 504, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
      assert.ok(took >= 2500 && took < 8000, `${what}: answered after ${Math.round(took)} ms`);
      const s = r.json;
      assert.equal(s.kind, 'Status');
      assert.equal(s.reason, 'Timeout', what);
      assert.equal(s.code, 504);
      const m = /^Too large resource version: (\d+), current: (\d+)$/.exec(s.message);
      assert.ok(m, `${what}: message ${s.message}`);
      assert.equal(Number(m[1]), n);
      assert.ok(Number(m[2]) >= current && Number(m[2]) < n, `${what}: current ${m[2]}`);
      assert.deepEqual(
        s.details.causes.map((c: any) => c.reason),
        ['ResourceVersionTooLarge'],
      );
      assert.match(String(r.headers['retry-after']), /^\d+$/, `${what}: Retry-After`);
      assert.ok(Number(r.headers['retry-after']) >= 1);
    }
  });
});
