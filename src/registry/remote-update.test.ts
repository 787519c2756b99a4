/**
 * Read-modify-writes on a remote store (etcd) start from the watch cache's copy, as upstream's
 * cacher passes it to GuaranteedUpdate: one write per update or delete instead of a read and a
 * write, and no lost update or wrong answer when the cache is behind.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ALL_RESOURCES } from '../api/catalogue.js';
import { ORCH_BRAND } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { conflict, OPTIMISTIC_LOCK_MESSAGE, StatusError } from '../machinery/status.js';
import type { KeyValue, RangeOptions, RangeResult, Store, StoreEvent, WatchErrorSink, WatchSink } from '../storage/interface.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import type { RequestContext } from './context.js';
import type { GenericStore } from './generic-store.js';
import { Registry } from './registry.js';

/** A MemoryStore seen as remote, counting reads and writes, whose watch events can be held back. */
class RemoteStore implements Store {
  readonly remote = true;
  reads = 0;
  writes = 0;
  held = false;
  private readonly queued: Array<() => void> = [];

  constructor(readonly inner = new MemoryStore()) {}

  get(key: string, opts?: { revision?: number }): Promise<KeyValue | undefined> {
    this.reads++;
    return this.inner.get(key, opts);
  }
  range(prefix: string, opts?: RangeOptions): Promise<RangeResult> {
    return this.inner.range(prefix, opts);
  }
  create(key: string, value: Uint8Array): Promise<number> {
    this.writes++;
    return this.inner.create(key, value);
  }
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<number> {
    this.writes++;
    return this.inner.update(key, value, expectedModRevision);
  }
  delete(key: string, expectedModRevision?: number): Promise<number> {
    this.writes++;
    return this.inner.delete(key, expectedModRevision);
  }
  watch(prefix: string, fromRevision: number, sink: WatchSink, onError?: WatchErrorSink): () => void {
    const deliver = (events: StoreEvent[]) => (this.held ? this.queued.push(() => sink(events)) : sink(events));
    return this.inner.watch(prefix, fromRevision, deliver, onError);
  }
  /** Delivers what was held back, as a lagging etcd watch finally does. */
  release(): void {
    this.held = false;
    for (const f of this.queued.splice(0)) f();
  }
  currentRevision(): number {
    return this.inner.currentRevision();
  }
  compactedRevision(): number {
    return this.inner.compactedRevision();
  }
  dbSize(): number {
    return this.inner.dbSize();
  }
  compact(revision: number): Promise<void> {
    return this.inner.compact(revision);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

const ctx: RequestContext = { user: { name: 'admin', groups: ['system:masters'] }, brand: ORCH_BRAND, now: new Date('2024-01-02T03:04:05Z') };
const NOT_DRY = { dryRun: false };
const UPDATE = { dryRun: false, subresource: '' };
const cm = (name: string, data: Record<string, string>, meta: Record<string, unknown> = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...meta },
  data,
});
const dataOf = (obj: Obj) => obj.data as Record<string, string>;
const rvOf = (obj: Obj) => (obj.metadata as { resourceVersion: string }).resourceVersion;

describe('updates and deletes on a remote store', () => {
  let store: RemoteStore;
  let registry: Registry;
  let configMaps: GenericStore;

  beforeEach(async () => {
    store = new RemoteStore();
    registry = new Registry(ALL_RESOURCES, ORCH_BRAND, store);
    await registry.startCaches();
    const found = registry.byResource('', 'configmaps');
    assert.ok(found);
    configMaps = found;
    await configMaps.create(ctx, 'default', cm('a', { v: '1' }), NOT_DRY);
    store.reads = 0;
    store.writes = 0;
  });

  afterEach(() => registry.stopCaches());

  /** The stored object, read past the cache. */
  async function stored(name: string): Promise<Obj> {
    const kv = await store.inner.get(`/registry/configmaps/default/${name}`);
    assert.ok(kv);
    return configMaps.decode(kv);
  }

  /** Writes behind the cache's back (another replica's write whose event has not arrived). */
  async function writeElsewhere(name: string, data: Record<string, string>): Promise<void> {
    store.held = true;
    await configMaps.guaranteedUpdate(ctx, 'default', name, (cur) => ({ ...cur, data }), UPDATE);
  }

  it('writes once, without reading, when the cache is current', async () => {
    const { obj } = await configMaps.guaranteedUpdate(ctx, 'default', 'a', (cur) => ({ ...cur, data: { v: '2' } }), UPDATE);
    assert.deepEqual(dataOf(obj), { v: '2' });
    assert.deepEqual({ reads: store.reads, writes: store.writes }, { reads: 0, writes: 1 });
    const removed = await configMaps.delete(ctx, 'default', 'a', NOT_DRY);
    assert.equal(removed.removed, true);
    assert.deepEqual({ reads: store.reads, writes: store.writes }, { reads: 0, writes: 2 });
  });

  it('loses no update when the cache is behind: the write conflicts and runs again on the stored object', async () => {
    await writeElsewhere('a', { v: '2', other: 'x' });
    const { obj } = await configMaps.guaranteedUpdate(ctx, 'default', 'a', (cur) => ({ ...cur, data: { ...dataOf(cur), v: '3' } }), UPDATE);
    assert.deepEqual(dataOf(obj), { v: '3', other: 'x' });
    assert.deepEqual(dataOf(await stored('a')), { v: '3', other: 'x' });
    assert.equal(rvOf(obj), rvOf(await stored('a')));
    store.release();
  });

  it('an update the stale copy makes a no-op still writes when the stored object differs', async () => {
    await writeElsewhere('a', { v: '2' });
    // The cache still has v=1: setting v=1 changes nothing there, but it does in the store.
    const { obj } = await configMaps.guaranteedUpdate(ctx, 'default', 'a', (cur) => ({ ...cur, data: { v: '1' } }), UPDATE);
    assert.deepEqual(dataOf(obj), { v: '1' });
    assert.deepEqual(dataOf(await stored('a')), { v: '1' });
    store.release();
  });

  it('a resourceVersion precondition the stale copy fails is checked against the stored object', async () => {
    await writeElsewhere('a', { v: '2' });
    const latest = rvOf(await stored('a'));
    const { obj } = await configMaps.guaranteedUpdate(
      ctx,
      'default',
      'a',
      (cur) => {
        // PUT with the latest resourceVersion: a conflict only if the object moved past it.
        if (rvOf(cur) !== latest) throw conflict({ group: '', resource: 'configmaps' }, 'a', OPTIMISTIC_LOCK_MESSAGE);
        return { ...cur, data: { v: '3' } };
      },
      UPDATE,
    );
    assert.deepEqual(dataOf(obj), { v: '3' });
    store.release();
  });

  it('a failure on a copy that was current is the answer, after one read', async () => {
    await assert.rejects(
      configMaps.guaranteedUpdate(ctx, 'default', 'a', (cur) => ({ ...cur, metadata: { ...(cur.metadata as object), name: 'b' } }), UPDATE),
      (e: unknown) => e instanceof StatusError && e.code === 400,
    );
    assert.deepEqual({ reads: store.reads, writes: store.writes }, { reads: 1, writes: 0 });
  });

  it('a delete of an object the cache still has but the store no longer does is 404', async () => {
    store.held = true;
    await configMaps.delete(ctx, 'default', 'a', NOT_DRY);
    await assert.rejects(configMaps.delete(ctx, 'default', 'a', NOT_DRY), (e: unknown) => e instanceof StatusError && e.code === 404);
    store.release();
  });
});
