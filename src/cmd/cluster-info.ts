/**
 * The `cluster-info` ConfigMap of the public namespace, as kubeadm creates it
 * (`phases/bootstraptoken/clusterinfo`): a kubeconfig naming only the cluster (server and CA),
 * which the bootstrap signer signs per bootstrap token so that a joining node can trust it.
 * Created at start when absent; an existing one (the operator's) is left as it is.
 */
import { stringify } from 'yaml';
import { ApiError, type RestClient } from '../client/rest-client.js';
import type { Brand } from '../machinery/brand.js';

/** kubeadm's kubeconfig for cluster-info: one unnamed cluster, no users or contexts. */
export function clusterInfoKubeconfig(server: string, caPem: string): string {
  return stringify({
    apiVersion: 'v1',
    clusters: [{ cluster: { 'certificate-authority-data': Buffer.from(caPem).toString('base64'), server }, name: '' }],
    contexts: null,
    'current-context': '',
    kind: 'Config',
    preferences: {},
    users: null,
  });
}

/** Creates `cluster-info` unless it exists; resolves either way, throws on other failures. */
export async function ensureClusterInfo(client: RestClient, brand: Brand, server: string, caPem: string): Promise<void> {
  const ns = encodeURIComponent(brand.publicNamespace);
  try {
    await client.expect('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cluster-info', namespace: brand.publicNamespace },
      data: { kubeconfig: clusterInfoKubeconfig(server, caPem) },
    });
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) return;
    throw err;
  }
}
