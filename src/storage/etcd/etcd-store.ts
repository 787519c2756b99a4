/**
 * The Store on a real etcd (v3 API), mapped as upstream's
 * `storage/etcd3/store.go`: create is a Txn on ModRevision == 0; update and delete are Txns
 * comparing the expected mod revision whose Else branch reads the current value for the
 * caller's retry; reads are ranges with limit, count and revision; watches start at
 * revision + 1 with previous values (watch.ts). Keys sit under the `--etcd-prefix`, revisions
 * are etcd's shifted by one (layout.ts).
 *
 * etcd is reached through orch's own HTTP/2 gRPC client (wire/etcd-client.ts, which says why).
 *
 * The synchronous views (currentRevision, compactedRevision, dbSize) are what this replica
 * has seen: every response header and watch moves the revision forward; dbSize is etcd's
 * in-use size polled as upstream's `--etcd-db-metric-poll-interval`, plus what this replica
 * wrote since.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import {
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type Store,
  StoreError,
  type WatchErrorSink,
  type WatchProgressSink,
  type WatchSink,
} from '../interface.js';
import { putCost, refusePut, resolveLimits, type StoreLimits } from '../limits.js';
import { isCompactedError, storeErrorOf } from './errors.js';
import { DEFAULT_ETCD_PREFIX, fromEtcdRevision, KeySpace, toEtcdRevision } from './layout.js';
import { LeaseManager } from './leases.js';
import { EtcdWatch } from './watch.js';
import { EtcdClient } from './wire/etcd-client.js';
import type { Compare, RangeResponse, ResponseHeader } from './wire/kv-messages.js';

/** upstream's --etcd-db-metric-poll-interval. */
const DB_SIZE_POLL_MS = 30_000;

/** How long one etcd call may take before it fails as Unavailable (well inside a request's timeout). */
export const DEFAULT_ETCD_CALL_TIMEOUT_MS = 10_000;

export interface EtcdTls {
  /** --etcd-cafile: the CA that signed etcd's serving certificate. */
  caFile?: string;
  /** --etcd-certfile / --etcd-keyfile: this client's certificate. */
  certFile?: string;
  keyFile?: string;
}

export interface EtcdStoreOptions extends StoreLimits, EtcdTls {
  /** --etcd-servers: client URLs, e.g. https://127.0.0.1:2379. */
  servers: string[];
  /** --etcd-prefix; default /registry. */
  prefix?: string;
  /** The root of the store's keys that the prefix replaces (the registry's `/registry`); default none. */
  keyRoot?: string;
  /** Deadline of one etcd call; default DEFAULT_ETCD_CALL_TIMEOUT_MS. */
  callTimeoutMs?: number;
}

/** The TLS files' contents (read once, at start), or undefined for plain http:// members. */
function readTls(opts: EtcdTls & { servers: string[] }): { ca: Buffer; cert?: Buffer; key?: Buffer } | undefined {
  const secure = opts.caFile !== undefined || opts.certFile !== undefined || opts.servers.some((s) => s.startsWith('https://'));
  if (!secure) return undefined;
  return {
    // Without --etcd-cafile, etcd's certificate is checked against the well-known roots.
    ca: opts.caFile !== undefined ? readFileSync(opts.caFile) : Buffer.from(rootCertificates.join('\n')),
    key: opts.keyFile !== undefined ? readFileSync(opts.keyFile) : undefined,
    cert: opts.certFile !== undefined ? readFileSync(opts.certFile) : undefined,
  };
}

export class EtcdStore implements Store {
  readonly remote = true;
  private rev = 0;
  private compacted = 0;
  private closed = false;
  private readonly keys: KeySpace;
  private readonly limits: Required<StoreLimits>;
  /** etcd's in-use size at the last poll, and what this replica has put since. */
  private polledSize = 0;
  /** etcd's file size at the last poll (what its own quota counts). */
  private fileSize = 0;
  private putSince = 0;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly watches = new Set<EtcdWatch>();
  private readonly poll: ReturnType<typeof setInterval>;
  private readonly leases: LeaseManager;
  /** Key prefixes whose puts carry a lease, with the keys' time to live in seconds. */
  private readonly expiring: { prefix: string; ttlSeconds: number }[] = [];

  private constructor(
    private readonly client: EtcdClient,
    opts: EtcdStoreOptions,
  ) {
    this.keys = new KeySpace(opts.prefix ?? DEFAULT_ETCD_PREFIX, opts.keyRoot);
    this.limits = resolveLimits(opts);
    this.leases = new LeaseManager(client);
    this.poll = setInterval(() => void this.refreshSize().catch(() => {}), DB_SIZE_POLL_MS);
    this.poll.unref();
  }

