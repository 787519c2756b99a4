/**
 * The certificate and bootstrap-token controllers of the all-in-one, built here because the
 * signing CA and the request parser (pki/) are injected into them: csrsigning and
 * csrapproving always; tokencleaner and bootstrapsigner (upstream's disabled-by-default pair)
 * when bootstrap tokens are enabled, with `cluster-info` created as kubeadm would.
 */
import { readFile } from 'node:fs/promises';
import type { RestClient } from '../client/rest-client.js';
import { BootstrapSigner } from '../controllers/bootstrap-signer.js';
import { CsrApprovingController } from '../controllers/csr-approving.js';
import { CsrSigningController } from '../controllers/csr-signing.js';
import { TokenCleaner } from '../controllers/token-cleaner.js';
import type { Brand } from '../machinery/brand.js';
import type { PkiMaterial } from '../pki/certificates.js';
import { certificateRequestSigner, parseCertificateRequest } from '../pki/csr-signer.js';
import { ensureClusterInfo } from './cluster-info.js';

export interface CertificateControllersOptions {
  client: RestClient;
  brand: Brand;
  pki: PkiMaterial;
  /** `--cluster-signing-cert-file`/`--cluster-signing-key-file`; default: the generated CA. */
  clusterSigning?: { certFile: string; keyFile: string };
  bootstrapTokens: boolean;
  /** The API server's URL, written into `cluster-info`. */
  server: string;
}

export interface Stoppable {
  start(): void;
  stop(): void;
}

/**
 * The controllers, not yet started; throws a start-up error for an unreadable or unusable
 * signing pair.
 */
export async function certificateControllers(opts: CertificateControllersOptions): Promise<Stoppable[]> {
  const { client, brand, pki } = opts;
  const files = opts.clusterSigning;
  const [certPem, keyPem] = files
    ? await Promise.all([files.certFile, files.keyFile].map((f) => readFile(f, 'utf8'))).catch((err: Error) => {
        throw new Error(`cannot read the cluster signing CA (${err.message}): check --cluster-signing-cert-file and --cluster-signing-key-file`);
      })
    : [pki.caCertPem, pki.caKeyPem];
  const sign = certificateRequestSigner(certPem, keyPem, files?.keyFile ?? pki.paths.caKey);
  const controllers: Stoppable[] = [
    new CsrSigningController({ client, brand, parse: parseCertificateRequest, sign }),
    new CsrApprovingController({ client, brand, parse: parseCertificateRequest }),
  ];
  if (opts.bootstrapTokens) {
    controllers.push(new TokenCleaner({ client, brand }));
    const signer = new BootstrapSigner({ client, brand });
    controllers.push({
      start() {
        signer.start();
        ensureClusterInfo(client, brand, opts.server, pki.caCertPem).catch((err: Error) =>
          process.stderr.write(`E cannot create ${brand.publicNamespace}/cluster-info: ${err.message}\n`),
        );
      },
      stop: () => signer.stop(),
    });
  }
  return controllers;
}
