/**
 * A store keeps the names it was bootstrapped with (branded or `--kubernetes-compat`): started
 * the other way, bootstrap would fail deep inside RBAC validation. Caught first, in one line.
 */
import { type Brand, brandFor } from '../machinery/brand.js';
import { storagePrefix } from '../registry/resource-info.js';
import type { Store } from '../storage/interface.js';

/** Rejects when the store holds the other brand's system namespace and not this brand's. */
export async function checkStoreBrand(store: Store, brand: Brand, where: string): Promise<void> {
  const other = brandFor(brand.word !== 'kube');
  const namespaceKey = (name: string) => `${storagePrefix('namespaces')}${name}`;
  if ((await store.get(namespaceKey(brand.systemNamespace))) !== undefined) return;
  if ((await store.get(namespaceKey(other.systemNamespace))) === undefined) return;
  const created = other.word === 'kube' ? 'with --kubernetes-compat' : 'without --kubernetes-compat';
  throw new Error(`the store in ${where} was created ${created}: start the same way, or choose another --data-dir for this mode`);
}
