/**
 * client/'s reflector and shared informer against a scripted server: list then watch from the
 * list's resourceVersion, resume from the last resourceVersion after a dropped watch (no
 * re-list), bookmarks advance the resume point, 410 Gone forces a re-list whose differences
 * reach the handlers, and the store ends equal to the server's state.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SharedInformer } from '../src/client/informer.js';
import { FakeApiServer, type Thing } from './helpers/fake-api-server.js';

let server: FakeApiServer;

before(async () => {
  server = new FakeApiServer();
  await server.start();
});

after(async () => {
  await server.stop();
});

async function until(what: string, cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function storeState(i: SharedInformer<Thing>): Map<string, number | undefined> {
  return new Map(i.store.list().map((t) => [t.metadata.name, t.value]));
}

function watchRequests(): string[] {
  return server.requests.filter((r) => r.includes('watch=true'));
}

describe('reflector and informer', () => {
  const seen: string[] = [];
  let informer: SharedInformer<Thing>;

  before(async () => {
    server.put('a', 1);
    server.put('b', 1);
    informer = new SharedInformer<Thing>({ client: server.client, path: server.path });
    informer.addEventHandler({
      add: (o) => seen.push(`add ${o.metadata.name}=${o.value}`),
      update: (o, n) => seen.push(`update ${o.metadata.name} ${o.value}->${n.value}`),
      delete: (o) => seen.push(`delete ${o.metadata.name}`),
    });
    informer.start();
    assert.equal(await informer.waitForSync(), true);
  });

  after(async () => {
    await informer.stop();
  });

  it('lists, then watches from the list resourceVersion with bookmarks and a timeout', async () => {
    assert.equal(informer.hasSynced(), true);
    assert.deepEqual(storeState(informer), server.state());
    assert.deepEqual(seen.splice(0).sort(), ['add a=1', 'add b=1']);
    await until('watch open', () => server.openWatches === 1);
    const w = new URL(watchRequests()[0], 'https://x').searchParams;
    assert.equal(w.get('resourceVersion'), '2');
    assert.equal(w.get('allowWatchBookmarks'), 'true');
    const timeout = Number(w.get('timeoutSeconds'));
    assert.ok(timeout >= 300 && timeout < 600, `timeoutSeconds ${timeout}`);
  });

  it('delivers watch events to handlers in order', async () => {
    server.put('c', 1);
    server.put('a', 2);
    server.remove('b');
    await until('events', () => seen.length === 3);
    assert.deepEqual(seen.splice(0), ['add c=1', 'update a 1->2', 'delete b']);
    assert.deepEqual(storeState(informer), server.state());
  });

  it('resumes from the last resourceVersion after a dropped watch, without listing again', async () => {
    const lists = informer.reflector.listCount;
    const watchesBefore = watchRequests().length;
    const lastSeen = server.resourceVersion;
    server.dropWatches();
    // Changes while the watch is down are in the server's history and come with the resume.
    server.put('d', 1);
    server.put('c', 5);
    await until('resumed watch', () => watchRequests().length > watchesBefore && server.openWatches === 1, 10_000);
    const resume = new URL(watchRequests()[watchesBefore], 'https://x').searchParams;
    assert.equal(resume.get('resourceVersion'), String(lastSeen));
    await until('events after resume', () => seen.length === 2);
    assert.deepEqual(seen.splice(0), ['add d=1', 'update c 1->5']);
    assert.equal(informer.reflector.listCount, lists);
    assert.deepEqual(storeState(informer), server.state());
  });

  it('follows bookmarks: a resume starts at the bookmark resourceVersion', async () => {
    // Changes the informer never sees as events (another collection, say) advance the version.
    server.advance(10);
    server.bookmark();
    await until('bookmark applied', () => informer.reflector.lastResourceVersion === String(server.resourceVersion));
    const watchesBefore = watchRequests().length;
    server.dropWatches();
    await until('resumed watch', () => watchRequests().length > watchesBefore, 10_000);
    assert.equal(new URL(watchRequests()[watchesBefore], 'https://x').searchParams.get('resourceVersion'), String(server.resourceVersion));
  });

  it('lists again on 410 Gone, and the handlers see what changed meanwhile', async () => {
    await until('watch open', () => server.openWatches === 1);
    const lists = informer.reflector.listCount;
    server.dropWatches();
    server.remove('a');
    server.put('c', 9);
    server.put('e', 1);
    // The history the resume needs is gone: the watch answers 410 and the reflector re-lists.
    server.compact();
    await until('re-list', () => informer.reflector.listCount === lists + 1, 10_000);
    assert.deepEqual(storeState(informer), server.state());
    assert.deepEqual(
      seen
        .splice(0)
        .filter((s) => !/^update (d|c) (\d+)->\2$/.test(s))
        .sort(),
      ['add e=1', 'delete a', 'update c 5->9'],
    );
    await until('watch after re-list', () => server.openWatches === 1);
  });
});

describe('informer transform', () => {
  it('applies to listed and watched objects before the store and the handlers see them', async () => {
    server.put('t1', 1);
    const seen: string[] = [];
    const informer = new SharedInformer<Thing>({ client: server.client, path: server.path, transform: (t) => ({ ...t, value: (t.value ?? 0) * 10 }) });
    informer.addEventHandler({
      add: (o) => o.metadata.name.startsWith('t') && seen.push(`add ${o.metadata.name}=${o.value}`),
      update: (o, n) => o.metadata.name.startsWith('t') && seen.push(`update ${o.metadata.name} ${o.value}->${n.value}`),
    });
    try {
      informer.start();
      assert.equal(await informer.waitForSync(), true);
      await until('watch open', () => server.openWatches >= 1);
      server.put('t1', 2);
      server.put('t2', 3);
      await until('events', () => seen.length === 3);
      assert.deepEqual(seen, ['add t1=10', 'update t1 10->20', 'add t2=30']);
      assert.deepEqual(storeState(informer), new Map([...server.state()].map(([k, v]) => [k, (v ?? 0) * 10])));
    } finally {
      await informer.stop();
    }
  });
});
