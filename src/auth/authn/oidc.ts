/**
 * OpenID Connect ID tokens (`--oidc-*`), as upstream's OIDC authenticator: keys come from the
 * issuer's discovery document and JWKS (fetched in the background; until then every OIDC token
 * fails "oidc: authenticator not initialized"), refreshed when a token names an unknown key id.
 * Tokens of another issuer are not-mine; ours must be signed with an allowed algorithm, name the
 * client id in `aud`, be unexpired, carry the username claim (a verified email when it is
 * `email`) and every required claim; groups may be a string or a list; prefixes as upstream.
 */
import https from 'node:https';
import type { JWK } from 'jose';
import { loadJose } from './jose-module.js';
import type { KeyObject } from 'node:crypto';
import type { UserInfo } from '../../machinery/user.js';
import { AuthenticationFailure } from './authenticator.js';
import { getJson } from './https-json.js';
import { type Claims, unverifiedHeader, unverifiedPayload } from './jwt-parts.js';
import type { TokenAuthenticator } from './token.js';

export interface OidcOptions {
  issuerUrl: string;
  clientId: string;
  caPem?: string;
  usernameClaim: string;
  /** Upstream's rule applied already: undefined means `<issuer>#` unless the claim is email; '-' none. */
  usernamePrefix?: string;
  groupsClaim?: string;
  groupsPrefix?: string;
  signingAlgs: readonly string[];
  requiredClaims: ReadonlyMap<string, string>;
  now?: () => number;
  /** Retry interval of the initial discovery (upstream polls every 10 s). */
  initRetryMs?: number;
}

/** Start-up validation of the OIDC flags, with upstream's messages. */
export function validateOidcFlags(issuerUrl: string | undefined, clientId: string | undefined): string | undefined {
  if ((issuerUrl ?? '') === '' && (clientId ?? '') === '') return undefined;
  if (!issuerUrl || !clientId) return 'oidc-issuer-url and oidc-client-id should be specified together';
  let url: URL;
  try {
    url = new URL(issuerUrl);
  } catch {
    return `'oidc-issuer-url' (${JSON.stringify(issuerUrl)}) is not a valid URL`;
  }
  if (url.protocol !== 'https:')
    return `'oidc-issuer-url' (${JSON.stringify(issuerUrl)}) has invalid scheme (${JSON.stringify(url.protocol.slice(0, -1))}), require 'https'`;
  return undefined;
}

const FETCH_TIMEOUT_MS = 10_000;
/** A token naming an unknown key refreshes the keys at most this often. */
const REFRESH_INTERVAL_MS = 10_000;
/** go-oidc's allowance on nbf. */
const NBF_LEEWAY_S = 300;

interface Key {
  kid?: string;
  alg?: string;
  key: KeyObject | Uint8Array;
}

export interface OidcAuthenticator extends TokenAuthenticator {
  /** Stops background discovery. */
  stop(): void;
}

