/**
 * Watches as a client sees them: the Watch table (synthetic ADDED for unset and `0`, only
 * later changes for an exact start, ERROR 410 for a start before the kept history), scopes
 * (namespace, all namespaces, one object), label-selector transitions, timeoutSeconds,
 * HTTP/2, bookmarks, watch-list (sendInitialEvents) and a resourceVersion never reached.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';
import { delay, keepAliveClient, openWatch, openWatchH2, type Client, type WatchEvent, type WatchStream } from './helpers/watch-client.js';

let cluster: TestCluster;
let compacting: TestCluster;
let compat: TestCluster;
let api: Client;
let capi: Client;
let kapi: Client;
const streams: WatchStream[] = [];

const cm = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;

async function watch(path: string, c: TestCluster = cluster): Promise<WatchStream> {
  const w = await openWatch(c, path);
  streams.push(w);
  return w;
}

async function watchOk(path: string, c: TestCluster = cluster): Promise<WatchStream> {
  const w = await watch(path, c);
  assert.equal(w.status, 200, `watch ${path}: ${w.status} ${w.text}`);
  return w;
}

/** The revision the server is at (a consistent list of namespaces). */
async function currentRv(c: Client = api): Promise<number> {
  return Number((await c.ok('GET', '/api/v1/namespaces?limit=1')).metadata.resourceVersion);
}

const summary = (events: WatchEvent[]) => events.map((e) => `${e.type} ${e.object?.metadata?.name}`);
const rvOf = (o: any) => Number(o.metadata.resourceVersion);

/** A namespace, once the serviceaccount controller has written its `default` (tests reason about the next resourceVersions). */
async function namespace(c: Client, name: string): Promise<void> {
  await c.ok('POST', '/api/v1/namespaces', { metadata: { name } });
  for (let i = 0; (await c.req('GET', `/api/v1/namespaces/${name}/serviceaccounts/default`)).status !== 200; i++) {
    assert.ok(i < 250, `no default ServiceAccount in ${name}`);
    await delay(20);
  }
}

before(async () => {
  [cluster, compacting, compat] = await Promise.all([
    startTestCluster(),
    startTestCluster({ compactionIntervalMs: 300 }),
    startTestCluster({ kubernetesCompat: true }),
  ]);
  api = keepAliveClient(cluster);
  capi = keepAliveClient(compacting);
  kapi = keepAliveClient(compat);
});

after(async () => {
  for (const w of streams) w.close();
  api?.close();
  capi?.close();
  kapi?.close();
  await Promise.all([cluster?.close(), compacting?.close(), compat?.close()]);
});

