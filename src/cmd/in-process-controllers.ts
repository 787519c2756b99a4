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
import { readFile } from 'node:fs/promises';
import type { SigningPair } from '../controllers/controller.js';
import { controllerTableWithCertificates } from './certificate-controllers.js';
import { ensureClusterInfo } from './cluster-info.js';
import type { ControlPlaneOptions } from './control-plane-types.js';
import { controllersFirstPass } from './controllers-first-pass.js';
import type { Registry } from '../registry/registry.js';
import type { Store } from '../storage/interface.js';

/** `--cluster-signing-cert-file`/`--cluster-signing-key-file`, else orch's CA; unreadable files stop start-up. */
async function signingPair(files: ControlPlaneOptions['clusterSigning'], pki: PkiMaterial): Promise<SigningPair> {
  if (!files) return { certPem: pki.caCertPem, keyPem: pki.caKeyPem, keyFile: pki.paths.caKey };
  const [certPem, keyPem] = await Promise.all([files.certFile, files.keyFile].map((f) => readFile(f, 'utf8'))).catch((err: Error) => {
    throw new Error(`cannot read the cluster signing CA (${err.message}): check --cluster-signing-cert-file and --cluster-signing-key-file`);
  });
  return { certPem, keyPem, keyFile: files.keyFile };
}

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
  const table = controllerTableWithCertificates({
    // As kubeadm does next to its control plane: `cluster-info` for bootstrap-token joins.
    onBootstrapSignerStart: (ctx) =>
      ensureClusterInfo(ctx.client, brand, url, pki.caCertPem).catch((err: Error) =>
        process.stderr.write(`E cannot create ${brand.publicNamespace}/cluster-info: ${err.message}\n`),
      ),
  });
  const named = opts.controllerNames ?? ['*'];
  const problem = validateControllerSelection(named, table);
  if (problem !== undefined) throw new Error(problem);
  // --enable-bootstrap-token-auth names upstream's disabled-by-default pair, unless the
  // selection turned one off (the first mention of a name decides).
  const selection = opts.enableBootstrapTokenAuth ? [...named, 'tokencleaner', 'bootstrapsigner'] : named;
  const clusterSigning = await signingPair(opts.clusterSigning, pki);
  const userAgent = `${brand.word}-controller-manager`;
  const client = new RestClient({ server: url, caPem: pki.caCertPem, certPem: pki.adminCertPem, keyPem: pki.adminKeyPem, userAgent });
  try {
    const controllers = await startControllers({
      client,
      brand,
      controllers: selection,
      table,
      rootCaPem: pki.caCertPem,
      clusterSigning,
      userAgent,
    });
    let stopping: Promise<void> | undefined;
    const running: InProcessControllers = {
      namespaceController: isControllerEnabled('namespace', selection, false),
      stop() {
        stopping ??= (async () => {
          await controllers.stop();
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
