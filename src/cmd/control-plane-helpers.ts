/**
 * What the embedded control plane offers a test suite beyond its address: ready-made clients
 * (`kubeConfig()`, `request()`) and isolation (`createNamespace()`, `reset()`).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Registry } from '../registry/registry.js';
import { STORAGE_ROOT } from '../registry/resource-info.js';
import type { Store } from '../storage/interface.js';
import { restoreSnapshot, type StoreSnapshot, takeSnapshot } from '../storage/snapshot.js';
import type { ControlPlane } from './control-plane-types.js';
import { type AdminTls, rawRequester } from './raw-request.js';
import { registryCaughtUp } from './store-rewrite.js';
import { createTestNamespace } from './test-namespaces.js';

export interface HelperDeps {
  admin: AdminTls;
  kubeconfig: string;
  store: Store;
  registry: Registry;
  namespaceController: boolean;
}

export type Helpers = Pick<ControlPlane, 'kubeConfig' | 'request' | 'createNamespace' | 'reset'> & { close(): void };

/**
 * Builds the helpers and records the start-up state `reset()` returns to (every key under the
 * registry's root at the current revision: in memory, a few hundred bootstrap objects). Taken
 * after the controllers' first pass (see controllers-first-pass.ts): a snapshot before it would
 * make every reset delete the default ServiceAccounts, and tests race the controllers recreating them.
 */
export async function controlPlaneHelpers(deps: HelperDeps): Promise<Helpers> {
  const raw = rawRequester(deps.admin);
  const snapshot: StoreSnapshot = await takeSnapshot(deps.store, `${STORAGE_ROOT}/`);
  let resetting: Promise<{ deleted: number; restored: number }> | undefined;
  return {
    request: raw.request,
    async kubeConfig(): Promise<KubeConfig> {
      const k8s = await import('@kubernetes/client-node').catch((e: Error) => {
        throw new Error(`kubeConfig() needs @kubernetes/client-node: npm install --save-dev @kubernetes/client-node (${e.message.split('\n')[0]})`);
      });
      const kc = new k8s.KubeConfig();
      kc.loadFromString(deps.kubeconfig);
      return kc;
    },
    createNamespace: (prefix?: string) => createTestNamespace({ ...deps, request: raw.request }, prefix),
    reset() {
      // Two resets at once would race each other's writes: the second waits for the first.
      const run = async () => {
        const result = await restoreSnapshot(deps.store, snapshot);
        await registryCaughtUp(deps.registry, result.revision);
        return { deleted: result.deleted, restored: result.restored };
      };
      const next = (resetting ?? Promise.resolve()).then(run, run);
      resetting = next;
      return next;
    },
    close: raw.close,
  };
}
