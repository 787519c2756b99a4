/**
 * Checks the PEM files of a certificate directory before they are used, so a damaged or
 * foreign file is reported as one line naming the file and the fix, instead of failing deep
 * inside TLS or the X.509 library.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { basename, dirname } from 'node:path';

/** A certificate file that cannot be used as it is; the message names the file and the fix. */
export class PkiFileError extends Error {}

/** The certificate in pem (read from path), or a PkiFileError. */
export function parseCertificate(path: string, pem: string, fix: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch (err) {
    throw new PkiFileError(`${path} is not a PEM certificate (${reason(err)}): ${fix}`);
  }
}

/** The private key in pem (read from path), or a PkiFileError. */
export function parsePrivateKey(path: string, pem: string, fix: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch (err) {
    throw new PkiFileError(`${path} is not a PEM private key (${reason(err)}): ${fix}`);
  }
}

/** Throws a PkiFileError unless the key at keyPath belongs to the certificate at certPath. */
export function checkPair(certPath: string, certPem: string, keyPath: string, keyPem: string, fix: string): X509Certificate {
  const cert = parseCertificate(certPath, certPem, fix);
  const key = parsePrivateKey(keyPath, keyPem, fix);
  if (!cert.checkPrivateKey(key)) throw new PkiFileError(`${keyPath} is not the key of ${certPath}: ${fix}`);
  return cert;
}

/** Throws a PkiFileError unless the leaf certificate at path was signed by the CA. */
export function checkSignedBy(path: string, leaf: X509Certificate, ca: X509Certificate, caPath: string, fix: string): void {
  if (!leaf.verify(ca.publicKey)) throw new PkiFileError(`${path} was not signed by ${caPath}: ${fix}`);
}

/** How to get rid of a bad pair: delete it so the next start issues a new one. */
export function regenerateFix(certPath: string, keyPath: string): string {
  return `replace them, or delete ${basename(certPath)} and ${basename(keyPath)} in ${dirname(certPath)} to have new ones issued`;
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
