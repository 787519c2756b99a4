/**
 * The all-in-one's controllers: the runner `orch-controller-manager` runs, with the admin
 * client and orch's CA as root CA, plus the certificate controllers, which sign with orch's CA
 * (pki) and so are built here: the controllers layer cannot import pki.
 */
import { RestClient } from '../client/rest-client.js';
import { startControllers } from '../controllers/controller-manager.js';
import { isControllerEnabled, validateControllerSelection } from '../controllers/controller-table.js';
import type { Brand } from '../machinery/brand.js';
import type { PkiMaterial } from '../pki/certificates.js';
import { certificateControllers } from './certificate-controllers.js';
import type { ControlPlaneOptions } from './control-plane-types.js';
import { controllersFirstPass } from './controllers-first-pass.js';
import type { Registry } from '../registry/registry.js';
import type { Store } from '../storage/interface.js';

/** Bounds the wait for the controllers' first pass: a slow one must not hold start-up. */
const FIRST_PASS_MAX_MS = 10_000;

export interface InProcessControllers {
  /** Whether the namespace controller runs (test namespaces are then deleted through it). */
  readonly namespaceController: boolean;
  stop(): Promise<void>;
}

/**
 * Starts the selected controllers against the control plane at url and waits for their first
 * pass, so callers get a settled cluster (a pod created at once in `default` finds its
 * ServiceAccount); a bad selection rejects before anything starts.
 */
export async function startInProcessControllers(a: {
  opts: ControlPlaneOptions;
  brand: Brand;
  url: string;
  pki: PkiMaterial;
  store: Store;
  registry: Registry;
}): Promise<InProcessControllers> {
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
    const running: InProcessControllers = {
      namespaceController: isControllerEnabled('namespace', selection, false),
      stop() {
        stopping ??= (async () => {
          await controllers.stop();
          for (const c of certControllers) c.stop();
          client.close();
        })();
        return stopping;
      },
    };
    await controllersFirstPass(a.store, a.registry, selection, FIRST_PASS_MAX_MS).catch(async (err: unknown) => {
      await running.stop();
      throw err;
    });
    return running;
  } catch (err) {
    client.close();
    throw err;
  }
}
