/**
 * Owners known not to exist (upstream's absentOwnerCache, an LRU of 500): a dependent naming
 * one is garbage without another lookup, which is what makes collecting the many dependents of
 * one deleted owner cost one request each.
 */
import type { Identity, OwnerReference } from './graph.js';

const CAPACITY = 500;

export function absentKey(ref: Pick<OwnerReference, 'apiVersion' | 'kind' | 'name' | 'uid'>, namespace: string): string {
  return JSON.stringify([ref.apiVersion, ref.kind, ref.name, ref.uid, namespace]);
}

export class AbsentOwnerCache {
  private readonly entries = new Map<string, true>();

  add(identity: Identity): void {
    const key = absentKey(identity, identity.namespace);
    this.entries.delete(key);
    this.entries.set(key, true);
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value as string);
  }

  has(ref: OwnerReference, namespace: string): boolean {
    const key = absentKey(ref, namespace);
    if (!this.entries.has(key)) return false;
    // Refresh its place, as an LRU read does.
    this.entries.delete(key);
    this.entries.set(key, true);
    return true;
  }
}
