/**
 * A store's contents at one revision, and writing them back as ordinary writes. Restoring never
 * rewinds the revision: every key changed since the snapshot is put back or deleted at a new,
 * higher revision, so watchers see the change as events and no resourceVersion goes backwards
 * (clients, informers and watch caches all assume revisions only grow).
 */
import { type KeyValue, type Store, StoreError } from './interface.js';

export interface StoreSnapshot {
  prefix: string;
  revision: number;
  /** Key to its value at `revision`. */
  values: Map<string, KeyValue>;
}

/**
 * Reads every key under prefix at `revision` (default: the current one). An older revision is
 * read from history, and rejects with Compacted once compaction dropped it.
 */
export async function takeSnapshot(store: Store, prefix: string, revision?: number): Promise<StoreSnapshot> {
  const res = await store.range(prefix, { revision });
  return { prefix, revision: res.revision, values: new Map(res.items.map((kv) => [kv.key, kv])) };
}

/** What a restore wrote: keys deleted and keys put back, and the revision after the last write. */
export interface RestoreResult {
  deleted: number;
  restored: number;
  revision: number;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

/**
 * Makes the keys under the snapshot's prefix hold the snapshot's values again: keys created
 * since are deleted, changed or deleted keys are written back (a recreated key gets a new
 * createRevision, as a recreated object gets in etcd). A concurrent writer wins: its key is
 * retried once against the value it wrote, so the restore converges unless writes keep racing it.
 */
export async function restoreSnapshot(store: Store, snapshot: StoreSnapshot): Promise<RestoreResult> {
  const current = await store.range(snapshot.prefix);
  let deleted = 0;
  let restored = 0;
  const seen = new Set<string>();
  for (const kv of current.items) {
    seen.add(kv.key);
    const want = snapshot.values.get(kv.key);
    if (want === undefined) {
      if (
        await retryOnRace(
          () => store.delete(kv.key, kv.modRevision),
          () => store.delete(kv.key),
        )
      )
        deleted++;
    } else if (kv.modRevision !== want.modRevision && !sameBytes(kv.value, want.value)) {
      if (
        await retryOnRace(
          () => store.update(kv.key, want.value, kv.modRevision),
          () => putBack(store, kv.key, want.value),
        )
      )
        restored++;
    }
  }
  for (const [key, want] of snapshot.values) {
    if (seen.has(key)) continue;
    if (
      await retryOnRace(
        () => store.create(key, want.value),
        () => putBack(store, key, want.value),
      )
    )
      restored++;
  }
  return { deleted, restored, revision: store.currentRevision() };
}

/** Writes value to key whatever it holds now (created when absent). */
async function putBack(store: Store, key: string, value: Uint8Array): Promise<number> {
  const now = await store.get(key);
  return now === undefined ? store.create(key, value) : store.update(key, value, now.modRevision);
}

const RACES = new Set(['Conflict', 'KeyNotFound', 'KeyExists']);

/** Runs write; when another writer got to the key first, runs again once. False: the key was already as wanted. */
async function retryOnRace(write: () => Promise<number>, again: () => Promise<number>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (e) {
    if (!(e instanceof StoreError) || !RACES.has(e.code)) throw e;
  }
  try {
    await again();
    return true;
  } catch (e) {
    // A key deleted by someone else between the two attempts is what a delete wanted anyway.
    if (e instanceof StoreError && e.code === 'KeyNotFound') return false;
    throw e;
  }
}

/**
 * Resolves once no write has landed for quietMs (or after maxMs): the moment components that
 * react to start-up (controllers creating default objects) have done their first pass.
 */
export async function storeQuiet(store: Store, quietMs: number, maxMs: number): Promise<void> {
  const step = Math.max(1, Math.floor(quietMs / 5));
  const deadline = Date.now() + maxMs;
  let revision = store.currentRevision();
  let since = Date.now();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, step));
    const now = store.currentRevision();
    if (now !== revision) {
      revision = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
  }
}