describe('Watch table', () => {
  for (const [label, query] of [
    ['resourceVersion unset: Get State and Start at Most Recent', ''],
    ['resourceVersion=0: Get State and Start at Any', '&resourceVersion=0'],
  ] as const) {
    it(`${label}: ADDED for every existing object, then every change`, async () => {
      const ns = query ? 'w-zero' : 'w-unset';
      await namespace(api, ns);
      const x = await api.ok('POST', cm(ns), { metadata: { name: 'x' }, data: { v: '1' } });
      const y = await api.ok('POST', cm(ns), { metadata: { name: 'y' }, data: { v: '1' } });
      const w = await watchOk(`${cm(ns)}?watch=true${query}`);
      const initial = await w.take(2);
      assert.deepEqual(summary(initial).sort(), ['ADDED x', 'ADDED y']);
      const byName = Object.fromEntries(initial.map((e) => [e.object.metadata.name, e.object]));
      assert.equal(byName.x.metadata.resourceVersion, x.metadata.resourceVersion);
      assert.equal(byName.y.metadata.resourceVersion, y.metadata.resourceVersion);
      assert.deepEqual(byName.x.data, { v: '1' });
      assert.equal(byName.x.kind, 'ConfigMap');

      const z = await api.ok('POST', cm(ns), { metadata: { name: 'z' } });
      const x2 = await api.ok('PUT', `${cm(ns)}/x`, { metadata: { name: 'x' }, data: { v: '2' } });
      await api.ok('DELETE', `${cm(ns)}/y`);
      const live = await w.take(3);
      assert.deepEqual(summary(live), ['ADDED z', 'MODIFIED x', 'DELETED y']);
      assert.equal(live[0].object.metadata.resourceVersion, z.metadata.resourceVersion);
      assert.equal(live[1].object.metadata.resourceVersion, x2.metadata.resourceVersion);
      assert.deepEqual(live[1].object.data, { v: '2' });
      // A deleted object arrives with its last content and the deletion's resourceVersion.
      assert.deepEqual(live[2].object.data, { v: '1' });
      assert.ok(rvOf(live[2].object) > rvOf(live[1].object));
      assert.deepEqual(await w.quiet(100), []);
    });
  }

  it('resourceVersion=N: Start at Exact, only the changes after N (including those before the watch began), no synthetic ADDED', async () => {
    const ns = 'w-exact';
    await namespace(api, ns);
    const a = await api.ok('POST', cm(ns), { metadata: { name: 'a' }, data: { v: '1' } });
    const n = rvOf(a);
    await api.ok('POST', cm(ns), { metadata: { name: 'b' } });
    await api.ok('PUT', `${cm(ns)}/a`, { metadata: { name: 'a' }, data: { v: '2' } });
    const w = await watchOk(`${cm(ns)}?watch=true&resourceVersion=${n}`);
    assert.deepEqual(summary(await w.take(2)), ['ADDED b', 'MODIFIED a']);
    await api.ok('DELETE', `${cm(ns)}/b`);
    assert.deepEqual(summary(await w.take(1)), ['DELETED b']);
    assert.deepEqual(await w.quiet(100), []);
  });

  it('resourceVersion=N at the current revision: nothing until the next change', async () => {
    const ns = 'w-current';
    await namespace(api, ns);
    await api.ok('POST', cm(ns), { metadata: { name: 'a' } });
    const w = await watchOk(`${cm(ns)}?watch=true&resourceVersion=${await currentRv()}`);
    assert.deepEqual(await w.quiet(200), []);
    await api.ok('POST', cm(ns), { metadata: { name: 'b' } });
    assert.deepEqual(summary(await w.take(1)), ['ADDED b']);
  });

  it('resourceVersion=N a little ahead: the watch waits for N, then sends what follows it', async () => {
    const ns = 'w-ahead';
    await namespace(api, ns);
    const n = (await currentRv()) + 1;
    const t0 = performance.now();
    const pending = watch(`${cm(ns)}?watch=true&resourceVersion=${n}`);
    await delay(300);
    await api.ok('POST', cm(ns), { metadata: { name: 'at-n' } });
    await api.ok('POST', cm(ns), { metadata: { name: 'after-n' } });
    const w = await pending;
    assert.equal(w.status, 200, w.text);
    assert.ok(performance.now() - t0 < 2500);
    assert.deepEqual(summary(await w.take(1)), ['ADDED after-n']);
  });

  it('resourceVersion older than the kept history: an ERROR event carrying a 410 Expired Status, then the end', async () => {
    const ns = 'w-expired';
    await namespace(capi, ns);
    const r1 = rvOf(await capi.ok('POST', cm(ns), { metadata: { name: 'a' }, data: { v: '1' } }));
    const r2 = rvOf(await capi.ok('PUT', `${cm(ns)}/a`, { metadata: { name: 'a' }, data: { v: '2' } }));
    // The watch cache keeps compactionIntervalMs (300 ms) of events; later writes push r1 and r2 out.
    await delay(500);
    await capi.ok('PUT', `${cm(ns)}/a`, { metadata: { name: 'a' }, data: { v: '3' } });
    await capi.ok('PUT', `${cm(ns)}/a`, { metadata: { name: 'a' }, data: { v: '4' } });
    const w = await watchOk(`${cm(ns)}?watch=true&resourceVersion=${r1}`, compacting);
    await w.ended;
    assert.equal(w.events.length, 1, w.describe());
    const [e] = w.events;
    assert.equal(e.type, 'ERROR');
    assert.equal(e.object.kind, 'Status');
    assert.equal(e.object.apiVersion, 'v1');
    assert.equal(e.object.status, 'Failure');
    assert.equal(e.object.reason, 'Expired');
    assert.equal(e.object.code, 410);
    const m = /^too old resource version: (\d+) \((\d+)\)$/.exec(e.object.message);
    assert.ok(m, e.object.message);
    assert.equal(Number(m[1]), r1);
    assert.ok(Number(m[2]) >= r2, `oldest kept ${m[2]} is past ${r2}`);
    // From the newest revision on, the same watch works.
    const ok = await watchOk(`${cm(ns)}?watch=true&resourceVersion=${await currentRv(capi)}`, compacting);
    await capi.ok('DELETE', `${cm(ns)}/a`);
    assert.deepEqual(summary(await ok.take(1)), ['DELETED a']);
  });
});

