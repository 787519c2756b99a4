/**
 * Upstream's WithImpersonation: `Impersonate-User`, `-Group`, `-Uid` and `-Extra-<key>` ask to
 * act as another user; each requested item is authorized for the requester with the
 * `impersonate` verb (users, groups, serviceaccounts, uids, userextras/<key>), and the request
 * then runs as the impersonated user. Runs after authentication, before the in-flight limit
 * and authorization (which then sees the impersonated user). The headers are removed.
 */
import type { Authorizer } from '../../auth/authz/authorizer.js';
import type { Attributes } from '../../machinery/authorization.js';
import type { Brand } from '../../machinery/brand.js';
import type { UserInfo } from '../../machinery/user.js';
import { StatusError } from '../../machinery/status.js';
import type { Request } from '../http.js';
import type { Filter } from './chain.js';
import { rawHeadersWithPrefix, rawHeaderValues, unescapeHeaderKey } from '../../machinery/raw-headers.js';
import { authorizeOrThrow } from './authorization.js';

const USER = 'impersonate-user';
const GROUP = 'impersonate-group';
const UID = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

interface Requested {
  user?: string;
  groups: string[];
  uid?: string;
  /** Keys lower-cased and %-unescaped, as upstream reads them. */
  extra: Map<string, string[]>;
  present: boolean;
}

export function withImpersonation(authorizer: Authorizer, brand: Brand): Filter {
  const authnGroup = brand.group('authentication', true);
  const impersonate: Filter = async (state, next) => {
    const asked = requested(state.req);
    if (!asked.present) return next(state);
    const requester = state.user as UserInfo;
    if (asked.user === undefined) {
      throw new StatusError(500, 'InternalError', `Internal error occurred: requested ${describe(asked)} without impersonating a user`);
    }
    const check = async (attrs: Omit<Attributes, 'user' | 'verb' | 'isResourceRequest' | 'path' | 'apiVersion'>) => {
      const full: Attributes = { ...attrs, user: requester, verb: 'impersonate', isResourceRequest: true, path: state.path, apiVersion: '' };
      await authorizeOrThrow(authorizer, full);
    };
    const sa = serviceAccountOf(asked.user);
    if (sa) await check({ namespace: sa.namespace, apiGroup: '', resource: 'serviceaccounts', subresource: '', name: sa.name });
    else await check({ namespace: '', apiGroup: '', resource: 'users', subresource: '', name: asked.user });
    for (const g of asked.groups) await check({ namespace: '', apiGroup: '', resource: 'groups', subresource: '', name: g });
    if (asked.uid !== undefined) await check({ namespace: '', apiGroup: authnGroup, resource: 'uids', subresource: '', name: asked.uid });
    for (const [key, values] of asked.extra) {
      for (const v of values) await check({ namespace: '', apiGroup: authnGroup, resource: 'userextras', subresource: key, name: v });
    }
    state.user = impersonatedUser(asked, sa);
    return next(state);
  };
  // Most requests impersonate no one: one pass over the header names, no allocation, no promise.
  return (state, next) => (asksImpersonation(state.req.rawHeaders) ? impersonate(state, next) : next(state));
}

/** True when any header name starts with `impersonate-` (any case). */
function asksImpersonation(raw: readonly string[]): boolean {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length > 12 && (name.charCodeAt(0) | 0x20) === 0x69 && name.slice(0, 12).toLowerCase() === 'impersonate-') return true;
  }
  return false;
}

/** The impersonation headers of a request (removed from it), repeated headers kept apart. */
function requested(req: Request): Requested {
  const raw = req.rawHeaders;
  const users = rawHeaderValues(raw, USER);
  const uids = rawHeaderValues(raw, UID);
  const extra = new Map<string, string[]>();
  for (const [key, values] of rawHeadersWithPrefix(raw, EXTRA_PREFIX)) {
    const k = unescapeHeaderKey(key);
    extra.set(k, [...(extra.get(k) ?? []), ...values]);
  }
  const out: Requested = { user: users[0], groups: rawHeaderValues(raw, GROUP), uid: uids[0], extra, present: false };
  out.present = out.user !== undefined || out.groups.length > 0 || out.uid !== undefined || extra.size > 0;
  if (out.present) {
    for (const name of Object.keys(req.headers)) if (name.startsWith('impersonate-')) delete req.headers[name];
  }
  return out;
}

/** `system:serviceaccount:<ns>:<name>` with exactly two non-empty parts, else not a service account. */
function serviceAccountOf(user: string): { namespace: string; name: string } | undefined {
  if (!user.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = user.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return { namespace: parts[0], name: parts[1] };
}

function impersonatedUser(asked: Requested, sa: { namespace: string } | undefined): UserInfo {
  const name = asked.user as string;
  let groups = [...asked.groups];
  if (sa && groups.length === 0) groups = ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`];
  if (name === 'system:anonymous') {
    if (!groups.includes('system:unauthenticated')) groups.push('system:unauthenticated');
  } else if (!groups.includes('system:authenticated') && !groups.includes('system:unauthenticated')) {
    groups.push('system:authenticated');
  }
  const user: UserInfo = { name, groups };
  if (asked.uid !== undefined) user.uid = asked.uid;
  if (asked.extra.size > 0) user.extra = Object.fromEntries(asked.extra);
  return user;
}

function describe(asked: Requested): string {
  const items = [
    ...asked.groups.map((g) => `group ${g}`),
    ...(asked.uid !== undefined ? [`uid ${asked.uid}`] : []),
    ...[...asked.extra.keys()].map((k) => `extra ${k}`),
  ];
  return `[${items.join(' ')}]`;
}
