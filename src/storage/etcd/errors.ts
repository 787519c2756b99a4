/**
 * etcd's failures as StoreErrors. The client's errors (wire/grpc-frame.ts GrpcError) carry the
 * gRPC status code and etcd's message; etcd gives several failures one code (compacted and
 * future revisions are both OUT_OF_RANGE), so they are told apart by etcd's own texts, which
 * are stable across 3.x.
 */
import { StoreError } from '../interface.js';
import { NO_SPACE_MESSAGE, REQUEST_TOO_LARGE_MESSAGE } from '../limits.js';

const COMPACTED = 'required revision has been compacted';
const FUTURE = 'required revision is a future revision';

/** True for etcd's "required revision has been compacted". */
export function isCompactedError(err: unknown): boolean {
  return messageOf(err).includes(COMPACTED);
}

/** True for etcd's "required revision is a future revision". */
export function isFutureRevisionError(err: unknown): boolean {
  return messageOf(err).includes(FUTURE);
}

/** The StoreError for a failed etcd call about key. */
export function storeErrorOf(err: unknown, key: string): StoreError {
  if (err instanceof StoreError) return err;
  const msg = messageOf(err);
  if (msg.includes(COMPACTED)) return new StoreError('Compacted', key, `etcdserver: mvcc: ${COMPACTED}`);
  if (msg.includes(FUTURE)) return new StoreError('FutureRevision', key, `etcdserver: mvcc: ${FUTURE}`);
  if (msg.includes('database space exceeded')) return new StoreError('NoSpace', key, NO_SPACE_MESSAGE);
  if (msg.includes('request is too large') || msg.includes('larger than max')) return new StoreError('RequestTooLarge', key, REQUEST_TOO_LARGE_MESSAGE);
  // gRPC's texts can span lines (OpenSSL's); a Status message and a start-up error are one line.
  return new StoreError('Unavailable', key, msg.replace(/\s*\n\s*/g, ' ').trim());
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