describe('Watch scopes', () => {
  before(async () => {
    await namespace(api, 'wa');
    await namespace(api, 'wb');
  });

  it('a namespace watch sees only its namespace; an all-namespaces watch sees every namespace', async () => {
    const from = await currentRv();
    const one = await watchOk(`${cm('wa')}?watch=true&resourceVersion=${from}`);
    const all = await watchOk(`/api/v1/configmaps?watch=true&resourceVersion=${from}`);
    await api.ok('POST', cm('wb'), { metadata: { name: 'in-b' } });
    await api.ok('POST', cm('wa'), { metadata: { name: 'in-a' } });
    assert.deepEqual(summary(await one.take(1)), ['ADDED in-a']);
    const both = await all.take(2);
    assert.deepEqual(
      both.map((e) => `${e.object.metadata.namespace}/${e.object.metadata.name}`),
      ['wb/in-b', 'wa/in-a'],
    );
    assert.deepEqual(await one.quiet(100), []);
  });

  it('an all-namespaces watch with rv unset starts with every object of every namespace', async () => {
    const w = await watchOk('/api/v1/configmaps?watch=true&fieldSelector=metadata.namespace%3Dwb');
    assert.deepEqual(summary(await w.take(1)), ['ADDED in-b']);
    assert.deepEqual(await w.quiet(100), []);
  });

  it('a watch of one object (fieldSelector=metadata.name=solo) sees only that object, through delete and re-create', async () => {
    await api.ok('POST', cm('wa'), { metadata: { name: 'solo' }, data: { v: '1' } });
    await api.ok('POST', cm('wa'), { metadata: { name: 'solo2' } });
    await api.ok('POST', cm('wb'), { metadata: { name: 'solo' } });
    const w = await watchOk(`${cm('wa')}?watch=true&fieldSelector=metadata.name%3Dsolo`);
    assert.deepEqual(summary(await w.take(1)), ['ADDED solo']);
    await api.ok('PUT', `${cm('wa')}/solo2`, { metadata: { name: 'solo2' }, data: { v: '9' } });
    await api.ok('PUT', `${cm('wb')}/solo`, { metadata: { name: 'solo' }, data: { v: '9' } });
    await api.ok('PUT', `${cm('wa')}/solo`, { metadata: { name: 'solo' }, data: { v: '2' } });
    await api.ok('DELETE', `${cm('wa')}/solo`);
    await api.ok('POST', cm('wa'), { metadata: { name: 'solo' }, data: { v: 'again' } });
    const got = await w.take(3);
    assert.deepEqual(summary(got), ['MODIFIED solo', 'DELETED solo', 'ADDED solo']);
    assert.ok(got.every((e) => e.object.metadata.namespace === 'wa'));
    assert.deepEqual(got[2].object.data, { v: 'again' });
    assert.deepEqual(await w.quiet(100), []);
    // The same object name across namespaces.
    const across = await watchOk('/api/v1/configmaps?watch=true&fieldSelector=metadata.name%3Dsolo');
    const initial = await across.take(2);
    assert.deepEqual(initial.map((e) => `${e.type} ${e.object.metadata.namespace}/${e.object.metadata.name}`).sort(), ['ADDED wa/solo', 'ADDED wb/solo']);
  });

  it('label selector transitions: starts matching -> ADDED, stops matching -> DELETED with the previous content', async () => {
    const ns = 'wl';
    await namespace(api, ns);
    await api.ok('POST', cm(ns), { metadata: { name: 'm1', labels: { app: 'on' } }, data: { v: '1' } });
    await api.ok('POST', cm(ns), { metadata: { name: 'm2', labels: { app: 'off' } }, data: { v: '1' } });
    const w = await watchOk(`${cm(ns)}?watch=true&labelSelector=app%3Don`);
    assert.deepEqual(summary(await w.take(1)), ['ADDED m1']);

    const m2on = await api.ok('PUT', `${cm(ns)}/m2`, { metadata: { name: 'm2', labels: { app: 'on' } }, data: { v: '2' } });
    const [added] = await w.take(1);
    assert.deepEqual(summary([added]), ['ADDED m2']);
    assert.deepEqual(added.object.data, { v: '2' });
    assert.equal(added.object.metadata.resourceVersion, m2on.metadata.resourceVersion);

    await api.ok('PUT', `${cm(ns)}/m1`, { metadata: { name: 'm1', labels: { app: 'on' } }, data: { v: '2' } });
    assert.deepEqual(summary(await w.take(1)), ['MODIFIED m1']);

    const m1off = await api.ok('PUT', `${cm(ns)}/m1`, { metadata: { name: 'm1', labels: { app: 'off' } }, data: { v: '3' } });
    const [deleted] = await w.take(1);
    assert.deepEqual(summary([deleted]), ['DELETED m1']);
    assert.deepEqual(deleted.object.metadata.labels, { app: 'on' }, 'the previous content');
    assert.deepEqual(deleted.object.data, { v: '2' }, 'the previous content');
    assert.equal(deleted.object.metadata.resourceVersion, m1off.metadata.resourceVersion, "at the change's resourceVersion");

    // Changes to an object that does not match are not sent, nor is its deletion.
    await api.ok('PUT', `${cm(ns)}/m1`, { metadata: { name: 'm1', labels: { app: 'off' } }, data: { v: '4' } });
    await api.ok('DELETE', `${cm(ns)}/m1`);
    await api.ok('DELETE', `${cm(ns)}/m2`);
    assert.deepEqual(summary(await w.take(1)), ['DELETED m2']);
    assert.deepEqual(await w.quiet(100), []);
  });
});

