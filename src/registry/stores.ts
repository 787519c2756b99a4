/**
 * Which store serves a resource: the generic store, or a type's own storage built on it where
 * upstream's has one (Services allocate cluster IPs and node ports in their writes).
 */
import type { Brand } from '../machinery/brand.js';
import type { CacherOptions } from '../storage/cacher/cacher.js';
import type { Store } from '../storage/interface.js';
import { GenericStore } from './generic-store.js';
import type { ResourceInfo } from './resource-info.js';
import { type ServiceRanges, ServiceStore } from './service/service-store.js';

/** What type-specific storages are configured with (start-up flags). */
export interface StorageOptions {
  services?: ServiceRanges;
}

/** The store of one resolved resource; every one is a GenericStore to the rest of the server. */
export function storeFor(info: ResourceInfo, store: Store, brand: Brand, cacheOptions: CacherOptions, options: StorageOptions): GenericStore {
  if (info.group === '' && info.plural === 'services') return new ServiceStore(info, store, brand, cacheOptions, options.services);
  return new GenericStore(info, store, brand, cacheOptions);
}
