/**
 * Compaction shared by every replica on one etcd, as upstream's `storage/etcd3/compact.go`:
 * each interval every replica runs
 *   Txn(If(Version("compact_rev_key") == t)).Then(Put("compact_rev_key", rev)).Else(Get("compact_rev_key"))
 * The key's version is a logical clock: the replica whose Txn succeeds owns this round and
 * compacts to `rev`, the revision it saw one interval earlier (never on its first round);
 * the others adopt the clock from the Else read and try again next interval. So with N
 * replicas one compaction happens per interval, and about one interval of history is kept.
 * The key is bare, outside `--etcd-prefix`, as upstream's, so replicas of any prefix share it.
 */
import { COMPACT_REV_KEY, type EtcdStore } from './etcd-store.js';
import { fromEtcdRevision } from './layout.js';

export interface EtcdCompactorOptions {
  intervalMs: number;
  /** Told about a failed round (the compactor keeps going). */
  onError?: (err: unknown) => void;
  /** Told when this replica compacted, to which store revision. */
  onCompacted?: (revision: number) => void;
}

/** Starts the shared compactor; returns stop(), which resolves after a running round. */
export function startEtcdCompactor(store: EtcdStore, opts: EtcdCompactorOptions): () => Promise<void> {
  if (!(opts.intervalMs > 0)) throw new RangeError(`compaction interval must be positive, got ${opts.intervalMs}`);
  const key = Buffer.from(COMPACT_REV_KEY);
  /** The logical clock (compact_rev_key's version) this replica last saw, and the etcd revision then. */
  let clock = 0;
  let lastRev = 0;
  let stopped = false;
  let running: Promise<void> | undefined;

  const round = async () => {
    const res = await store.etcd.txn({
      compare: [{ key, target: 'Version', result: 'Equal', version: clock }],
      success: [{ request_put: { key, value: Buffer.from(String(lastRev)) } }],
      failure: [{ request_range: { key } }],
    });
    const seen = res.header.revision;
    if (!res.succeeded) {
      const kv = res.responses[0]?.response_range?.kvs[0];
      clock = kv ? kv.version : 0;
      // Another replica owns this round; what it compacted to is in the key.
      if (kv) store.noteCompacted(fromEtcdRevision(kv.value.toString()));
      lastRev = seen;
      return;
    }
    clock++;
    const target = lastRev;
    lastRev = seen;
    // Never on the first round: the revision one interval old is not known yet.
    if (target === 0) return;
    await store.compact(fromEtcdRevision(target));
    opts.onCompacted?.(fromEtcdRevision(target));
  };

  const timer = setInterval(() => {
    if (stopped || running) return;
    running = round()
      .catch((err: unknown) => opts.onError?.(err))
      .finally(() => {
        running = undefined;
      });
  }, opts.intervalMs);
  // Compaction alone must not keep a process alive.
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