describe('Watch streams', () => {
  it('timeoutSeconds closes the stream on time', async () => {
    await namespace(api, 'wt');
    const t0 = performance.now();
    const w = await watchOk(`${cm('wt')}?watch=true&timeoutSeconds=1`);
    await api.ok('POST', cm('wt'), { metadata: { name: 'a' } });
    await w.ended;
    const took = (w.endedAt as number) - t0;
    assert.ok(took >= 950 && took < 2500, `ended after ${Math.round(took)} ms`);
    assert.deepEqual(summary(w.events), ['ADDED a']);
    assert.equal(w.parseError, undefined);
  });

  it('timeoutSeconds=0 means the default timeout: the stream stays open', async () => {
    const w = await watchOk(`${cm('wt')}?watch=true&timeoutSeconds=0&resourceVersion=${await currentRv()}`);
    await delay(1200);
    assert.equal(w.endedAt, undefined, 'the watch ended at once');
    await api.ok('POST', cm('wt'), { metadata: { name: 'after-zero' } });
    assert.deepEqual(summary(await w.take(1)), ['ADDED after-zero']);
    w.close();
  });

  it('every line is one JSON event with a type and an object, sent as chunks', async () => {
    const w = await watchOk(`${cm('wt')}?watch=true&timeoutSeconds=1`);
    assert.equal(w.headers['content-type'], 'application/json');
    assert.equal(w.headers['transfer-encoding'], 'chunked');
    await w.ended;
    assert.ok(w.events.length >= 1);
    assert.equal(w.parseError, undefined);
  });

  it('works over HTTP/2: initial state, live changes, and timeoutSeconds', async () => {
    await namespace(api, 'wh2');
    await api.ok('POST', cm('wh2'), { metadata: { name: 'a' } });
    const t0 = performance.now();
    const w = await openWatchH2(cluster, `${cm('wh2')}?watch=true&timeoutSeconds=1`);
    streams.push(w);
    assert.equal(w.status, 200);
    assert.equal(w.alpn, 'h2');
    assert.deepEqual(summary(await w.take(1)), ['ADDED a']);
    await api.ok('PUT', `${cm('wh2')}/a`, { metadata: { name: 'a' }, data: { v: '2' } });
    await api.ok('DELETE', `${cm('wh2')}/a`);
    assert.deepEqual(summary(await w.take(2)), ['MODIFIED a', 'DELETED a']);
    await w.ended;
    const took = (w.endedAt as number) - t0;
    assert.ok(took >= 950 && took < 2500, `ended after ${Math.round(took)} ms`);
  });
});

