// The watch cache over an in-memory store: what it lists, the events it hands to listeners,
// how far back a watch can resume (injected clock), waiting for a revision, and encode-once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../memory/memory-store.js';
import { StoreError, type KeyValue, type Store } from '../interface.js';
import { Cacher } from './cacher.js';
import type { CacheEntry, CacheEvent } from './types.js';
import { watchLine } from '../../registry/watch.js';

const PREFIX = '/registry/things/';
const enc = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));

/** A toEntry that serves `{"name","v","rv"}` and counts its calls. */
function entryEncoder() {
  const calls: { key: string; revision: number }[] = [];
  const toEntry = (kv: KeyValue, revision: number): CacheEntry => {
    calls.push({ key: kv.key, revision });
    const obj = JSON.parse(new TextDecoder().decode(kv.value)) as { v?: string; labels?: Record<string, string> };
    const name = kv.key.slice(kv.key.lastIndexOf('/') + 1);
    return { key: kv.key, modRevision: revision, json: Buffer.from(JSON.stringify({ name, v: obj.v, rv: revision })), labels: obj.labels, fields: {} };
  };
  return { toEntry, calls };
}

function clock(start = 0) {
  let t = start;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
  };
}

const served = (e: CacheEntry | undefined): unknown => (e === undefined ? undefined : JSON.parse(e.json.toString('utf8')));

async function setup(opts: { historyMs?: number; maxEvents?: number; maxBytes?: number } = {}) {
  const store = new MemoryStore();
  const c = clock(1_000_000);
  const { toEntry, calls } = entryEncoder();
  const cacher = new Cacher(store, PREFIX, toEntry, { ...opts, now: c.now });
  return { store, clock: c, cacher, calls };
}

function collect(cacher: Cacher): CacheEvent[] {
  const got: CacheEvent[] = [];
  cacher.listen((e) => {
    got.push(e);
    return true;
  });
  return got;
}

