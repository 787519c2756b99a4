/**
 * The all-in-one's controllers: the runner `orch-controller-manager` runs, with the admin
 * client and orch's CA as root CA, plus the certificate controllers, which sign with orch's CA
 * (pki) and so are built here: the controllers layer cannot import pki.
 */
import { RestClient } from '../client/rest-client.js';
import { startControllers } from '../controllers/controller-manager.js';
import { validateControllerSelection } from '../controllers/controller-table.js';
import type { Brand } from '../machinery/brand.js';
import type { PkiMaterial } from '../pki/certificates.js';
import { certificateControllers } from './certificate-controllers.js';
import type { ControlPlaneOptions } from './control-plane-types.js';

export interface InProcessControllers {
  stop(): Promise<void>;
}

/** Starts the selected controllers against the control plane at url; a bad selection rejects before anything starts. */
export async function startInProcessControllers(a: { opts: ControlPlaneOptions; brand: Brand; url: string; pki: PkiMaterial }): Promise<InProcessControllers> {
  const { opts, brand, url, pki } = a;
  const selection = opts.controllerNames ?? ['*'];
  const problem = validateControllerSelection(selection);
  if (problem !== undefined) throw new Error(problem);
  const userAgent = `${brand.word}-controller-manager`;
  const client = new RestClient({ server: url, caPem: pki.caCertPem, certPem: pki.adminCertPem, keyPem: pki.adminKeyPem, userAgent });
  try {
    const controllers = await startControllers({
      client,
      brand,
      controllers: selection,
      rootCaPem: pki.caCertPem,
      clusterSigning: { certPem: pki.caCertPem, keyPem: pki.caKeyPem },
      userAgent,
    });
    const certControllers = await certificateControllers({
      client,
      brand,
      pki,
      clusterSigning: opts.clusterSigning,
      bootstrapTokens: opts.enableBootstrapTokenAuth ?? false,
      server: url,
    }).catch(async (err: unknown) => {
      await controllers.stop();
      throw err;
    });
    for (const c of certControllers) c.start();
    let stopping: Promise<void> | undefined;
    return {
      stop() {
        stopping ??= (async () => {
          await controllers.stop();
          for (const c of certControllers) c.stop();
          client.close();
        })();
        return stopping;
      },
    };
  } catch (err) {
    client.close();
    throw err;
  }
}