describe('Bookmarks', () => {
  before(async () => {
    await namespace(api, 'wbm');
    await api.ok('POST', cm('wbm'), { metadata: { name: 'a' } });
  });

  it('allowWatchBookmarks=true: a BOOKMARK at the end of timeoutSeconds with only metadata.resourceVersion', async () => {
    const w = await watchOk(`${cm('wbm')}?watch=true&allowWatchBookmarks=true&timeoutSeconds=1`);
    const [added] = await w.take(1);
    assert.equal(added.type, 'ADDED');
    const changed = await api.ok('PUT', `${cm('wbm')}/a`, { metadata: { name: 'a' }, data: { v: '2' } });
    await w.ended;
    const types = w.events.map((e) => e.type);
    assert.deepEqual(types, ['ADDED', 'MODIFIED', 'BOOKMARK']);
    const bookmark = w.events[2].object;
    assert.deepEqual(Object.keys(bookmark).sort(), ['apiVersion', 'kind', 'metadata']);
    assert.equal(bookmark.kind, 'ConfigMap');
    assert.equal(bookmark.apiVersion, 'v1');
    assert.deepEqual(Object.keys(bookmark.metadata), ['resourceVersion']);
    assert.ok(rvOf(bookmark) >= rvOf(changed), 'every change up to the bookmark was sent');
  });

  it('the bookmark has the watched type (a cluster-scoped and a grouped type)', async () => {
    const ns = await watchOk('/api/v1/namespaces?watch=true&allowWatchBookmarks=true&timeoutSeconds=1');
    await ns.ended;
    const last = ns.events[ns.events.length - 1];
    assert.equal(last.type, 'BOOKMARK');
    assert.equal(last.object.kind, 'Namespace');
    assert.equal(last.object.apiVersion, 'v1');
    const deploys = await watchOk('/apis/apps/v1/deployments?watch=true&allowWatchBookmarks=true&timeoutSeconds=1');
    await deploys.ended;
    assert.deepEqual(
      deploys.events.map((e) => [e.type, e.object.kind, e.object.apiVersion]),
      [['BOOKMARK', 'Deployment', 'apps/v1']],
    );
  });

  for (const q of ['', '&allowWatchBookmarks=false']) {
    it(`never a BOOKMARK without asking${q ? ' (allowWatchBookmarks=false)' : ''}`, async () => {
      const w = await watchOk(`${cm('wbm')}?watch=true&timeoutSeconds=1${q}`);
      await w.ended;
      assert.deepEqual(
        w.events.map((e) => e.type),
        ['ADDED'],
      );
    });
  }
});