export function oidcAuthenticator(opts: OidcOptions): OidcAuthenticator {
  const now = opts.now ?? Date.now;
  const agent = new https.Agent({ keepAlive: true, ca: opts.caPem });
  let jwksUri: string | undefined;
  let keys: Key[] | undefined;
  let lastRefresh = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const prefix = opts.usernamePrefix ?? (opts.usernameClaim === 'email' ? '' : `${opts.issuerUrl}#`);
  const usernamePrefix = prefix === '-' ? '' : prefix;

  const loadKeys = async (): Promise<void> => {
    if (!jwksUri) {
      const discovery = (await getJson(`${opts.issuerUrl.replace(/\/$/, '')}/.well-known/openid-configuration`, agent, FETCH_TIMEOUT_MS)) as Claims;
      if (discovery.issuer !== opts.issuerUrl)
        throw new Error(
          `oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(opts.issuerUrl)} got ${JSON.stringify(discovery.issuer)}`,
        );
      if (typeof discovery.jwks_uri !== 'string') throw new Error('oidc: discovery document has no jwks_uri');
      jwksUri = discovery.jwks_uri;
    }
    const set = (await getJson(jwksUri, agent, FETCH_TIMEOUT_MS)) as { keys?: JWK[] };
    const loaded: Key[] = [];
    const { importJWK } = await loadJose();
    for (const jwk of set.keys ?? []) {
      if (jwk.use !== undefined && jwk.use !== 'sig') continue;
      const alg = jwk.alg ?? (jwk.kty === 'RSA' ? 'RS256' : jwk.crv === 'P-384' ? 'ES384' : jwk.crv === 'P-521' ? 'ES512' : 'ES256');
      try {
        loaded.push({ kid: jwk.kid, alg, key: (await importJWK(jwk, alg)) as unknown as KeyObject });
      } catch {
        // A key this server cannot use is skipped, as go-jose skips it.
      }
    }
    keys = loaded;
    lastRefresh = now();
  };

  const initialize = (): void => {
    loadKeys().catch(() => {
      if (!stopped) timer = setTimeout(initialize, opts.initRetryMs ?? 10_000).unref();
    });
  };
  initialize();

  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    async authenticateToken(token) {
      const unverified = unverifiedPayload(token);
      if (!unverified || unverified.iss !== opts.issuerUrl) return undefined;
      if (!keys) throw new AuthenticationFailure('oidc: authenticator not initialized');
      const header = unverifiedHeader(token) ?? {};
      if (typeof header.alg !== 'string' || !opts.signingAlgs.includes(header.alg))
        throw new AuthenticationFailure(
          `oidc: id token signed with unsupported algorithm, expected ${JSON.stringify(opts.signingAlgs)} got ${JSON.stringify(header.alg)}`,
        );
      let candidates = keys.filter((k) => header.kid === undefined || k.kid === header.kid);
      if (candidates.length === 0 && now() - lastRefresh > REFRESH_INTERVAL_MS) {
        await loadKeys().catch(() => {});
        candidates = keys.filter((k) => header.kid === undefined || k.kid === header.kid);
      }
      let claims: Claims | undefined;
      const { compactVerify } = await loadJose();
      for (const k of candidates) {
        try {
          const { payload } = await compactVerify(token, k.key, { algorithms: [header.alg] });
          claims = JSON.parse(Buffer.from(payload).toString('utf8')) as Claims;
          break;
        } catch {
          // Try the next key.
        }
      }
      if (!claims) throw new AuthenticationFailure('oidc: verify token: failed to verify signature');
      return userOf(claims);
    },
  };

  function userOf(claims: Claims): UserInfo {
    const t = Math.floor(now() / 1000);
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!aud.includes(opts.clientId)) throw new AuthenticationFailure(`oidc: expected audience ${JSON.stringify(opts.clientId)} got ${JSON.stringify(aud)}`);
    if (typeof claims.exp !== 'number' || t > claims.exp) throw new AuthenticationFailure('oidc: token is expired');
    if (typeof claims.nbf === 'number' && t + NBF_LEEWAY_S < claims.nbf) throw new AuthenticationFailure('oidc: current time before the nbf (not before) time');
    const username = own(claims, opts.usernameClaim);
    if (typeof username !== 'string')
      throw new AuthenticationFailure(`oidc: parse username claims ${JSON.stringify(opts.usernameClaim)}: claim not present or not a string`);
    if (opts.usernameClaim === 'email' && own(claims, 'email_verified') !== undefined && own(claims, 'email_verified') !== true) {
      throw new AuthenticationFailure('oidc: email not verified');
    }
    const groups: string[] = [];
    if (opts.groupsClaim) {
      const g = own(claims, opts.groupsClaim);
      const list = typeof g === 'string' ? [g] : Array.isArray(g) && g.every((x) => typeof x === 'string') ? (g as string[]) : g === undefined ? [] : undefined;
      if (list === undefined)
        throw new AuthenticationFailure(`oidc: parse groups claim ${JSON.stringify(opts.groupsClaim)}: not a string or a list of strings`);
      for (const group of list) groups.push(`${opts.groupsPrefix ?? ''}${group}`);
    }
    for (const [claim, value] of opts.requiredClaims) {
      if (own(claims, claim) !== value) throw new AuthenticationFailure(`oidc: required claim ${claim} not present or not equal to ${JSON.stringify(value)}`);
    }
    return { name: `${usernamePrefix}${username}`, groups };
  }
}

function own(claims: Claims, key: string): unknown {
  return Object.hasOwn(claims, key) ? claims[key] : undefined;
}
