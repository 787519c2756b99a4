/**
 * Detached JWS signatures as upstream's cluster-bootstrap (`token/jws`): HS256 over the
 * content, keyed by a bootstrap token's secret, `kid` the token id, the payload left out of
 * the compact serialization (`<header>..<signature>`) since the signed content travels apart.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The detached signature of content with the token (id, secret); deterministic. */
export function computeDetachedSignature(content: string, tokenId: string, tokenSecret: string): string {
  // go-jose marshals the protected header as a map: keys in sorted order.
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', kid: tokenId })).toString('base64url');
  const payload = Buffer.from(content).toString('base64url');
  const signature = createHmac('sha256', tokenSecret).update(`${header}.${payload}`).digest('base64url');
  return `${header}..${signature}`;
}

/** True when detached is content's signature by the token (constant-time). */
export function detachedSignatureValid(detached: string, content: string, tokenId: string, tokenSecret: string): boolean {
  const want = Buffer.from(computeDetachedSignature(content, tokenId, tokenSecret));
  const got = Buffer.from(detached);
  return want.length === got.length && timingSafeEqual(want, got);
}
