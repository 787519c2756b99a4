/** The size limits every backend enforces as etcd does (the quota and the request size). */
import { StoreError } from './interface.js';

/** etcd's own texts for its two size refusals; upstream's apiserver passes them on as the Status message. */
export const NO_SPACE_MESSAGE = 'etcdserver: mvcc: database space exceeded';
export const REQUEST_TOO_LARGE_MESSAGE = 'etcdserver: request is too large';

/** etcd's --quota-backend-bytes default: 2 GiB. */
export const DEFAULT_QUOTA_BACKEND_BYTES = 2 * 1024 * 1024 * 1024;
/** etcd's --max-request-bytes default: 1.5 MiB. */
export const DEFAULT_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;

/**
 * Size limits every backend enforces as etcd does. A put (create or update) is refused with
 * NoSpace when the stored size plus the put's key and value would pass quotaBackendBytes, and
 * with RequestTooLarge when its key and value alone pass maxRequestBytes. Reads, deletes and
 * compaction are never refused, so deleting and compacting is how a full store recovers.
 */
export interface StoreLimits {
  /** Default DEFAULT_QUOTA_BACKEND_BYTES; as etcd, 0 means the default and a negative value no quota. */
  quotaBackendBytes?: number;
  /** Default DEFAULT_MAX_REQUEST_BYTES; 0 or less means the default. */
  maxRequestBytes?: number;
}

/** The limits with defaults filled in; pure. */
export function resolveLimits(limits: StoreLimits = {}): Required<StoreLimits> {
  const pick = (v: number | undefined, dflt: number) => (v !== undefined && v > 0 ? v : dflt);
  const quota = limits.quotaBackendBytes;
  return {
    quotaBackendBytes: quota !== undefined && quota < 0 ? Number.POSITIVE_INFINITY : pick(quota, DEFAULT_QUOTA_BACKEND_BYTES),
    maxRequestBytes: pick(limits.maxRequestBytes, DEFAULT_MAX_REQUEST_BYTES),
  };
}

/** The bytes a put of key and value costs against the limits (etcd counts key plus value). */
export function putCost(key: string, value: Uint8Array): number {
  return Buffer.byteLength(key) + value.length;
}

/** The refusal of a put of key and value into a store holding `size` bytes, or undefined; pure. */
export function refusePut(key: string, value: Uint8Array, size: number, limits: Required<StoreLimits>): StoreError | undefined {
  const cost = putCost(key, value);
  // Checked first, as etcd checks the request's size before it looks at the quota.
  if (cost > limits.maxRequestBytes) return new StoreError('RequestTooLarge', key, REQUEST_TOO_LARGE_MESSAGE);
  if (size + cost > limits.quotaBackendBytes) return new StoreError('NoSpace', key, NO_SPACE_MESSAGE);
  return undefined;
}
