/**
 * Which store serves a resource: the generic store, or a type's own storage built on it where
 * upstream's has one (Services allocate cluster IPs and node ports in their writes; RBAC objects
 * are checked for escalation).
 */
import type { Brand } from '../machinery/brand.js';
import type { CacherOptions } from '../storage/cacher/cacher.js';
import type { Store } from '../storage/interface.js';
import { GenericStore } from './generic-store.js';
import type { ResourceInfo } from './resource-info.js';
import { type ServiceRanges, ServiceStore } from './service/service-store.js';
import { RBAC_RESOURCES, RbacStore, type RbacWriteGuard } from './rbac-store.js';
import { rbacGroup } from '../api/rbac/rbac-validation.js';

/** What type-specific storages are configured with (start-up flags). */
export interface StorageOptions {
  services?: ServiceRanges;
  /** The escalation check of RBAC writes; absent: RBAC objects are written unchecked. */
  rbacWrites?: RbacWriteGuard;
}

/** The store of one resolved resource; every one is a GenericStore to the rest of the server. */
export function storeFor(info: ResourceInfo, store: Store, brand: Brand, cacheOptions: CacherOptions, options: StorageOptions): GenericStore {
  if (info.group === '' && info.plural === 'services') return new ServiceStore(info, store, brand, cacheOptions, options.services);
  if (options.rbacWrites && info.group === rbacGroup(brand) && (RBAC_RESOURCES as readonly string[]).includes(info.plural)) {
    return new RbacStore(info, store, brand, cacheOptions, options.rbacWrites);
  }
  return new GenericStore(info, store, brand, cacheOptions);
}
