/**
 * Service-account token keys as upstream handles them: public keys (from public or private PEMs)
 * verify, one private key signs; the algorithm follows the key (RSA: RS256; ECDSA P-256/384/521:
 * ES256/384/512) and the key id is base64url(SHA-256(DER of the public key)).
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

export interface VerifyKey {
  kid: string;
  alg: string;
  key: KeyObject;
}

export interface SigningKey extends VerifyKey {
  privateKey: KeyObject;
}

/** A key file that holds no usable key, worded for a start-up error. */
export class ServiceAccountKeyError extends Error {}

function algorithmOf(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
  }
  throw new ServiceAccountKeyError(`unsupported service account key type ${key.asymmetricKeyType ?? 'unknown'}`);
}

/** Upstream's key id: SHA-256 of the public key's DER (PKIX), base64url. */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

/** Every public key in a PEM text (public keys, private keys and certificates all count). */
export function verifyKeysFromPem(pem: string, source: string): VerifyKey[] {
  const blocks = pem.match(/-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g) ?? [];
  const keys: VerifyKey[] = [];
  for (const block of blocks) {
    let key: KeyObject;
    try {
      key = createPublicKey(block);
    } catch {
      continue;
    }
    keys.push({ kid: keyId(key), alg: algorithmOf(key), key });
  }
  if (keys.length === 0) throw new ServiceAccountKeyError(`no public or private key found in ${source}`);
  return keys;
}

/** The signing key of a private key PEM. */
export function signingKeyFromPem(pem: string, source: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (e) {
    throw new ServiceAccountKeyError(`no private key in ${source}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const key = createPublicKey(privateKey);
  return { kid: keyId(key), alg: algorithmOf(key), key, privateKey };
}
