/**
 * When the in-process controllers have done their first pass over the start-up state: each
 * start-up namespace has its `default` ServiceAccount and root CA ConfigMap, and each aggregated
 * ClusterRole holds the rules it aggregates. Before that, creating a pod in `default` can fail
 * on the missing account, and a snapshot of the store would miss what they wrote.
 */
import { aggregatedRules, type ClusterRoleObj, sameRules } from '../controllers/clusterrole-aggregation.js';
import { isControllerEnabled } from '../controllers/controller-table.js';
import { ROOT_CA_CONFIGMAP } from '../machinery/root-ca.js';
import type { Registry } from '../registry/registry.js';
import { listPrefix, objectKey } from '../registry/resource-info.js';
import type { Store } from '../storage/interface.js';
import { storeQuiet } from '../storage/snapshot.js';

const POLL_MS = 5;
/** After the awaited objects, writes that trail them have this long to land. */
const TRAILING_QUIET_MS = 20;

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
  const wait = async (done: () => Promise<boolean>) => {
    while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, POLL_MS));
  };
  for (const key of expected) await wait(async () => (await store.get(key)) !== undefined);
  const clusterRoles = registry.resources.find((r) => r.plural === 'clusterroles');
  if (clusterRoles && isControllerEnabled('clusterrole-aggregation', selection, false)) await wait(() => aggregated(store, clusterRoles.keyPrefix));
  await storeQuiet(store, TRAILING_QUIET_MS, Math.max(0, deadline - Date.now()));
}

/** Every ClusterRole with an aggregationRule holds what it aggregates (as the controller computes it). */
async function aggregated(store: Store, prefix: string): Promise<boolean> {
  const roles = (await store.range(prefix)).items.map((kv) => JSON.parse(Buffer.from(kv.value).toString('utf8')) as ClusterRoleObj);
  return roles.every((role) => {
    if (!role.aggregationRule) return true;
    const want = aggregatedRules(role, roles);
    return want === undefined || sameRules(want, role.rules ?? []);
  });
}