describe('Cacher', () => {
  it('starts with the store state, in key order, live at the store revision', async () => {
    const { store, cacher } = await setup();
    await store.create(`${PREFIX}ns1/b`, enc({ v: 'b' }));
    await store.create(`${PREFIX}ns1/a`, enc({ v: 'a' }));
    await store.create(`${PREFIX}ns10/c`, enc({ v: 'c' }));
    await store.create('/registry/other/x', enc({ v: 'x' }));
    await cacher.start();
    assert.equal(cacher.isLive(), true);
    assert.equal(cacher.currentRevision(), 4);
    assert.deepEqual(
      cacher.list().map((e) => e.key),
      [`${PREFIX}ns1/a`, `${PREFIX}ns1/b`, `${PREFIX}ns10/c`],
    );
    // A sub-prefix (one namespace) never includes a namespace whose name merely starts the same.
    assert.deepEqual(
      cacher.list(`${PREFIX}ns1/`).map((e) => e.key),
      [`${PREFIX}ns1/a`, `${PREFIX}ns1/b`],
    );
    assert.deepEqual(cacher.list(`${PREFIX}ns2/`), []);
    assert.deepEqual(served(cacher.get(`${PREFIX}ns1/a`)), { name: 'a', v: 'a', rv: 2 });
    await store.close();
  });

  it('turns every write into one event in revision order: ADDED, MODIFIED with prev, DELETED with the last state at the delete revision', async () => {
    const { store, cacher } = await setup();
    await cacher.start();
    const got = collect(cacher);
    const r1 = await store.create(`${PREFIX}a`, enc({ v: '1' }));
    const r2 = await store.update(`${PREFIX}a`, enc({ v: '2' }), r1);
    await store.create('/registry/other/x', enc({ v: 'x' }));
    const r4 = await store.delete(`${PREFIX}a`);
    assert.deepEqual(
      got.map((e) => [e.type, e.revision]),
      [
        ['ADDED', r1],
        ['MODIFIED', r2],
        ['DELETED', r4],
      ],
    );
    assert.equal(got[0].prev, undefined);
    assert.deepEqual(served(got[1].prev), { name: 'a', v: '1', rv: r1 });
    assert.deepEqual(served(got[1].entry), { name: 'a', v: '2', rv: r2 });
    assert.deepEqual(served(got[2].entry), { name: 'a', v: '2', rv: r4 });
    assert.deepEqual(served(got[2].deleted), { name: 'a', v: '2', rv: r4 });
    assert.equal(cacher.get(`${PREFIX}a`), undefined);
    assert.deepEqual(cacher.list(), []);
    // The cache follows the store's revision, other resources' writes included.
    assert.equal(cacher.currentRevision(), r4);
    await store.close();
  });

  it("gives a MODIFIED event the previous content at the event's revision (what a selector that stops matching sends as DELETED)", async () => {
    const { store, cacher } = await setup();
    await cacher.start();
    const got = collect(cacher);
    const r1 = await store.create(`${PREFIX}a`, enc({ v: 'old', labels: { app: 'on' } }));
    const r2 = await store.update(`${PREFIX}a`, enc({ v: 'new', labels: { app: 'off' } }), r1);
    const modified = got[1];
    assert.equal(modified.type, 'MODIFIED');
    assert.deepEqual(modified.deleted?.labels, { app: 'on' });
    assert.deepEqual(served(modified.deleted), { name: 'a', v: 'old', rv: r2 });
    await store.close();
  });

  it('encodes each object once per write and shares the bytes with every reader', async () => {
    const { store, cacher, calls } = await setup();
    await store.create(`${PREFIX}a`, enc({ v: '0' }));
    await cacher.start();
    assert.equal(calls.length, 1);
    const a = collect(cacher);
    const b = collect(cacher);
    const rev = await store.update(`${PREFIX}a`, enc({ v: '1' }), 1);
    // One encode for the new state; nobody asked for the DELETED form, so none for it.
    assert.equal(calls.length, 2);
    assert.equal(a[0], b[0]);
    const entry = cacher.get(`${PREFIX}a`) as CacheEntry;
    assert.equal(a[0].entry, entry);
    assert.equal(cacher.list()[0], entry);
    assert.equal(cacher.eventsSince(rev - 1)?.[0], a[0]);
    // The watch line of an event is built once per type and then reused.
    const line = watchLine(a[0], 'MODIFIED', a[0].entry);
    assert.equal(watchLine(b[0], 'MODIFIED', b[0].entry), line);
    assert.equal(line.toString('utf8'), `{"type":"MODIFIED","object":${entry.json.toString('utf8')}}\n`);
    for (let i = 0; i < 5; i++) cacher.list();
    assert.equal(calls.length, 2);
    await store.close();
  });

  it('serves resumes after the revision it started at, and refuses older ones', async () => {
    const { store, cacher } = await setup();
    for (let i = 0; i < 5; i++) await store.create(`${PREFIX}k${i}`, enc({ v: String(i) }));
    await cacher.start();
    assert.equal(cacher.oldestResumableRevision(), 5);
    assert.equal(cacher.eventsSince(4), undefined);
    assert.deepEqual(cacher.eventsSince(5), []);
    await store.create(`${PREFIX}k5`, enc({}));
    await store.create('/registry/other/x', enc({}));
    await store.create(`${PREFIX}k6`, enc({}));
    assert.deepEqual(
      cacher.eventsSince(5)?.map((e) => e.revision),
      [6, 8],
    );
    assert.deepEqual(
      cacher.eventsSince(6)?.map((e) => e.revision),
      [8],
    );
    assert.deepEqual(cacher.eventsSince(8), []);
    await store.close();
  });

  it('keeps events for historyMs: a resume from before that gets undefined (410)', async () => {
    const { store, cacher, clock } = await setup({ historyMs: 60_000 });
    await cacher.start();
    const r1 = await store.create(`${PREFIX}a`, enc({ v: '1' }));
    clock.advance(30_000);
    const r2 = await store.update(`${PREFIX}a`, enc({ v: '2' }), r1);
    clock.advance(30_000);
    const r3 = await store.update(`${PREFIX}a`, enc({ v: '3' }), r2);
    // r1 is exactly 60 s old: still kept.
    assert.deepEqual(
      cacher.eventsSince(0)?.map((e) => e.revision),
      [r1, r2, r3],
    );
    clock.advance(1);
    const r4 = await store.update(`${PREFIX}a`, enc({ v: '4' }), r3);
    assert.equal(cacher.eventsSince(0), undefined);
    assert.equal(cacher.oldestResumableRevision(), r1);
    assert.deepEqual(
      cacher.eventsSince(r1)?.map((e) => e.revision),
      [r2, r3, r4],
    );
    // The current state is never trimmed.
    assert.deepEqual(served(cacher.get(`${PREFIX}a`)), { name: 'a', v: '4', rv: r4 });
    await store.close();
  });

  it('keeps at most maxEvents', async () => {
    const { store, cacher } = await setup({ maxEvents: 10 });
    await cacher.start();
    let rev = await store.create(`${PREFIX}a`, enc({ v: '0' }));
    for (let i = 1; i <= 20; i++) rev = await store.update(`${PREFIX}a`, enc({ v: String(i) }), rev);
    assert.equal(cacher.eventsSince(rev - 10)?.length, 10);
    assert.equal(cacher.eventsSince(rev - 11), undefined);
    await store.close();
  });

  it('keeps at most maxBytes of history: large writes push old events out by size (410 for resumes before them)', async () => {
    const { store, cacher } = await setup({ maxBytes: 1024 * 1024 });
    await cacher.start();
    const payload = 'y'.repeat(100 * 1024);
    const revs: number[] = [];
    let rev = await store.create(`${PREFIX}a`, enc({ v: payload }));
    revs.push(rev);
    for (let i = 1; i < 30; i++) {
      rev = await store.update(`${PREFIX}a`, enc({ v: `${payload}${i}` }), rev);
      revs.push(rev);
    }
    const { events, bytes } = cacher.historySize();
    // Each 100 KiB event is charged about 300 KiB: three fit in 1 MiB, whatever the count and time limits.
    assert.equal(events, 3, `kept ${events} events`);
    assert.ok(bytes <= 1024 * 1024, `kept ${bytes} bytes`);
    const oldest = cacher.oldestResumableRevision();
    assert.equal(cacher.eventsSince(revs[0]), undefined);
    assert.equal(cacher.eventsSince(oldest - 1), undefined);
    assert.deepEqual(
      cacher.eventsSince(oldest)?.map((e) => e.revision),
      revs.slice(revs.length - events),
    );
    await store.close();
  });

  it('bounds the history by default (count and bytes), not only by time', async () => {
    const { store, cacher } = await setup();
    await cacher.start();
    const payload = 'z'.repeat(1024 * 1024);
    let rev = await store.create(`${PREFIX}a`, enc({ v: payload }));
    for (let i = 1; i < 60; i++) rev = await store.update(`${PREFIX}a`, enc({ v: `${payload}${i}` }), rev);
    // 60 MiB written within a second of the injected clock: far less than that is kept.
    assert.ok(cacher.historySize().bytes <= 64 * 1024 * 1024);
    assert.ok(cacher.historySize().events < 40, `kept ${cacher.historySize().events} events of 1 MiB`);
    assert.equal(cacher.eventsSince(0), undefined);
    await store.close();
  });

  it('waitFor resolves at once for a reached revision, when a write reaches it, and false on timeout', async () => {
    const { store, cacher } = await setup();
    await store.create(`${PREFIX}a`, enc({}));
    await cacher.start();
    assert.equal(await cacher.waitFor(1, 10), true);
    const t0 = performance.now();
    const waiting = cacher.waitFor(3, 2000);
    await store.create(`${PREFIX}b`, enc({}));
    await store.create(`${PREFIX}c`, enc({}));
    assert.equal(await waiting, true);
    assert.ok(performance.now() - t0 < 500, 'resolved by the write, not the timeout');
    const t1 = performance.now();
    assert.equal(await cacher.waitFor(10, 100), false);
    assert.ok(performance.now() - t1 >= 95);
    await store.close();
  });

  it("waitFor resolves promptly when another resource's write reaches the revision", async () => {
    const { store, cacher } = await setup();
    await cacher.start();
    const t0 = performance.now();
    const waiting = cacher.waitFor(1, 3000);
    await store.create('/registry/other/x', enc({}));
    assert.equal(await waiting, true);
    const took = performance.now() - t0;
    assert.ok(took < 1000, `took ${Math.round(took)} ms: a revision reached by another resource is only noticed at the timeout`);
    await store.close();
  });

  it('drops a listener that returns false and keeps serving the others', async () => {
    const { store, cacher } = await setup();
    await cacher.start();
    let calls = 0;
    cacher.listen(() => {
      calls++;
      return false;
    });
    const others = collect(cacher);
    let rev = await store.create(`${PREFIX}a`, enc({}));
    rev = await store.update(`${PREFIX}a`, enc({ v: 'x' }), rev);
    await store.delete(`${PREFIX}a`);
    assert.equal(calls, 1);
    assert.equal(others.length, 3);
    await store.close();
  });

  it('stop() ends waiters with false and delivers nothing more', async () => {
    const { store, cacher } = await setup();
    await cacher.start();
    const got = collect(cacher);
    const waiting = cacher.waitFor(5, 5000);
    cacher.stop();
    assert.equal(await waiting, false);
    await store.create(`${PREFIX}a`, enc({}));
    assert.equal(got.length, 0);
    await store.close();
  });

  it('is no longer live once the store is closed', async () => {
    const { store, cacher } = await setup();
    await cacher.start();
    assert.equal(cacher.isLive(), true);
    await store.close();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(cacher.isLive(), false);
  });
});

