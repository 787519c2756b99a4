/**
 * Copies one store's current keys into another, empty one (`orch migrate`: SQLite to etcd).
 * Keys are written oldest write first, so the new resource versions keep the old ones' order
 * (a newer object stays newer); values are copied byte for byte (they hold no resource version).
 */
import type { Store } from './interface.js';

/** Keys read per page of the source listing. */
const PAGE = 1000;

export class TargetNotEmptyError extends Error {
  constructor(readonly keys: number) {
    super(`the target store already holds ${keys} keys`);
  }
}

export interface CopyResult {
  /** Keys copied. */
  copied: number;
  /** The source revision the copy was read at. */
  sourceRevision: number;
  /** The target's revision after the last write. */
  targetRevision: number;
}

/** Copies every key of `from` (as of one revision) into `to`, which must hold none; onProgress after each key. */
export async function copyStore(from: Store, to: Store, onProgress?: (copied: number, total: number) => void): Promise<CopyResult> {
  const existing = (await to.range('', { limit: 1 })).count;
  if (existing > 0) throw new TargetNotEmptyError(existing);
  // Only keys and revisions are held for the whole source; each value is read when copied.
  const order: { key: string; modRevision: number }[] = [];
  let page = await from.range('', { limit: PAGE });
  const sourceRevision = page.revision;
  for (;;) {
    for (const kv of page.items) order.push({ key: kv.key, modRevision: kv.modRevision });
    if (!page.more || page.items.length === 0) break;
    page = await from.range('', { revision: sourceRevision, startKey: `${page.items[page.items.length - 1].key}\u0000`, limit: PAGE });
  }
  order.sort((a, b) => a.modRevision - b.modRevision);
  let targetRevision = to.currentRevision();
  let copied = 0;
  for (const { key } of order) {
    const kv = await from.get(key, { revision: sourceRevision });
    if (!kv) continue;
    targetRevision = await to.create(key, kv.value);
    copied++;
    onProgress?.(copied, order.length);
  }
  return { copied, sourceRevision, targetRevision };
}
