/** Writing an admin kubeconfig that any kubectl/client-go/client-node reads unchanged. */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  /** API server URL, e.g. `https://127.0.0.1:6443`. */
  server: string;
  caPem: string;
  clientCertPem: string;
  clientKeyPem: string;
  clusterName: string;
  userName: string;
  contextName: string;
}

/** The kubeconfig document (v1 Config) for `opts`, credentials embedded as base64 `*-data`; pure. */
export function kubeconfigDocument(opts: KubeconfigOptions): Record<string, unknown> {
  const b64 = (pem: string) => Buffer.from(pem, 'utf8').toString('base64');
  return {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: [{ name: opts.clusterName, cluster: { server: opts.server, 'certificate-authority-data': b64(opts.caPem) } }],
    users: [
      {
        name: opts.userName,
        user: { 'client-certificate-data': b64(opts.clientCertPem), 'client-key-data': b64(opts.clientKeyPem) },
      },
    ],
    contexts: [{ name: opts.contextName, context: { cluster: opts.clusterName, user: opts.userName } }],
    'current-context': opts.contextName,
  };
}

/**
 * Writes the kubeconfig to `path` atomically with mode 0600 (it holds a private key): readers
 * see the old file or the whole new one, and resolves to the text written. A failure throws one
 * line naming the file.
 */
export async function writeKubeconfig(path: string, opts: KubeconfigOptions): Promise<string> {
  // Embedded keys are long single-line base64 strings: never fold them.
  const text = stringify(kubeconfigDocument(opts), { lineWidth: 0 });
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(tmp, text, { mode: 0o600 });
    await rename(tmp, path);
    return text;
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {});
    throw new Error(`cannot write ${path} (${(err as Error).message}): check that its directory is writable`);
  }
}
