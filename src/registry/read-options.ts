/**
 * The spec's resource-version tables, decided once per request: where a get, list or watch
 * reads from (the watch cache or the store) and at which revision, and every Invalid cell.
 * Validation errors are upstream's: 422 Invalid of kind ListOptions naming the parameter, and
 * 400 for a continue token with a resourceVersion other than `0`.
 */
import type { Brand } from '../machinery/brand.js';
import { badRequest, type FieldError, forbiddenField, invalidObject, notSupported } from '../machinery/status.js';
import type { ListOptions } from './context.js';

/** How a read is served. */
export type ReadPlan =
  /** Most recent: the cache once it is fresh (same as a quorum read here), else the store. */
  | { kind: 'latest' }
  /** Any version, newest preferred: the cache as it is. */
  | { kind: 'any' }
  /** At least this revision: the cache once it reached it (504 after waiting). */
  | { kind: 'notOlderThan'; revision: number }
  /** Exactly this revision, from the store (410 when compacted). */
  | { kind: 'exact'; revision: number }
  /** A paginated store read continuing a token (the token carries the revision). */
  | { kind: 'continue' }
  /** A paginated store read of the most recent state, at least this revision (0: any). */
  | { kind: 'latestPaginated'; atLeast: number };

/**
 * The one cache-or-store decision of every read: whether the watch cache serves a read under
 * this plan. Any version, or one not older than a revision the cache was waited on for, comes
 * from the cache; the most recent state only while the cache follows the store live; exact
 * revisions and paginated reads from the store.
 */
export function servedByCache(plan: ReadPlan, cache: { isLive(): boolean } | undefined): boolean {
  if (cache === undefined) return false;
  switch (plan.kind) {
    case 'any':
    case 'notOlderThan':
      return true;
    case 'latest':
      return cache.isLive();
    default:
      return false;
  }
}

/** Parses a resourceVersion parameter: '' (unset), 0, or a positive revision; 400 otherwise. */
export function parseResourceVersion(rv: string | undefined): number | undefined {
  if (rv === undefined || rv === '') return undefined;
  if (!/^\d+$/.test(rv) || !Number.isSafeInteger(Number(rv))) throw badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
  return Number(rv);
}

function invalidListOptions(brand: Brand, errs: FieldError[]): never {
  throw invalidObject('ListOptions', brand.metaGroup, '', errs);
}

/** The plan of a GET of one object (the Get table). */
export function planGet(rvParam: string | undefined): ReadPlan {
  const rv = parseResourceVersion(rvParam);
  if (rv === undefined) return { kind: 'latest' };
  if (rv === 0) return { kind: 'any' };
  return { kind: 'notOlderThan', revision: rv };
}

/** The plan of a list (the List table), validating resourceVersionMatch and continue. */
export function planList(opts: ListOptions & { sendInitialEvents?: string }, brand: Brand): ReadPlan {
  const match = opts.resourceVersionMatch ?? '';
  const rvParam = opts.resourceVersion ?? '';
  const errs: FieldError[] = [];
  if (match !== '') {
    if (rvParam === '') errs.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (opts.continue) errs.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && rvParam === '0')
      errs.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  // Watch-list's parameter is refused on a list, whatever its value (upstream's ValidateListOptions).
  if (opts.sendInitialEvents !== undefined) errs.push(forbiddenField('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  if (errs.length > 0) invalidListOptions(brand, errs);
  const rv = parseResourceVersion(rvParam);
  const paged = opts.limit !== undefined && opts.limit > 0;
  if (opts.continue) {
    if (rv !== undefined && rv !== 0) throw badRequest('specifying resource version is not allowed when using continue');
    return { kind: 'continue' };
  }
  if (rv === 0) return { kind: 'any' };
  if (match === 'Exact') return { kind: 'exact', revision: rv as number };
  if (rv === undefined) return paged ? { kind: 'latestPaginated', atLeast: 0 } : { kind: 'latest' };
  if (!paged) return { kind: 'notOlderThan', revision: rv };
  return match === 'NotOlderThan' ? { kind: 'latestPaginated', atLeast: rv } : { kind: 'exact', revision: rv };
}

export interface WatchPlan {
  /** Send the current state as ADDED events first. */
  initialEvents: boolean;
  /** Close the initial events with a BOOKMARK annotated initial-events-end (watch-list). */
  initialEventsEndBookmark: boolean;
  /** Where the state or the event stream starts. */
  from: ReadPlan;
}

/** The plan of a watch (the Watch table, plus watch-list's sendInitialEvents). */
export function planWatch(opts: ListOptions & { sendInitialEvents?: string; allowWatchBookmarks?: boolean }, brand: Brand): WatchPlan {
  const match = opts.resourceVersionMatch ?? '';
  const send = opts.sendInitialEvents;
  const errs: FieldError[] = [];
  if (send !== undefined) {
    if (send !== 'true' && send !== 'false') throw badRequest(`invalid value for sendInitialEvents: ${JSON.stringify(send)}`);
    if (match !== 'NotOlderThan') errs.push(forbiddenField('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    if (send === 'true' && !opts.allowWatchBookmarks) errs.push(forbiddenField('allowWatchBookmarks', 'sendInitialEvents requires allowWatchBookmarks=true'));
  }
  if (match !== '') {
    if (send === undefined)
      errs.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
  }
  if (opts.continue) errs.push(forbiddenField('continue', 'continue is forbidden for watch'));
  if (errs.length > 0) invalidListOptions(brand, errs);
  const rv = parseResourceVersion(opts.resourceVersion);
  if (send !== undefined) {
    // With the initial state, N means "a state not older than N"; without it, the events after N
    // (upstream's watch cache starts an interval at the requested revision, 410 when too old).
    const from: ReadPlan =
      rv === undefined
        ? { kind: 'latest' }
        : rv === 0
          ? { kind: 'any' }
          : send === 'true'
            ? { kind: 'notOlderThan', revision: rv }
            : { kind: 'exact', revision: rv };
    return { initialEvents: send === 'true', initialEventsEndBookmark: send === 'true', from };
  }
  if (rv === undefined) return { initialEvents: true, initialEventsEndBookmark: false, from: { kind: 'latest' } };
  if (rv === 0) return { initialEvents: true, initialEventsEndBookmark: false, from: { kind: 'any' } };
  return { initialEvents: false, initialEventsEndBookmark: false, from: { kind: 'exact', revision: rv } };
}
