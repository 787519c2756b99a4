/**
 * The certificate and bootstrap-token controllers as entries of the controller table, built here
 * because the request parser and signer (pki/) are injected into them and the controllers layer
 * cannot import pki: `csrsigning`, `csrapproving`, and upstream's disabled-by-default
 * `tokencleaner` and `bootstrapsigner`. Both `orch-controller-manager` and the all-in-one run
 * them through the same runner, so --controllers, --use-service-account-credentials (their
 * accounts are upstream's: certificate-controller, token-cleaner, bootstrap-signer) and the
 * bootstrap RBAC roles apply to them as to every other controller.
 */
import { BootstrapSigner } from '../controllers/bootstrap-signer.js';
import type { Controller, ControllerContext } from '../controllers/controller.js';
import { CONTROLLERS, type ControllerEntry } from '../controllers/controller-table.js';
import { CsrApprovingController } from '../controllers/csr-approving.js';
import { CsrSigningController } from '../controllers/csr-signing.js';
import { TokenCleaner } from '../controllers/token-cleaner.js';
import { certificateRequestSigner, parseCertificateRequest } from '../pki/csr-signer.js';

/** Nothing to run: a controller that is skipped, as upstream's start functions may return. */
const SKIPPED: Controller = { start() {}, stop() {} };

export interface CertificateControllerOptions {
  /**
   * Work done as the bootstrap signer starts (the all-in-one creates `cluster-info`, as kubeadm
   * does; a separate controller manager only signs what exists).
   */
  onBootstrapSignerStart?: (ctx: ControllerContext) => void;
}

function csrSigning(ctx: ControllerContext): Controller {
  const pair = ctx.clusterSigning;
  if (!pair) {
    // Upstream's startCSRSigningController: no signing files, no signer (logged, not fatal).
    ctx.log('info', 'Skipping CSR signer controller because no csr cert/key was specified');
    return SKIPPED;
  }
  const sign = certificateRequestSigner(pair.certPem, pair.keyPem, pair.keyFile ?? '--cluster-signing-key-file');
  return new CsrSigningController({ client: ctx.client, brand: ctx.brand, parse: parseCertificateRequest, sign });
}

function bootstrapSigner(ctx: ControllerContext, o: CertificateControllerOptions): Controller {
  const signer = new BootstrapSigner({ client: ctx.client, brand: ctx.brand });
  return {
    start() {
      signer.start();
      o.onBootstrapSignerStart?.(ctx);
    },
    stop: () => signer.stop(),
  };
}

/** CONTROLLERS with the certificate and bootstrap-token controllers, in upstream's names. */
export function controllerTableWithCertificates(o: CertificateControllerOptions = {}): Map<string, ControllerEntry> {
  return new Map<string, ControllerEntry>([
    ...CONTROLLERS,
    ['csrsigning', { serviceAccount: 'certificate-controller', init: csrSigning }],
    [
      'csrapproving',
      {
        serviceAccount: 'certificate-controller',
        init: (ctx) => new CsrApprovingController({ client: ctx.client, brand: ctx.brand, parse: parseCertificateRequest }),
      },
    ],
    ['tokencleaner', { serviceAccount: 'token-cleaner', init: (ctx) => new TokenCleaner({ client: ctx.client, brand: ctx.brand }) }],
    ['bootstrapsigner', { serviceAccount: 'bootstrap-signer', init: (ctx) => bootstrapSigner(ctx, o) }],
  ]);
}
