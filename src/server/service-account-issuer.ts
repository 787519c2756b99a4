/**
 * The service-account issuer's OpenID discovery documents, as upstream serves them:
 * `/.well-known/openid-configuration` and `/openid/v1/jwks`, built once (the keys never change
 * while the server runs) and cacheable for an hour.
 */
import type { VerifyKey } from '../auth/authn/service-account-keys.js';
import type { Response } from './http.js';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

export interface IssuerDocuments {
  configuration: string;
  jwks: string;
}

/** The two documents for issuer and its verifying keys; jwks_uri is served from externalAddress. */
export function issuerDocuments(issuer: string, keys: readonly VerifyKey[], externalAddress: string): IssuerDocuments {
  const algs = [...new Set(keys.map((k) => k.alg))].sort();
  const configuration = {
    issuer,
    jwks_uri: `https://${externalAddress}${JWKS_PATH}`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
  };
  const jwks = { keys: keys.map((k) => ({ use: 'sig', ...k.key.export({ format: 'jwk' }), kid: k.kid, alg: k.alg })) };
  return { configuration: JSON.stringify(configuration), jwks: JSON.stringify(jwks) };
}

/** Serves one of the documents; false when path is neither. */
export function serveIssuerDocument(docs: IssuerDocuments, path: string, res: Response): boolean {
  const body = path === OPENID_CONFIGURATION_PATH ? docs.configuration : path === JWKS_PATH ? docs.jwks : undefined;
  if (body === undefined) return false;
  res.writeHead(200, {
    'content-type': path === JWKS_PATH ? 'application/jwk-set+json' : 'application/json',
    'cache-control': 'public, max-age=3600',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
  return true;
}
