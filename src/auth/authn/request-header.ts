/**
 * Authenticating proxy (upstream's requestheader authenticator, `--requestheader-*`): a
 * client certificate issued by the proxy CA (and, when a list is given, with an allowed CN)
 * lets the proxy name the user in headers: the first non-empty username header, every value
 * of every group header, and extras from prefixed headers (key lower-cased, %-unescaped).
 * Every consumed header is removed. Anyone else's headers are ignored, never trusted.
 */
import type { UserInfo } from '../../machinery/user.js';
import { AuthenticationFailure, type AuthenticationRequest, type Authenticator } from './authenticator.js';
import { cachedPeerVerifier, parseCertificateBundle } from './x509.js';
import { rawHeadersWithPrefix, rawHeaderValues, unescapeHeaderKey } from '../../machinery/raw-headers.js';

export interface RequestHeaderOptions {
  /** `--requestheader-client-ca-file` contents. */
  clientCaPem: string;
  /** `--requestheader-allowed-names`: CNs allowed to act as proxy; empty: any from the CA. */
  allowedNames: readonly string[];
  usernameHeaders: readonly string[];
  groupHeaders: readonly string[];
  extraHeaderPrefixes: readonly string[];
}

export function requestHeaderAuthenticator(opts: RequestHeaderOptions): Authenticator {
  const verify = cachedPeerVerifier(parseCertificateBundle(opts.clientCaPem));
  const usernameHeaders = opts.usernameHeaders.map((h) => h.toLowerCase());
  const groupHeaders = opts.groupHeaders.map((h) => h.toLowerCase());
  const prefixes = opts.extraHeaderPrefixes.map((h) => h.toLowerCase());
  const allowed = new Set(opts.allowedNames);
  // A connection whose certificate this CA did not issue (every ordinary client's) fails the
  // same way on each request: the failure is made once per connection.
  const failures = new WeakMap<object, AuthenticationFailure>();
  const attempt = (req: AuthenticationRequest): UserInfo | undefined | AuthenticationFailure => {
    const verified = verify(req.socket);
    if (verified === undefined) return undefined;
    if ('error' in verified) {
      let failure = failures.get(req.socket);
      if (failure === undefined) failures.set(req.socket, (failure = new AuthenticationFailure(verified.error)));
      return failure;
    }
    const cn = (verified.cert.subject.split('\n').find((l) => l.startsWith('CN=')) ?? 'CN=').slice(3);
    if (allowed.size > 0 && !allowed.has(cn)) throw new AuthenticationFailure(`x509: subject with cn=${cn} is not in the allowed list`);
    const name = usernameHeaders.map((h) => rawHeaderValues(req.rawHeaders, h).find((v) => v !== '')).find((v) => v !== undefined);
    if (name === undefined) return undefined;
    const user: UserInfo = { name, groups: groupHeaders.flatMap((h) => rawHeaderValues(req.rawHeaders, h)) };
    const extra = new Map<string, string[]>();
    for (const prefix of prefixes) {
      for (const [key, values] of rawHeadersWithPrefix(req.rawHeaders, prefix)) {
        const k = unescapeHeaderKey(key);
        extra.set(k, [...(extra.get(k) ?? []), ...values]);
      }
    }
    if (extra.size > 0) user.extra = Object.fromEntries(extra);
    for (const h of Object.keys(req.headers)) {
      if (usernameHeaders.includes(h) || groupHeaders.includes(h) || prefixes.some((p) => h.startsWith(p))) delete req.headers[h];
    }
    return user;
  };
  return {
    attempt,
    authenticate(req) {
      const answer = attempt(req);
      if (answer instanceof AuthenticationFailure) throw answer;
      return answer;
    },
  };
}
