/**
 * The `cluster-info` ConfigMap of the public namespace, as kubeadm creates it
 * (`phases/bootstraptoken/clusterinfo`): a kubeconfig naming only the cluster (server and CA),
 * which the bootstrap signer signs per bootstrap token so that a joining node can trust it.
 * Created at start when absent; an existing one (the operator's) is left as it is. As kubeadm,
 * a Role and RoleBinding let `system:anonymous` read it: a joining node has no credentials yet.
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

/** kubeadm's name for the Role and RoleBinding (`kubeadm:bootstrap-signer-clusterinfo`). */
const READER = 'kubeadm:bootstrap-signer-clusterinfo';

/** Creates `cluster-info` and its anonymous reader unless they exist; throws on other failures. */
export async function ensureClusterInfo(client: RestClient, brand: Brand, server: string, caPem: string): Promise<void> {
  const ns = brand.publicNamespace;
  const rbac = `/apis/${brand.group('rbac.authorization', true)}/v1/namespaces/${encodeURIComponent(ns)}`;
  const apiVersion = `${brand.group('rbac.authorization', true)}/v1`;
  await createIfAbsent(client, `/api/v1/namespaces/${encodeURIComponent(ns)}/configmaps`, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cluster-info', namespace: ns },
    data: { kubeconfig: clusterInfoKubeconfig(server, caPem) },
  });
  await createIfAbsent(client, `${rbac}/roles`, {
    apiVersion,
    kind: 'Role',
    metadata: { name: READER, namespace: ns },
    rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'], verbs: ['get'] }],
  });
  await createIfAbsent(client, `${rbac}/rolebindings`, {
    apiVersion,
    kind: 'RoleBinding',
    metadata: { name: READER, namespace: ns },
    roleRef: { apiGroup: brand.group('rbac.authorization', true), kind: 'Role', name: READER },
    subjects: [{ kind: 'User', name: 'system:anonymous' }],
  });
}

async function createIfAbsent(client: RestClient, collection: string, obj: unknown): Promise<void> {
  try {
    await client.expect('POST', collection, obj);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) return;
    throw err;
  }
}