describe('Watch-list (sendInitialEvents)', () => {
  const WATCH_LIST = 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';

  async function expectWatchList(c: TestCluster, client: Client, ns: string, extra: string, annotation: string) {
    const objs = [];
    for (const n of ['a', 'b', 'c']) objs.push(await client.ok('POST', cm(ns), { metadata: { name: n } }));
    const w = await watchOk(`${cm(ns)}?${WATCH_LIST}${extra}`, c);
    const initial = await w.take(4);
    assert.deepEqual(
      initial.map((e) => e.type),
      ['ADDED', 'ADDED', 'ADDED', 'BOOKMARK'],
    );
    assert.deepEqual(
      initial
        .slice(0, 3)
        .map((e) => e.object.metadata.name)
        .sort(),
      ['a', 'b', 'c'],
    );
    const bookmark = initial[3].object;
    assert.equal(bookmark.kind, 'ConfigMap');
    assert.deepEqual(bookmark.metadata.annotations, { [annotation]: 'true' });
    assert.ok(rvOf(bookmark) >= Math.max(...objs.map(rvOf)));
    await client.ok('POST', cm(ns), { metadata: { name: 'd' } });
    assert.deepEqual(summary(await w.take(1)), ['ADDED d']);
  }

  it('ADDED for every object, then a BOOKMARK annotated orch.io/initial-events-end, then live changes', async () => {
    await namespace(api, 'wwl');
    await expectWatchList(cluster, api, 'wwl', '', 'orch.io/initial-events-end');
  });

  it('the same from resourceVersion=0 and from a resourceVersion N (not older than N)', async () => {
    await namespace(api, 'wwl0');
    await expectWatchList(cluster, api, 'wwl0', '&resourceVersion=0', 'orch.io/initial-events-end');
    await namespace(api, 'wwln');
    await expectWatchList(cluster, api, 'wwln', `&resourceVersion=${await currentRv()}`, 'orch.io/initial-events-end');
  });

  it('in --kubernetes-compat mode the annotation is k8s.io/initial-events-end', async () => {
    await namespace(kapi, 'wwl');
    await expectWatchList(compat, kapi, 'wwl', '', 'k8s.io/initial-events-end');
  });

  it('sendInitialEvents=false with NotOlderThan and resourceVersion=N: no initial state, the changes after N', async () => {
    const ns = 'wwlf';
    await namespace(api, ns);
    const a = await api.ok('POST', cm(ns), { metadata: { name: 'a' } });
    await api.ok('POST', cm(ns), { metadata: { name: 'b' } });
    const w = await watchOk(`${cm(ns)}?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=${a.metadata.resourceVersion}`);
    assert.deepEqual(summary(await w.take(1)), ['ADDED b']);
    assert.deepEqual(await w.quiet(100), []);
  });

  it('sendInitialEvents=false with NotOlderThan and resourceVersion unset: starts at the most recent state, no initial events', async () => {
    const ns = 'wwlu';
    await namespace(api, ns);
    await api.ok('POST', cm(ns), { metadata: { name: 'a' } });
    const w = await watchOk(`${cm(ns)}?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan`);
    assert.deepEqual(await w.quiet(150), []);
    await api.ok('POST', cm(ns), { metadata: { name: 'b' } });
    assert.deepEqual(summary(await w.take(1)), ['ADDED b']);
  });

  const rejected: [string, string, number, string[]][] = [
    [
      'sendInitialEvents without resourceVersionMatch',
      'sendInitialEvents=true&allowWatchBookmarks=true',
      422,
      ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    ],
    [
      'sendInitialEvents with resourceVersionMatch=Exact',
      'sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=Exact&resourceVersion=1',
      422,
      [
        'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
      ],
    ],
    [
      'resourceVersionMatch without sendInitialEvents',
      'resourceVersionMatch=NotOlderThan&resourceVersion=1',
      422,
      ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
    ],
    ['sendInitialEvents=true without allowWatchBookmarks', 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan', 422, ['allowWatchBookmarks']],
    [
      'a sendInitialEvents that is not a boolean',
      'sendInitialEvents=yes&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      400,
      ['sendInitialEvents'],
    ],
    ['a continue token on a watch', 'continue=abc', 422, ['continue']],
  ];
  for (const [what, query, code, expected] of rejected) {
    it(`rejects ${what} (${code})`, async () => {
      const w = await watch(`${cm('default')}?watch=true&${query}`);
      assert.equal(w.status, code, `${w.status}: ${w.text}`);
      const s = w.json;
      assert.equal(s.kind, 'Status');
      if (code === 422) {
        assert.equal(s.reason, 'Invalid');
        assert.equal(s.details.kind, 'ListOptions');
        const causes = s.details.causes.map((c: any) => `${c.field}: ${c.message}`);
        if (expected[0].includes(':')) assert.deepEqual(causes, expected);
        else
          assert.ok(
            s.details.causes.some((c: any) => c.field === expected[0]),
            s.message,
          );
      } else {
        assert.equal(s.reason, 'BadRequest');
        assert.match(s.message, new RegExp(expected[0]));
      }
    });
  }
});

describe('Too large resource version', () => {
  it('a watch waits about 3 s, then 504 Timeout / ResourceVersionTooLarge with Retry-After', async () => {
    const current = await currentRv();
    const n = current + 1000;
    const t0 = performance.now();
    const [w, h2] = await Promise.all([
      watch(`${cm('default')}?watch=true&resourceVersion=${n}`),
      openWatchH2(cluster, `/api/v1/configmaps?watch=true&resourceVersion=${n}`),
    ]);
    streams.push(h2);
    const took = performance.now() - t0;
    assert.ok(took >= 2500 && took < 8000, `answered after ${Math.round(took)} ms`);
    for (const r of [w, h2]) {
      assert.equal(r.status, 504, r.text);
      const s = r.json;
      assert.equal(s.reason, 'Timeout');
      assert.equal(s.code, 504);
      const m = /^Too large resource version: (\d+), current: (\d+)$/.exec(s.message);
      assert.ok(m, s.message);
      assert.equal(Number(m[1]), n);
      assert.ok(Number(m[2]) >= current && Number(m[2]) < n);
      assert.deepEqual(
        s.details.causes.map((c: any) => c.reason),
        ['ResourceVersionTooLarge'],
      );
      assert.match(String(r.headers['retry-after']), /^\d+$/);
    }
  });
});
