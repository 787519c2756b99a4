/**
 * Bearer tokens: one TokenAuthenticator per token method (file, service account, bootstrap,
 * OIDC, webhook), tried in upstream's order by a union, behind a bounded success cache, and read
 * from the `Authorization: Bearer` header as upstream's bearertoken authenticator reads it.
 */
import { hash } from 'node:crypto';
import type { UserInfo } from '../../machinery/user.js';
import { AuthenticationFailure, type Authenticator, firstFound, type Maybe, mapMaybe } from './authenticator.js';

/** One token method: a user, undefined when the token is not its kind, or an AuthenticationFailure. */
export interface TokenAuthenticator {
  authenticateToken(token: string): Maybe<UserInfo | undefined>;
}

/** The first method that knows the token wins; failures count only when none does. */
export function unionTokenAuthenticator(methods: readonly TokenAuthenticator[]): TokenAuthenticator {
  return { authenticateToken: (token) => firstFound(methods, (m) => m.authenticateToken(token)) };
}

export interface TokenCacheOptions {
  /** How long a success is remembered (upstream: 10 s; failures are not cached). */
  successTtlMs: number;
  /** Most entries kept; the oldest go first. */
  maxEntries: number;
  now?: () => number;
}

/**
 * Remembers successful answers briefly so a repeated token costs one hash and one map lookup.
 * Keys are SHA-256 digests: the cache never holds a token itself.
 */
export function cachedTokenAuthenticator(inner: TokenAuthenticator, opts: TokenCacheOptions): TokenAuthenticator {
  const now = opts.now ?? Date.now;
  const entries = new Map<string, { user: UserInfo; expires: number }>();
  const remember = (key: string, user: UserInfo | undefined): UserInfo | undefined => {
    if (user) {
      if (entries.size >= opts.maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { user, expires: now() + opts.successTtlMs });
    }
    return user;
  };
  return {
    authenticateToken(token) {
      // One-shot hash: half the cost of a Hash object per request (every bearer request comes here).
      const key = hash('sha256', token, 'base64');
      const hit = entries.get(key);
      if (hit && hit.expires > now()) return hit.user;
      if (hit) entries.delete(key);
      return mapMaybe(inner.authenticateToken(token), (user) => remember(key, user));
    },
  };
}

/**
 * `Authorization: Bearer <token>`: the scheme in any case, one space; an empty token is no
 * credential at all (falls through), a token nobody accepts is 401 ("invalid bearer token").
 * On success the header is removed so no handler or proxy sees the credential.
 */
export function bearerTokenAuthenticator(tokens: TokenAuthenticator): Authenticator {
  return {
    authenticate(req) {
      const header = req.headers.authorization;
      if (typeof header !== 'string') return undefined;
      const parts = header.trim().split(' ');
      if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer') return undefined;
      const token = parts[1];
      if (token === '') return undefined;
      return mapMaybe(tokens.authenticateToken(token), (user) => {
        if (!user) throw new AuthenticationFailure('invalid bearer token');
        delete req.headers.authorization;
        return user;
      });
    },
  };
}
