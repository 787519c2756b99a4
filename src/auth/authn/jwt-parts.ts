/**
 * The unverified header and payload of a compact JWT, read only to decide which method and key
 * a token is for (never to trust it): bounded in size, base64url JSON objects or nothing.
 */

/** Longest token read; larger ones are nobody's (header limits bound them anyway). */
export const MAX_TOKEN_LENGTH = 64 * 1024;

export type Claims = Record<string, unknown>;

function decodePart(part: string | undefined): Claims | undefined {
  if (!part || !/^[A-Za-z0-9_-]+$/.test(part)) return undefined;
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Claims) : undefined;
  } catch {
    return undefined;
  }
}

/** The JOSE header (alg, kid), or undefined. */
export function unverifiedHeader(token: string): Claims | undefined {
  return token.length <= MAX_TOKEN_LENGTH ? decodePart(token.split('.')[0]) : undefined;
}

/** The claims of a three-part token, or undefined. */
export function unverifiedPayload(token: string): Claims | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const parts = token.split('.');
  return parts.length === 3 ? decodePart(parts[1]) : undefined;
}
