/**
 * NamespaceLifecycle, as upstream: no new content in a missing or terminating namespace,
 * and the system namespaces may not be deleted. Upstream's plugin is a mutating one, first of
 * its kind, so a create in a missing namespace is refused before any mutating webhook is
 * called; it runs again with the validating plugins, which is where deletes (and writes that
 * take no mutating pass) meet it.
 */
import type { Registry } from '../registry/registry.js';
import { forbidden, notFound, StatusError } from '../machinery/status.js';
import { metaOf } from '../machinery/object.js';
import type { ReadPlan } from '../registry/read-options.js';

import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './admission.js';

const LATEST: ReadPlan = { kind: 'latest' };

/** The plugin over the registry's namespaces. */
export function namespaceLifecycle(registry: Registry): ValidatingPlugin & MutatingPlugin {
  const namespaces = registry.byResource('', 'namespaces');
  if (!namespaces) throw new Error('namespaces are not served');
  const brand = registry.brand;
  const immortal = new Set(['default', brand.systemNamespace, brand.publicNamespace]);
  const check = (a: AdmissionAttributes): void | Promise<void> => {
    const isNamespace = a.resource.group === '' && a.resource.plural === 'namespaces';
    if (isNamespace) {
      if (a.operation === 'DELETE' && immortal.has(a.name)) {
        throw forbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted');
      }
      return;
    }
    if (a.operation !== 'CREATE' || !a.resource.namespaced) return;
    // As upstream's lister first: the watch cache answers for a namespace it has (with etcd a
    // latest read is a round trip per create), without a promise on this path every create
    // takes; only one it lacks is looked up in the store.
    const cached = namespaces.cachedEntry('', a.namespace);
    if (cached !== undefined) return refuseTerminating(a, cached);
    return Promise.resolve(namespaces.readEntry('', a.namespace, LATEST))
      .catch((err: unknown) => {
        // Only a namespace that is not there is NotFound; a store that cannot answer (etcd
        // down) is its own error, as upstream's plugin passes a failed lookup on as internal.
        if (err instanceof StatusError && err.code !== 404) throw err;
        throw notFound({ group: '', resource: 'namespaces' }, a.namespace);
      })
      .then((ns) => refuseTerminating(a, ns));
  };
  return { name: 'NamespaceLifecycle', admit: check, validate: check };
}

/** Refuses new content in a namespace being deleted (its phase is Terminating with its deletionTimestamp: registry/finalization.ts). */
function refuseTerminating(a: AdmissionAttributes, ns: { readonly fields: Record<string, string> }): void {
  if (ns.fields['status.phase'] !== 'Terminating') return;
  const why = `unable to create new content in namespace ${a.namespace} because it is being terminated`;
  throw forbidden(a.resource.groupResource, metaOf(a.object).name ?? '', why, [
    { reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' },
  ]);
}
