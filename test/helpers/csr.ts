/** CertificateSigningRequests for tests: a fresh key with its PKCS#10 request, and the API object carrying it. */
import { webcrypto } from 'node:crypto';
import { loadX509 } from '../../src/pki/certificates.js';

export interface Requested {
  csrPem: string;
  keyPem: string;
}

/** A P-256 key and a PKCS#10 request for CN=user, O=each group. */
export async function makeRequest(user: string, groups: string[]): Promise<Requested> {
  const x509 = await loadX509();
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const name = [...groups.map((g) => ({ O: [g] })), { CN: [user] }];
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name, keys, signingAlgorithm: alg });
  const der = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { csrPem: csr.toString('pem'), keyPem: x509.PemConverter.encode(der, 'PRIVATE KEY') };
}

export function csrBody(group: string, name: string, req: Requested, signerName: string, usages: string[], expirationSeconds?: number) {
  return {
    apiVersion: `${group}/v1`,
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: Buffer.from(req.csrPem).toString('base64'), signerName, usages, ...(expirationSeconds ? { expirationSeconds } : {}) },
  };
}
