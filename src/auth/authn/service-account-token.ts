/**
 * Service-account JWTs, as upstream's serviceaccount token authenticator: legacy secret-based
 * tokens (issuer `<brand>/serviceaccount`, no expiry, checked against their Secret when lookup
 * is on) and bound tokens (issued by TokenRequest: `--service-account-issuer`, audiences,
 * expiry, bound to a live ServiceAccount and optionally a Pod or Secret by UID). Tokens from
 * another issuer are not-mine (the next method, e.g. OIDC, may know them); ours that fail are
 * errors (401). The unverified payload is only read to decide whether a token is ours.
 */
import { loadJose } from './jose-module.js';
import type { Obj } from '../../machinery/object.js';
import type { UserInfo } from '../../machinery/user.js';
import { AuthenticationFailure } from './authenticator.js';
import type { SigningKey, VerifyKey } from './service-account-keys.js';
import type { TokenAuthenticator } from './token.js';
import { type Claims, unverifiedHeader, unverifiedPayload } from './jwt-parts.js';

/** The brand's spelling of the names upstream writes with kubernetes.io. */
export interface ServiceAccountNames {
  /** `kubernetes/serviceaccount` (orch: `orch/serviceaccount`). */
  legacyIssuer: string;
  /** `kubernetes.io` (orch: `orch.io`): the private claims' domain. */
  claimDomain: string;
  /** `authentication.kubernetes.io` (orch: `authentication.orch.io`): extra keys of pod-bound users. */
  extraDomain: string;
}

export interface ServiceAccountLookup {
  serviceAccount(namespace: string, name: string): Promise<Obj | undefined>;
  secret(namespace: string, name: string): Promise<Obj | undefined>;
  pod(namespace: string, name: string): Promise<Obj | undefined>;
}

export interface ServiceAccountTokenOptions {
  keys: readonly VerifyKey[];
  /** Accepted issuers of bound tokens (`--service-account-issuer`, every value). */
  issuers: readonly string[];
  /** `--api-audiences`: a bound token must name one of them. */
  apiAudiences: readonly string[];
  names: ServiceAccountNames;
  lookup: ServiceAccountLookup;
  /** `--service-account-lookup`: legacy tokens must still match their Secret and ServiceAccount. */
  lookupLegacy: boolean;
  now?: () => number;
}

/** go-jose's default leeway on exp and nbf. */
const LEEWAY_SECONDS = 60;
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

export function serviceAccountTokenAuthenticator(opts: ServiceAccountTokenOptions): TokenAuthenticator {
  const now = () => Math.floor((opts.now ?? Date.now)() / 1000);
  const { names } = opts;
  const legacyClaim = (k: string) => `${names.claimDomain}/serviceaccount/${k}`;
  return {
    async authenticateToken(token) {
      const unverified = unverifiedPayload(token);
      if (!unverified) return undefined;
      const legacy = unverified.iss === names.legacyIssuer;
      if (!legacy && !opts.issuers.includes(unverified.iss as string)) return undefined;
      const claims = await verified(token, opts.keys);
      return legacy ? legacyUser(claims, token) : boundUser(claims);
    },
  };

  async function legacyUser(claims: Claims, token: string): Promise<UserInfo> {
    const namespace = claims[legacyClaim('namespace')];
    const secretName = claims[legacyClaim('secret.name')];
    const saName = claims[legacyClaim('service-account.name')];
    const saUid = claims[legacyClaim('service-account.uid')];
    if (typeof namespace !== 'string' || namespace === '') throw new AuthenticationFailure('namespace claim is missing');
    if (typeof secretName !== 'string' || secretName === '') throw new AuthenticationFailure('secretName claim is missing');
    if (typeof saName !== 'string' || saName === '') throw new AuthenticationFailure('serviceAccountName claim is missing');
    if (typeof saUid !== 'string' || saUid === '') throw new AuthenticationFailure('serviceAccountUID claim is missing');
    if (claims.sub !== `${SERVICE_ACCOUNT_PREFIX}${namespace}:${saName}`) throw new AuthenticationFailure('sub claim does not match the service account');
    if (opts.lookupLegacy) {
      const secret = await opts.lookup.secret(namespace, secretName);
      if (!secret || deleting(secret)) throw new AuthenticationFailure('service account token has been invalidated');
      const data = secret.data as Record<string, unknown> | undefined;
      const stored = data && Object.hasOwn(data, 'token') && typeof data.token === 'string' ? Buffer.from(data.token, 'base64').toString('utf8') : undefined;
      if (stored !== token) throw new AuthenticationFailure('service account token has been invalidated');
      await liveServiceAccount(namespace, saName, saUid);
    }
    return serviceAccountUser(namespace, saName, saUid);
  }

  async function boundUser(claims: Claims): Promise<UserInfo> {
    const t = now();
    if (typeof claims.exp === 'number' && t > claims.exp + LEEWAY_SECONDS) throw new AuthenticationFailure('service account token has expired');
    if (typeof claims.nbf === 'number' && t < claims.nbf - LEEWAY_SECONDS) throw new AuthenticationFailure('service account token is not valid yet');
    const audiences = Array.isArray(claims.aud) ? claims.aud : typeof claims.aud === 'string' ? [claims.aud] : [];
    if (!audiences.some((a) => opts.apiAudiences.includes(a as string))) {
      throw new AuthenticationFailure(`token audiences ${JSON.stringify(audiences)} is invalid for the target audiences ${JSON.stringify(opts.apiAudiences)}`);
    }
    const priv = claims[names.claimDomain] as Record<string, any> | undefined;
    const namespace = priv?.namespace;
    const sa = priv?.serviceaccount;
    if (typeof namespace !== 'string' || typeof sa?.name !== 'string' || typeof sa?.uid !== 'string')
      throw new AuthenticationFailure('service account token claims are incomplete');
    await liveServiceAccount(namespace, sa.name, sa.uid);
    const user = serviceAccountUser(namespace, sa.name, sa.uid);
    if (priv?.pod) {
      const pod = await opts.lookup.pod(namespace, priv.pod.name);
      if (!pod || deleting(pod) || uidOf(pod) !== priv.pod.uid) throw new AuthenticationFailure('service account token has been invalidated');
      user.extra = Object.assign(Object.create(null), {
        [`${names.extraDomain}/pod-name`]: [priv.pod.name],
        [`${names.extraDomain}/pod-uid`]: [priv.pod.uid],
      });
    }
    if (priv?.secret) {
      const secret = await opts.lookup.secret(namespace, priv.secret.name);
      if (!secret || deleting(secret) || uidOf(secret) !== priv.secret.uid) throw new AuthenticationFailure('service account token has been invalidated');
    }
    return user;
  }

  async function liveServiceAccount(namespace: string, name: string, uid: string): Promise<void> {
    const sa = await opts.lookup.serviceAccount(namespace, name);
    if (!sa || deleting(sa) || uidOf(sa) !== uid) throw new AuthenticationFailure('service account token has been invalidated');
  }
}