  /** Connects to etcd and reads where it stands (revision, last compaction, size). */
  static async connect(opts: EtcdStoreOptions): Promise<EtcdStore> {
    const tls = readTls(opts);
    const timeout = opts.callTimeoutMs ?? DEFAULT_ETCD_CALL_TIMEOUT_MS;
    const client = new EtcdClient({ servers: opts.servers, tls, dialTimeoutMs: timeout, callTimeoutMs: timeout });
    const store = new EtcdStore(client, opts);
    try {
      await store.refreshSize();
      store.compacted = Math.max(0, await lastCompaction(client));
    } catch (err) {
      await store.close();
      throw storeErrorOf(err, '');
    }
    return store;
  }

  /** The etcd client (for the shared compactor, which uses the same connection). */
  get etcd(): EtcdClient {
    return this.client;
  }

  /** The member's status answered within timeoutMs, or rejects: the `etcd` health check. */
  async ping(timeoutMs: number): Promise<void> {
    await this.client.status(timeoutMs);
  }

  async get(key: string, opts: { revision?: number } = {}): Promise<KeyValue | undefined> {
    const res = await this.call(key, () => this.client.range({ key: this.keys.key(key), revision: this.readRevision(opts.revision) }));
    return res.kvs.length > 0 ? this.keys.keyValue(res.kvs[0]) : undefined;
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const span = this.keys.range(prefix, opts.startKey);
    // An empty span still asks etcd, so a future or compacted revision is refused as for any range.
    const { start, end } = span ?? { start: this.keys.key(prefix), end: this.keys.key(prefix) };
    const res = await this.call(prefix, () =>
      this.client.range({ key: start, range_end: end, limit: opts.limit ?? 0, revision: this.readRevision(opts.revision) }),
    );
    const items = span ? res.kvs.map((kv) => this.keys.keyValue(kv)) : [];
    return {
      items,
      revision: opts.revision ? opts.revision : fromEtcdRevision(res.header.revision),
      more: span ? res.more : false,
      count: span ? res.count : 0,
    };
  }