describe('Cacher relist', () => {
  it('tells relisteners when a failed store watch made it list again, with what changed meanwhile', async () => {
    const store = new MemoryStore();
    // A store whose watch the test can break, as a compaction under a lagging watch does.
    let watch: { stop: () => void; fail: () => void } | undefined;
    const breakable: Store = Object.create(store, {
      watch: {
        value: (prefix: string, from: number, sink: Parameters<Store['watch']>[2], onError: Parameters<Store['watch']>[3]) => {
          const stop = store.watch(prefix, from, sink, onError);
          watch = { stop, fail: () => onError?.(new StoreError('Compacted', prefix)) };
          return stop;
        },
      },
    });
    const { toEntry } = entryEncoder();
    const cacher = new Cacher(breakable, PREFIX, toEntry);
    let relists = 0;
    const names: string[][] = [];
    cacher.onRelist(() => {
      relists++;
      names.push(cacher.list().map((e) => (served(e) as { name: string }).name));
    });
    await store.create(`${PREFIX}a`, enc({ v: '1' }));
    await store.create(`${PREFIX}b`, enc({ v: '1' }));
    await cacher.start();
    assert.deepEqual(names, [['a', 'b']]);
    // Down: a deletion the watch never delivers.
    const down = watch;
    down?.stop();
    await store.delete(`${PREFIX}a`);
    assert.equal(cacher.list().length, 2);
    down?.fail();
    for (let i = 0; i < 100 && relists < 2; i++) await new Promise((r) => setImmediate(r));
    assert.deepEqual(names, [['a', 'b'], ['b']]);
    cacher.stop();
  });
});