/** The token's signature checked against the key its kid names (or every key); returns its claims. */
async function verified(token: string, keys: readonly VerifyKey[]): Promise<Claims> {
  const kid = unverifiedHeader(token)?.kid;
  const candidates = typeof kid === 'string' ? keys.filter((k) => k.kid === kid) : keys;
  const { compactVerify } = await loadJose();
  for (const k of candidates) {
    try {
      const { payload } = await compactVerify(token, k.key, { algorithms: [k.alg] });
      return JSON.parse(Buffer.from(payload).toString('utf8')) as Claims;
    } catch {
      // Another key may have signed it.
    }
  }
  throw new AuthenticationFailure('invalid signature');
}

function deleting(obj: Obj): boolean {
  return typeof (obj.metadata as { deletionTimestamp?: unknown } | undefined)?.deletionTimestamp === 'string';
}

function uidOf(obj: Obj): unknown {
  return (obj.metadata as { uid?: unknown } | undefined)?.uid;
}

/** Upstream's service-account user: its name, uid and the two service-account groups. */
export function serviceAccountUser(namespace: string, name: string, uid: string): UserInfo {
  return { name: `${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`, uid, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] };
}

export interface BoundTokenRequest {
  issuer: string;
  audiences: readonly string[];
  expirationSeconds: number;
  namespace: string;
  serviceAccount: { name: string; uid: string };
  /** The object the token is bound to (a Pod or Secret), if any. */
  boundObject?: { kind: 'Pod' | 'Secret'; name: string; uid: string };
  names: ServiceAccountNames;
  now: number;
}

/** Signs a bound token with upstream's claims; returns it and its expiry (seconds since epoch). */
export async function signBoundToken(key: SigningKey, req: BoundTokenRequest): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(req.now / 1000);
  const exp = iat + req.expirationSeconds;
  const priv: Record<string, unknown> = { namespace: req.namespace, serviceaccount: { name: req.serviceAccount.name, uid: req.serviceAccount.uid } };
  if (req.boundObject) priv[req.boundObject.kind === 'Pod' ? 'pod' : 'secret'] = { name: req.boundObject.name, uid: req.boundObject.uid };
  const { SignJWT } = await loadJose();
  const token = await new SignJWT({ [req.names.claimDomain]: priv })
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .setIssuer(req.issuer)
    .setSubject(`${SERVICE_ACCOUNT_PREFIX}${req.namespace}:${req.serviceAccount.name}`)
    .setAudience([...req.audiences])
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(exp)
    .sign(key.privateKey);
  return { token, expiresAt: exp };
}

/** Signs a legacy (secret-based) token: no expiry, no audience, the Secret named in its claims. */
export async function signLegacyToken(
  key: SigningKey,
  names: ServiceAccountNames,
  ref: { namespace: string; secretName: string; serviceAccountName: string; serviceAccountUid: string },
): Promise<string> {
  const c = (k: string) => `${names.claimDomain}/serviceaccount/${k}`;
  const { SignJWT } = await loadJose();
  return new SignJWT({
    [c('namespace')]: ref.namespace,
    [c('secret.name')]: ref.secretName,
    [c('service-account.name')]: ref.serviceAccountName,
    [c('service-account.uid')]: ref.serviceAccountUid,
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .setIssuer(names.legacyIssuer)
    .setSubject(`${SERVICE_ACCOUNT_PREFIX}${ref.namespace}:${ref.serviceAccountName}`)
    .sign(key.privateKey);
}
