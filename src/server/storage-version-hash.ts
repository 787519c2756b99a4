/**
 * The storageVersionHash of legacy discovery (upstream's discovery.StorageVersionHash): the
 * first 8 bytes of sha256(`<group>/<version>/<kind>`) of the version a resource is stored in,
 * base64. Clients (the storage version migrator, garbage collector caches) compare it to notice
 * that a resource's storage version changed; views sharing storage (events.k8s.io events,
 * extensions ingresses) report the hash of what they share.
 */
import { createHash } from 'node:crypto';

export function storageVersionHash(group: string, version: string, kind: string): string {
  if (kind === '') return '';
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}