describe('EfficientWatchResumption', () => {
  /** A remote store (as etcd) whose watch reports progress through the callback it was given. */
  function progressingStore() {
    let progress: ((revision: number) => void) | undefined;
    const store = {
      remote: true,
      range: async () => ({ items: [], more: false, count: 0, revision: 5 }),
      watch: (_prefix: string, _from: number, _sink: unknown, _onError: unknown, onProgress?: (revision: number) => void) => {
        progress = onProgress;
        return () => {};
      },
      currentRevision: () => 5,
    } as unknown as Store;
    return { store, notify: (revision: number) => progress?.(revision) };
  }
  const toEntry = () => ({}) as unknown as CacheEntry;

  it('on (the default): the cache is as fresh as the store says it has delivered', async () => {
    const { store, notify } = progressingStore();
    const cacher = new Cacher(store, '/registry/configmaps/', toEntry);
    await cacher.start();
    notify(9);
    assert.equal(cacher.currentRevision(), 9);
    cacher.stop();
  });

  it('off: progress notifications are not asked for, and the cache advances only on events', async () => {
    const { store, notify } = progressingStore();
    const cacher = new Cacher(store, '/registry/configmaps/', toEntry, { progressNotify: false });
    await cacher.start();
    notify(9);
    assert.equal(cacher.currentRevision(), 5);
    cacher.stop();
  });
});
