/**
 * When the in-process controllers have done their first pass over the start-up namespaces: each
 * has its `default` ServiceAccount and root CA ConfigMap. Before that, creating a pod in
 * `default` can fail on the missing account, and a snapshot of the store would miss them.
 */
import { isControllerEnabled } from '../controllers/controller-table.js';
import { ROOT_CA_CONFIGMAP } from '../machinery/root-ca.js';
import type { Registry } from '../registry/registry.js';
import { listPrefix, objectKey } from '../registry/resource-info.js';
import type { Store } from '../storage/interface.js';
import { storeQuiet } from '../storage/snapshot.js';

const POLL_MS = 5;
/** After the awaited objects, writes that trail them (the aggregated ClusterRoles) have this long to land. */
const TRAILING_QUIET_MS = 100;

/** Resolves once the objects the selected controllers create at start-up exist, or after maxMs. */
export async function controllersFirstPass(store: Store, registry: Registry, selection: readonly string[], maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  const namespaces = registry.byResource('', 'namespaces')?.info;
  if (namespaces === undefined) return;
  const names = (await store.range(listPrefix(namespaces, ''))).items.map((kv) => kv.key.slice(namespaces.keyPrefix.length));
  const expected: string[] = [];
  const add = (controller: string, resource: string, name: string) => {
    const info = registry.byResource('', resource)?.info;
    if (info && isControllerEnabled(controller, selection, false)) for (const ns of names) expected.push(objectKey(info, ns, name));
  };
  add('serviceaccount', 'serviceaccounts', 'default');
  add('root-ca-cert-publisher', 'configmaps', ROOT_CA_CONFIGMAP);
  for (const key of expected) {
    while ((await store.get(key)) === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, POLL_MS));
  }
  await storeQuiet(store, TRAILING_QUIET_MS, Math.max(0, deadline - Date.now()));
}
