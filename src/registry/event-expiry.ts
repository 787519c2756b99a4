/**
 * Events live for `--event-ttl` after their last write, as upstream's etcd lease on each
 * event key does. The store has no leases, so the registry keeps each event key's last
 * write time (from a store watch) and sweeps expired keys periodically.
 */
import type { Store } from '../storage/interface.js';
import { StoreError } from '../storage/interface.js';

export interface EventExpiryOptions {
  store: Store;
  /** Storage prefix of events (`/registry/events/`). */
  prefix: string;
  ttlMs: number;
  now?: () => number;
  /** How often to sweep; default min(ttl/4, 60 s). */
  sweepEveryMs?: number;
}

/** The time an event was last written, from its stored fields, for events written before start. */
function lastWriteFromObject(value: Uint8Array): number | undefined {
  try {
    const o = JSON.parse(Buffer.from(value).toString('utf8')) as Record<string, unknown>;
    const meta = (o.metadata ?? {}) as Record<string, unknown>;
    const series = (o.series ?? {}) as Record<string, unknown>;
    const candidates = [o.lastTimestamp, series.lastObservedTime, o.eventTime, o.firstTimestamp, meta.creationTimestamp];
    const times = candidates
      .filter((c): c is string => typeof c === 'string')
      .map((c) => Date.parse(c))
      .filter((t) => !Number.isNaN(t));
    return times.length > 0 ? Math.max(...times) : undefined;
  } catch {
    return undefined;
  }
}

/** Starts tracking and sweeping; returns stop(). */
export async function startEventExpiry(opts: EventExpiryOptions): Promise<() => void> {
  const now = opts.now ?? Date.now;
  const lastWrite = new Map<string, number>();
  const initial = await opts.store.range(opts.prefix);
  for (const kv of initial.items) lastWrite.set(kv.key, lastWriteFromObject(kv.value) ?? now());
  const cancel = opts.store.watch(opts.prefix, initial.revision, (events) => {
    const t = now();
    for (const e of events) {
      if (e.type === 'delete') lastWrite.delete(e.kv.key);
      else lastWrite.set(e.kv.key, t);
    }
  });
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      const cutoff = now() - opts.ttlMs;
      for (const [key, t] of lastWrite) {
        if (t > cutoff) continue;
        const kv = await opts.store.get(key);
        if (!kv) {
          lastWrite.delete(key);
          continue;
        }
        // Deleting at the observed revision never removes an event rewritten meanwhile.
        await opts.store.delete(key, kv.modRevision).catch((e) => {
          if (!(e instanceof StoreError)) throw e;
        });
      }
    } finally {
      sweeping = false;
    }
  };
  const every = opts.sweepEveryMs ?? Math.min(Math.max(opts.ttlMs / 4, 1000), 60_000);
  const timer = setInterval(() => void sweep().catch(() => {}), every);
  timer.unref();
  return () => {
    clearInterval(timer);
    cancel();
  };
}
