/**
 * Objects every cluster has from the first start: the system namespaces (upstream's
 * bootstrap-controller) and the system priority classes (scheduling's post-start hook).
 */
import type { Registry } from './registry.js';
import type { RequestContext } from './context.js';
import { StatusError } from '../machinery/status.js';
import type { Obj } from '../machinery/object.js';

const SYSTEM_USER = { name: 'system:apiserver', groups: ['system:masters'] };

/** The context of the server's own start-up writes: the API server as a master. */
export function systemContext(registry: Registry): RequestContext {
  return { user: SYSTEM_USER, brand: registry.brand, now: new Date() };
}

async function ensure(registry: Registry, group: string, resource: string, obj: Obj): Promise<void> {
  const store = registry.byResource(group, resource);
  if (!store) throw new Error(`${resource} not served`);
  const ctx = systemContext(registry);
  // Read first, as upstream's bootstrap controller does: a store over its quota refuses every
  // create, even of a name that exists, and must not keep the server from starting.
  const name = (obj.metadata as { name: string }).name;
  const exists = await Promise.resolve(store.readEntry('', name, { kind: 'latest' })).then(
    () => true,
    (e: unknown) => {
      if (e instanceof StatusError && e.reason === 'NotFound') return false;
      throw e;
    },
  );
  if (exists) return;
  try {
    await store.create(ctx, '', { apiVersion: store.info.apiVersion, kind: store.info.kind, ...obj }, { dryRun: false });
  } catch (e) {
    if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
  }
}

/** Creates `default`, `<word>-system`, `<word>-public` and `<word>-node-lease` if missing. */
export async function bootstrapNamespaces(registry: Registry): Promise<void> {
  const b = registry.brand;
  for (const name of ['default', b.systemNamespace, b.publicNamespace, b.nodeLeaseNamespace]) {
    await ensure(registry, '', 'namespaces', { metadata: { name } });
  }
}

/** Creates `system-node-critical` and `system-cluster-critical` if missing. */
export async function bootstrapPriorityClasses(registry: Registry): Promise<void> {
  const group = registry.brand.group('scheduling', true);
  await ensure(registry, group, 'priorityclasses', {
    metadata: { name: 'system-node-critical' },
    value: 2000001000,
    globalDefault: false,
    description: 'Used for system critical pods that must not be moved from their current node.',
  });
  await ensure(registry, group, 'priorityclasses', {
    metadata: { name: 'system-cluster-critical' },
    value: 2000000000,
    globalDefault: false,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  });
}
