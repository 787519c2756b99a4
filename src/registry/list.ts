/**
 * Lists with selectors and pagination. Every chunk of a paginated list is read at the
 * revision of the first chunk; the continue token carries that revision and the next key.
 */
import type { RangeResult } from '../storage/interface.js';
import { StoreError } from '../storage/interface.js';
import type { ListMeta } from '../machinery/object.js';
import type { CacheEntry } from '../storage/cacher/types.js';
import { type ReadPlan, servedByCache } from './read-options.js';
import { badRequest, gone } from '../machinery/status.js';
import { listPrefix } from './resource-info.js';
import type { ListOptions } from './context.js';
import type { Selection } from './selection.js';
import type { GenericStore } from './generic-store.js';
import { toStatusError } from './storage-errors.js';

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

/** The opaque continue token: base64 of upstream's `{"v","rv","start"}` shape. */
export function encodeContinue(metaVersion: string, rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: metaVersion, rv, start })).toString('base64url');
}

/** Decodes a continue token, or 400 when it is not one of ours. */
export function decodeContinue(token: string, metaVersion: string): ContinueToken {
  // Node's decoder skips characters outside the alphabet; upstream's RawURLEncoding refuses them.
  const bad = token.search(/[^A-Za-z0-9_-]/);
  if (bad >= 0) throw badRequest(`continue key is not valid: illegal base64 data at input byte ${bad}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('continue key is not valid: illegal base64 data at input byte 0');
  }
  const t = parsed as Partial<ContinueToken>;
  // rv -1 is upstream's "continue at the latest revision" (the token of a 410 on an expired one).
  if (
    typeof t !== 'object' ||
    t === null ||
    t.v !== metaVersion ||
    typeof t.rv !== 'number' ||
    typeof t.start !== 'string' ||
    !(Number.isSafeInteger(t.rv) && (t.rv > 0 || t.rv === LATEST_REVISION_TOKEN))
  ) {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (t.start.includes('..') || t.start.startsWith('/')) throw badRequest('continue key is not valid: the continue token is not valid');
  return t as ContinueToken;
}

/** The revision of a continue token that reads the remainder at the latest revision. */
const LATEST_REVISION_TOKEN = -1;

export const EXPIRED_CONTINUE_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** A list as cache entries: the served bytes of each item, in key order. */
export interface EntryList {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  entries: CacheEntry[];
}

/** Reads one list (or one chunk of it) as the List table plans it: from the cache or the store. */
export async function listEntries(
  gs: GenericStore,
  namespace: string,
  opts: ListOptions,
  plan: ReadPlan,
  selection: Selection,
  metaVersion: string,
): Promise<EntryList> {
  const info = gs.info;
  const prefix = listPrefix(info, namespace);
  const cache = gs.cache;
  const fromCache = (): EntryList => {
    const c = cache as NonNullable<typeof cache>;
    const revision = c.currentRevision();
    const all = c.list(prefix);
    const entries = selection.everything ? all : all.filter((e) => selection.matchesEntry(e));
    return { apiVersion: info.apiVersion, kind: info.listKind, metadata: { resourceVersion: String(revision) }, entries };
  };
  if (plan.kind === 'notOlderThan' || plan.kind === 'exact') await gs.waitForRevision(plan.revision);
  if (plan.kind === 'latestPaginated' && plan.atLeast > 0) await gs.waitForRevision(plan.atLeast);
  if (servedByCache(plan, cache)) return fromCache();
  if (plan.kind === 'exact') return listFromStore(gs, prefix, opts, selection, metaVersion, plan.revision);
  return listFromStore(gs, prefix, opts, selection, metaVersion, 0);
}

/** A (possibly paginated) list read from the store at one revision (0: current, or the token's). */
async function listFromStore(gs: GenericStore, prefix: string, opts: ListOptions, selection: Selection, metaVersion: string, at: number): Promise<EntryList> {
  const info = gs.info;
  const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : 0;
  let revision = at;
  let startKey: string | undefined;
  let tokenStart = '';
  if (opts.continue) {
    const token = decodeContinue(opts.continue, metaVersion);
    revision = token.rv === LATEST_REVISION_TOKEN ? 0 : token.rv;
    tokenStart = token.start;
    startKey = prefix + token.start;
  }
  const entries: CacheEntry[] = [];
  let lastKey = '';
  let hasMore = false;
  let remaining = 0;
  for (;;) {
    let res: RangeResult;
    try {
      res = await gs.storeRange(prefix, {
        revision: revision || undefined,
        startKey,
        limit: limit > 0 ? Math.max(limit - entries.length, 1) + (selection.everything ? 0 : 64) : 0,
      });
    } catch (e) {
      if (e instanceof StoreError && e.code === 'Compacted') {
        if (!opts.continue) throw gone('The resourceVersion for the provided list is too old.');
        // As upstream, the 410 carries a token that continues after the same key at the latest
        // revision, for clients that accept an inconsistent remainder.
        const err = gone(EXPIRED_CONTINUE_MESSAGE);
        err.continueToken = encodeContinue(metaVersion, LATEST_REVISION_TOKEN, tokenStart);
        throw err;
      }
      toStatusError(e, info.groupResource, '');
    }
    revision = res.revision;
    let i = 0;
    for (; i < res.items.length; i++) {
      const kv = res.items[i];
      const entry = gs.toEntry(kv, kv.modRevision);
      lastKey = kv.key;
      if (selection.everything || selection.matchesEntry(entry)) entries.push(entry);
      if (limit > 0 && entries.length >= limit) break;
    }
    if (limit > 0 && entries.length >= limit) {
      hasMore = i < res.items.length - 1 || res.more;
      remaining = res.count - (i + 1);
      break;
    }
    if (!res.more) break;
    startKey = `${lastKey}\u0000`;
  }
  const list: EntryList = { apiVersion: info.apiVersion, kind: info.listKind, metadata: { resourceVersion: String(revision) }, entries };
  if (hasMore) {
    list.metadata.continue = encodeContinue(metaVersion, revision, `${lastKey.slice(prefix.length)}\u0000`);
    if (selection.everything && remaining > 0) list.metadata.remainingItemCount = remaining;
  }
  return list;
}
