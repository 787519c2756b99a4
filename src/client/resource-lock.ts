/** client-go's resourcelock.New: a lock of `--leader-elect-resource-lock`'s type. */
import type { Brand } from '../machinery/brand.js';
import { AnnotationLock, MultiLock } from './annotation-lock.js';
import { LeaseLock, type ResourceLock } from './lease-lock.js';
import type { RestClient } from './rest-client.js';

export type ResourceLockType = 'leases' | 'endpoints' | 'configmaps' | 'endpointsleases' | 'configmapsleases';

export const RESOURCE_LOCK_TYPES: readonly ResourceLockType[] = ['leases', 'endpoints', 'configmaps', 'endpointsleases', 'configmapsleases'];

/** The lock `type` names, on the object `namespace/name`; identity is the candidate's (MultiLock needs it). */
export function newResourceLock(type: ResourceLockType, client: RestClient, brand: Brand, namespace: string, name: string, identity: string): ResourceLock {
  const lease = () => new LeaseLock({ client, coordinationGroup: brand.group('coordination', true), namespace, name });
  const annotated = (kind: 'Endpoints' | 'ConfigMap') => new AnnotationLock({ client, kind, namespace, name, labelDomain: brand.labelDomain });
  switch (type) {
    case 'leases':
      return lease();
    case 'endpoints':
      return annotated('Endpoints');
    case 'configmaps':
      return annotated('ConfigMap');
    case 'endpointsleases':
      return new MultiLock(annotated('Endpoints'), lease(), identity);
    case 'configmapsleases':
      return new MultiLock(annotated('ConfigMap'), lease(), identity);
  }
}
