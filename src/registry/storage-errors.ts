/** The one place storage failures become Status errors. */
import { StoreError } from '../storage/interface.js';
import { NO_SPACE_MESSAGE, REQUEST_TOO_LARGE_MESSAGE } from '../storage/limits.js';
import {
  alreadyExists,
  conflict,
  gone,
  internalError,
  notFound,
  OPTIMISTIC_LOCK_MESSAGE,
  serviceUnavailable,
  StatusError,
  type GroupResource,
} from '../machinery/status.js';

/** Maps a store failure on object `name` of `gr` to the Status a client sees; rethrows anything else. */
export function toStatusError(err: unknown, gr: GroupResource, name: string): never {
  if (err instanceof StatusError) throw err;
  if (!(err instanceof StoreError)) throw err;
  switch (err.code) {
    case 'KeyExists':
      throw alreadyExists(gr, name);
    case 'KeyNotFound':
      throw notFound(gr, name);
    case 'Conflict':
      throw conflict(gr, name, OPTIMISTIC_LOCK_MESSAGE);
    case 'Compacted':
      throw gone('The resourceVersion for the provided list is too old.');
    case 'Closed':
      throw serviceUnavailable('the storage is shutting down');
    case 'FutureRevision':
      throw new StatusError(504, 'Timeout', err.message);
    // Upstream's apiserver does not interpret etcd's errors: a full store reaches the client as a
    // 500 without a reason whose message is etcd's text (kubernetes/kubernetes#112152).
    case 'NoSpace':
      throw new StatusError(500, '', NO_SPACE_MESSAGE);
    // An object too large to store is the client's doing: orch answers 413 with etcd's text where
    // upstream leaks a 500 (the fix #112152 asks for), so no client input is ever a 5xx.
    case 'RequestTooLarge':
      throw new StatusError(413, 'RequestEntityTooLarge', REQUEST_TOO_LARGE_MESSAGE);
    // As upstream passes an etcd client failure on: 500 with the client's text.
    case 'Unavailable':
      throw internalError(err);
  }
  throw err;
}
