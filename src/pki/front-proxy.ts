/**
 * The front-proxy PKI, as kubeadm creates it: a CA of its own (`front-proxy-ca`) that only
 * vouches for the proxy, and the client certificate the aggregator presents to aggregated API
 * servers (`front-proxy-client`). Aggregated servers trust the CA through the
 * extension-apiserver-authentication ConfigMap; orch's request-header authenticator trusts it
 * too, as kubeadm's `--requestheader-*` flags configure. Created once per certificate directory.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { checkPair, checkSignedBy, regenerateFix } from './check.js';
import { createCa, issueClientCertificate, loadX509, readIfExists, writeAtomic } from './certificates.js';

/** kubeadm's names: the CA's common name and the client's (what `--requestheader-allowed-names` lists). */
export const FRONT_PROXY_CA_NAME = 'front-proxy-ca';
export const FRONT_PROXY_CLIENT_NAME = 'front-proxy-client';

export interface FrontProxyMaterial {
  caCertPem: string;
  clientCertPem: string;
  clientKeyPem: string;
}

/** The front-proxy CA and client of certDir, creating whatever is missing; existing files are kept. */
export async function ensureFrontProxyCertificates(certDir: string): Promise<FrontProxyMaterial> {
  const paths = {
    caCert: join(certDir, `${FRONT_PROXY_CA_NAME}.crt`),
    caKey: join(certDir, `${FRONT_PROXY_CA_NAME}.key`),
    clientCert: join(certDir, `${FRONT_PROXY_CLIENT_NAME}.crt`),
    clientKey: join(certDir, `${FRONT_PROXY_CLIENT_NAME}.key`),
  };
  const [caCertPem, caKeyPem, clientCertPem, clientKeyPem] = await Promise.all(
    [paths.caCert, paths.caKey, paths.clientCert, paths.clientKey].map(readIfExists),
  );
  const caFix = `replace ${paths.caCert} and ${paths.caKey} with a valid pair, or delete them and ${paths.clientCert} to have new ones created`;
  const ca = caCertPem && caKeyPem ? checkPair(paths.caCert, caCertPem, paths.caKey, caKeyPem, caFix) : undefined;
  if (ca && clientCertPem && clientKeyPem) {
    const fix = regenerateFix(paths.clientCert, paths.clientKey);
    checkSignedBy(paths.clientCert, checkPair(paths.clientCert, clientCertPem, paths.clientKey, clientKeyPem, fix), ca, paths.caCert, fix);
    return { caCertPem: caCertPem as string, clientCertPem, clientKeyPem };
  }
  await mkdir(certDir, { recursive: true, mode: 0o700 });
  let caPair = caCertPem && caKeyPem ? { certPem: caCertPem, keyPem: caKeyPem } : undefined;
  if (caPair === undefined) {
    const created = await createCa(await loadX509(), FRONT_PROXY_CA_NAME);
    caPair = { certPem: created.certPem, keyPem: created.keyPem };
    // The CA first: a crash before the client leaves a CA the next start signs with.
    await writeAtomic(paths.caKey, caPair.keyPem, 0o600);
    await writeAtomic(paths.caCert, caPair.certPem, 0o600);
  }
  const client = await issueClientCertificate(caPair.certPem, caPair.keyPem, FRONT_PROXY_CLIENT_NAME, []);
  await writeAtomic(paths.clientKey, client.keyPem, 0o600);
  await writeAtomic(paths.clientCert, client.certPem, 0o600);
  return { caCertPem: caPair.certPem, clientCertPem: client.certPem, clientKeyPem: client.keyPem };
}
