/**
 * How orch's store keys and revisions sit in etcd. Keys live under the `--etcd-prefix` (as
 * upstream joins `<prefix>/<resource>/...`), compared bytewise in UTF-8, which is the code
 * point order every Store uses (keys.ts).
 *
 * Revisions: etcd's counter is 1 before anything was written (its first write is revision
 * 2), while the Store contract starts at 0 (first write 1). The store shifts every revision
 * by that one at this boundary, the same on every replica, so resource versions stay
 * comparable across replicas and etcd revision = resource version + ETCD_EMPTY_REVISION.
 */
import type { KeyValue } from '../interface.js';

/** etcd's revision before its first write. */
export const ETCD_EMPTY_REVISION = 1;

/** upstream's default --etcd-prefix. */
export const DEFAULT_ETCD_PREFIX = '/registry';

/** A store revision from an etcd revision (a number, or the decimal text compact_rev_key holds). */
export function fromEtcdRevision(rev: string | number): number {
  return Number(rev) - ETCD_EMPTY_REVISION;
}

/** The etcd revision of a store revision. */
export function toEtcdRevision(rev: number): number {
  return rev + ETCD_EMPTY_REVISION;
}

/** The prefix without a trailing slash, so `<prefix>` + `/pods/...` is upstream's path.Join. */
export function normalizePrefix(prefix: string): string {
  return prefix.endsWith('/') ? prefix.replace(/\/+$/, '') : prefix;
}

/** The smallest byte string greater than every string starting with prefix (etcd's range end); empty: no bound. */
export function bytesPrefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  // All 0xff (or empty): etcd reads a range end of "\0" as "to the end of the keyspace".
  return Buffer.from([0]);
}

/**
 * Maps store keys into and out of the etcd keyspace under one prefix. With a root (the
 * registry's `/registry`), the root of every store key is replaced by the prefix, so
 * `/registry/pods/ns/n` is upstream's `<--etcd-prefix>/pods/ns/n`; a range prefix shorter than
 * the root (the empty one) selects everything under the prefix. Without a root keys are
 * simply put under the prefix.
 */
export class KeySpace {
  readonly prefix: Buffer;
  private readonly root: string;

  constructor(prefix: string, root = '') {
    this.prefix = Buffer.from(normalizePrefix(prefix));
    this.root = normalizePrefix(root);
  }

  key(key: string): Buffer {
    let rest = key;
    if (this.root !== '') {
      if (key.startsWith(this.root)) rest = key.slice(this.root.length);
      else if (this.root.startsWith(key)) rest = '';
    }
    return Buffer.concat([this.prefix, Buffer.from(rest)]);
  }

  /** The etcd range [start, end) of the store keys starting with `prefix`, from startKey on; undefined when empty. */
  range(prefix: string, startKey?: string): { start: Buffer; end: Buffer } | undefined {
    const from = this.key(prefix);
    const end = bytesPrefixEnd(from);
    let start = from;
    if (startKey !== undefined) {
      const s = this.key(startKey);
      if (Buffer.compare(s, start) > 0) start = s;
    }
    if (end.length > 1 || end[0] !== 0) {
      if (Buffer.compare(start, end) >= 0) return undefined;
    }
    return { start, end };
  }

  /** The store key of an etcd key under the prefix. */
  storeKey(key: Buffer): string {
    return this.root + key.subarray(this.prefix.length).toString('utf8');
  }

  /** A store KeyValue from etcd's. */
  keyValue(kv: { key: Buffer; value: Buffer; create_revision: number; mod_revision: number }): KeyValue {
    return {
      key: this.storeKey(kv.key),
      value: new Uint8Array(kv.value.buffer, kv.value.byteOffset, kv.value.byteLength),
      createRevision: fromEtcdRevision(kv.create_revision),
      modRevision: fromEtcdRevision(kv.mod_revision),
    };
  }
}
