/**
 * What the embedded control plane offers a test suite beyond its address: ready-made clients
 * (`kubeConfig()`, `request()`) and isolation (`createNamespace()`, `reset()`).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Registry } from '../registry/registry.js';
import { STORAGE_ROOT } from '../registry/resource-info.js';
import { type Store, StoreError } from '../storage/interface.js';
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
  /** Copy the start-up state now (the memory store) rather than read it from history on reset. */
  eagerSnapshot: boolean;
}

export type Helpers = Pick<ControlPlane, 'kubeConfig' | 'request' | 'createNamespace' | 'reset'> & { close(): void };

/**
 * Builds the helpers and fixes the start-up state `reset()` returns to: every key under the
 * registry's root at the current revision. Taken after the controllers' first pass (see
 * controllers-first-pass.ts): a state before it would make every reset delete the default
 * ServiceAccounts, and tests race the controllers recreating them.
 */
export async function controlPlaneHelpers(deps: HelperDeps): Promise<Helpers> {
  const raw = rawRequester(deps.admin);
  const prefix = `${STORAGE_ROOT}/`;
  // A memory store is small and compacts like any other: its start-up state is copied now. A
  // durable store may be large: only its revision is kept, and its history read on reset.
  const startRevision = deps.store.currentRevision();
  const eager = deps.eagerSnapshot ? await takeSnapshot(deps.store, prefix) : undefined;
  const startState = async (): Promise<StoreSnapshot> =>
    eager ??
    takeSnapshot(deps.store, prefix, startRevision).catch((e: unknown) => {
      if (e instanceof StoreError && e.code === 'Compacted')
        throw new Error(
          `reset() reads the store as of start-up (revision ${startRevision}), and compaction has dropped it: use storageBackend 'memory', or a longer compactionIntervalMs`,
        );
      throw e;
    });
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
        const result = await restoreSnapshot(deps.store, await startState());
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
