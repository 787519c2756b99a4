/**
 * The registry contract over the memory backend for representative kinds: a namespaced kind
 * with status (pods), one with its own storage (services allocate addresses), one that counts
 * generations (deployments), a cluster-scoped kind without status (clusterroles), and namespaces
 * (cluster-scoped, status, finalize).
 */
import { deployments } from '../api/apps/deployments.js';
import { namespaces } from '../api/core/namespaces.js';
import { pods } from '../api/core/pods.js';
import { services } from '../api/core/services.js';
import { clusterRoles } from '../api/rbac/clusterroles.js';
import type { Obj } from '../machinery/object.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { registryContract, storeOf } from './contract.js';

const memory = () => new MemoryStore();

registryContract('pods', storeOf(pods, memory), {
  valid: (name) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }),
  status: { phase: 'Running' },
});

registryContract('services', storeOf(services, memory), {
  valid: (name) => ({ metadata: { name }, spec: { ports: [{ port: 80 }], selector: { app: 'x' } } }),
  status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } },
});

registryContract('deployments', storeOf(deployments, memory), {
  valid: (name) => ({
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: 'x' } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    },
  }),
  changeSpec: (obj) => {
    (obj.spec as Record<string, unknown>).minReadySeconds = 5;
  },
  status: { observedGeneration: 1, replicas: 0 },
});

registryContract('clusterroles', storeOf(clusterRoles, memory), {
  valid: (name) => ({ metadata: { name }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }),
});

registryContract('namespaces', storeOf(namespaces, memory), {
  valid: (name) => ({ metadata: { name } }),
  status: {
    phase: 'Active',
    conditions: [{ type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'none', lastTransitionTime: '2024-01-01T00:00:00Z' }],
  },
  finalize: (stored: Obj) => ({ ...structuredClone(stored), spec: { finalizers: [] } }),
});
