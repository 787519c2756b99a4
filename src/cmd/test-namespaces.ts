/**
 * `cp.createNamespace()`: a namespace of its own for one test, gone with everything in it on
 * dispose, so tests sharing a control plane never see each other's objects.
 */
import type { Registry } from '../registry/registry.js';
import { listPrefix, objectKey } from '../registry/resource-info.js';
import { registryCaughtUp } from './store-rewrite.js';
import type { Store } from '../storage/interface.js';
import type { RawRequestOptions, RawResponse, TestNamespace } from './control-plane-types.js';

type Request = (method: string, path: string, options?: RawRequestOptions) => Promise<RawResponse>;

export interface NamespaceDeps {
  request: Request;
  store: Store;
  registry: Registry;
  /** The namespace controller runs: it empties and removes deleted namespaces. */
  namespaceController: boolean;
}

/** How long dispose waits for the namespace controller before removing what is left itself. */
const CONTROLLER_WAIT_MS = 10_000;
const POLL_MS = 10;

/** Creates a namespace named `<prefix><random>` (the server picks the suffix, as for generateName). */
export async function createTestNamespace(deps: NamespaceDeps, prefix = 'test-'): Promise<TestNamespace> {
  const res = await deps.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { generateName: prefix } } });
  if (res.status !== 201) throw new Error(`cannot create a test namespace: HTTP ${res.status}: ${res.body}`);
  const name = res.json<{ metadata: { name: string } }>().metadata.name;
  let disposing: Promise<void> | undefined;
  const dispose = () => {
    disposing ??= deleteNamespace(deps, name);
    return disposing;
  };
  return { name, dispose, [Symbol.asyncDispose]: dispose };
}

/**
 * Deletes through the API (finalizers and the namespace controller do what they do on a real
 * cluster), then waits until the namespace is gone. Without the namespace controller, or when
 * it has not finished in time (an object whose finalizer nobody removes), what is left is
 * removed from the store: a test harness must not leave namespaces behind, as envtest does.
 */
async function deleteNamespace(deps: NamespaceDeps, name: string): Promise<void> {
  const res = await deps.request('DELETE', `/api/v1/namespaces/${name}`);
  if (res.status === 404) return;
  if (res.status !== 200 && res.status !== 202) throw new Error(`cannot delete test namespace ${name}: HTTP ${res.status}: ${res.body}`);
  if (deps.namespaceController) {
    const deadline = Date.now() + CONTROLLER_WAIT_MS;
    while (Date.now() < deadline) {
      if ((await deps.request('GET', `/api/v1/namespaces/${name}`)).status === 404) return;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  await purgeNamespace(deps, name);
}

/** Removes every stored object in the namespace, then the namespace, as plain store deletes. */
async function purgeNamespace(deps: NamespaceDeps, name: string): Promise<void> {
  for (const info of deps.registry.resources) {
    if (!info.namespaced) continue;
    const { items } = await deps.store.range(listPrefix(info, name));
    for (const kv of items) await deps.store.delete(kv.key).catch(() => {});
  }
  const nsInfo = deps.registry.resources.find((r) => r.group === '' && r.plural === 'namespaces');
  if (nsInfo) await deps.store.delete(objectKey(nsInfo, '', name)).catch(() => {});
  await registryCaughtUp(deps.registry, deps.store.currentRevision());
}
