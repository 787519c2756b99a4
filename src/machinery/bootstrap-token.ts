/**
 * Bootstrap-token Secrets, as upstream's cluster-bootstrap (`token/api/types.go`,
 * `util/secrets`): the Secret type, the token id's shape and when a token has expired. The
 * authenticator, the token cleaner and the bootstrap signer all read Secrets by these rules.
 */
import type { Brand } from './brand.js';

/** `bootstrap.orch.io/token`; compat `bootstrap.kubernetes.io/token`. */
export function bootstrapTokenSecretType(brand: Brand): string {
  return `bootstrap.${brand.labelDomain}/token`;
}

/** Upstream's BootstrapTokenIDPattern. */
export const BOOTSTRAP_TOKEN_ID = /^[a-z0-9]{6}$/;
/** Upstream's BootstrapTokenSecretPattern (the secret half). */
export const BOOTSTRAP_TOKEN_SECRET = /^[a-z0-9]{16}$/;

/** Upstream's GetExpiration: absent never expires; unparseable counts as expired. */
export function bootstrapTokenExpired(expiration: string | undefined, now: number): boolean {
  if (expiration === undefined) return false;
  const t = Date.parse(expiration);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(expiration) || Number.isNaN(t)) return true;
  return t <= now;
}

/** A Secret's `data` value decoded from base64, own keys only (user-supplied keys). */
export function secretField(data: unknown, key: string): string | undefined {
  if (typeof data !== 'object' || data === null || !Object.hasOwn(data, key)) return undefined;
  const v = (data as Record<string, unknown>)[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : undefined;
}