  expireUnder(prefix: string, ttlMs: number): void {
    // etcd leases count whole seconds; a key never expires before its TTL.
    this.expiring.push({ prefix, ttlSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) });
  }

  async create(key: string, value: Uint8Array): Promise<number> {
    const etcdKey = this.keys.key(key);
    const res = await this.put(key, value, (lease) =>
      this.client.txn({
        compare: [{ key: etcdKey, target: 'Mod', result: 'Equal', mod_revision: 0 }],
        success: [{ request_put: { key: etcdKey, value, lease } }],
      }),
    );
    if (!res.succeeded) throw new StoreError('KeyExists', key);
    return fromEtcdRevision(res.header.revision);
  }

  async update(key: string, value: Uint8Array, expectedModRevision: number): Promise<number> {
    const etcdKey = this.keys.key(key);
    const res = await this.put(key, value, (lease) =>
      this.client.txn({
        compare: [{ key: etcdKey, target: 'Mod', result: 'Equal', mod_revision: toEtcdRevision(expectedModRevision) }],
        success: [{ request_put: { key: etcdKey, value, lease } }],
        failure: [{ request_range: { key: etcdKey } }],
      }),
    );
    if (!res.succeeded) throw this.conflictOrMissing(key, res.responses[0]?.response_range);
    return fromEtcdRevision(res.header.revision);
  }

  async delete(key: string, expectedModRevision?: number): Promise<number> {
    const etcdKey = this.keys.key(key);
    // Without an expected revision the compare is "exists" (a delete of nothing is KeyNotFound
    // and takes no revision, where a bare etcd DeleteRange would succeed doing nothing).
    const compare: Compare =
      expectedModRevision === undefined
        ? { key: etcdKey, target: 'Mod', result: 'Greater', mod_revision: 0 }
        : { key: etcdKey, target: 'Mod', result: 'Equal', mod_revision: toEtcdRevision(expectedModRevision) };
    const res = await this.call(key, () =>
      this.client.txn({ compare: [compare], success: [{ request_delete_range: { key: etcdKey } }], failure: [{ request_range: { key: etcdKey } }] }),
    );
    if (!res.succeeded) throw this.conflictOrMissing(key, res.responses[0]?.response_range);
    return fromEtcdRevision(res.header.revision);
  }

  watch(prefix: string, fromRevision: number, sink: WatchSink, onError?: WatchErrorSink, onProgress?: WatchProgressSink): () => void {
    if (this.closed) {
      setImmediate(() => onError?.(new StoreError('Closed', prefix, 'store is closed')));
      return () => {};
    }
    const w = new EtcdWatch(this.client, this.keys, prefix, fromRevision, sink, onError, onProgress, {
      observe: (rev) => this.observe(rev),
      compacted: (rev) => {
        this.compacted = Math.max(this.compacted, rev);
      },
      ended: (ended) => this.watches.delete(ended),
    });
    this.watches.add(w);
    return () => w.cancel();
  }

  currentRevision(): number {
    return this.rev;
  }

  compactedRevision(): number {
    return this.compacted;
  }

  dbSize(): number {
    return this.polledSize + this.putSince;
  }

  async compact(revision: number): Promise<void> {
    await this.call('', async () => {
      try {
        const res = await this.client.compact(toEtcdRevision(revision), true);
        this.observeHeader(res.header);
      } catch (err) {
        // Compacting to a revision already compacted is a no-op, as in the other stores.
        if (!isCompactedError(err)) throw err;
        return;
      }
      this.compacted = Math.max(this.compacted, revision);
    });
    await this.refreshSize().catch(() => {});
    // etcd's quota counts its file, which compaction leaves as large as it was: past half the
    // quota a store that deleted and compacted would stay full until defragmented, so it is.
    if (this.fileSize > this.limits.quotaBackendBytes / 2) {
      await this.call('', () => this.client.defragment()).catch(() => {});
      await this.refreshSize().catch(() => {});
    }
  }

  /** Records a compaction another replica (or the shared compactor) did. */
  noteCompacted(revision: number): void {
    this.compacted = Math.max(this.compacted, revision);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.poll);
    for (const w of [...this.watches]) w.fail(new StoreError('Closed', w.prefix, 'store is closed'));
    // Writes issued before close still commit and answer.
    await Promise.allSettled([...this.pending]);
    this.client.close();
  }

  /** Runs one etcd call: Closed after close, the header's revision observed, failures as StoreErrors. */
  private call<T>(key: string, op: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new StoreError('Closed', key, 'store is closed'));
    const p = op().then(
      (res) => {
        const header = (res as { header?: ResponseHeader } | undefined)?.header;
        if (header) this.observeHeader(header);
        return res;
      },
      (err: unknown) => {
        throw storeErrorOf(err, key);
      },
    );
    this.pending.add(p);
    const forget = () => this.pending.delete(p);
    p.then(forget, forget);
    return p;
  }

  /**
   * A put-carrying call: refused first by the size limits, as etcd refuses before it applies;
   * op gets the lease the put carries (0: none) when the key is under an expiring prefix.
   */
  private put<T extends { header?: ResponseHeader; succeeded?: boolean }>(
    key: string,
    value: Uint8Array,
    op: (lease: string | number) => Promise<T>,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new StoreError('Closed', key, 'store is closed'));
    const refused = refusePut(key, value, this.dbSize(), this.limits);
    if (refused) return Promise.reject(refused);
    // Counted at once, so parallel puts past the quota are refused before they reach etcd.
    const cost = putCost(key, value);
    this.putSince += cost;
    const ttl = this.expiring.find((e) => key.startsWith(e.prefix))?.ttlSeconds;
    const withLease = async () => {
      if (ttl === undefined) return op(0);
      const lease = await this.leases.leaseFor(ttl);
      try {
        return await op(lease);
      } catch (err) {
        // The shared lease is gone (revoked, or etcd restored): one more try on a new one.
        if (!String((err as Error).message).includes('requested lease not found')) throw err;
        this.leases.forget(lease);
        return op(await this.leases.leaseFor(ttl));
      }
    };
    return this.call(key, withLease).then(
      (res) => {
        if (res.succeeded === false) this.putSince -= cost;
        return res;
      },
      (err: unknown) => {
        this.putSince -= cost;
        throw err;
      },
    );
  }

  private conflictOrMissing(key: string, current: RangeResponse | undefined): StoreError {
    const kv = current?.kvs[0];
    if (!kv) return new StoreError('KeyNotFound', key);
    return new StoreError('Conflict', key, undefined, this.keys.keyValue(kv));
  }

  /** The etcd revision to read at (0: current); a read past what etcd has is FutureRevision there. */
  private readRevision(revision: number | undefined): number {
    return revision ? toEtcdRevision(revision) : 0;
  }

  private observeHeader(header: ResponseHeader): void {
    this.observe(fromEtcdRevision(header.revision));
  }

  private observe(revision: number): void {
    if (revision > this.rev) this.rev = revision;
  }

  /** Polls etcd's in-use size; what this replica put before the poll is in it from now on. */
  private async refreshSize(): Promise<void> {
    const putBefore = this.putSince;
    const status = await this.client.status();
    this.observeHeader(status.header);
    this.fileSize = status.dbSize;
    this.polledSize = status.dbSizeInUse || status.dbSize;
    this.putSince -= putBefore;
  }
}

/** The revision the shared compactor last compacted to (its `compact_rev_key`), or 0. */
async function lastCompaction(client: EtcdClient): Promise<number> {
  const res = await client.range({ key: Buffer.from(COMPACT_REV_KEY) });
  const kv = res.kvs[0];
  return kv ? fromEtcdRevision(kv.value.toString()) : 0;
}

/** upstream's bare compaction key, outside every prefix, shared by all replicas. */
export const COMPACT_REV_KEY = 'compact_rev_key';
