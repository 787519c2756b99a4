/**
 * Which API servers are alive, for the `kubernetes` Endpoints: upstream's endpoint reconcilers.
 * With several replicas on one etcd, each server renews a key `/registry/masterleases/<ip>` that
 * etcd expires after the TTL (upstream's `lease` reconciler, the default), so the Endpoints list
 * exactly the servers that renewed recently. A store without expiring keys has one server: the
 * Endpoints list it alone (upstream's `master-count` reconciler with a count of 1).
 */
import type { Store } from '../storage/interface.js';
import { StoreError } from '../storage/interface.js';
import { STORAGE_ROOT } from './resource-info.js';

/** Upstream's masterEndpointReconcileTTL: a lease not renewed for this long is gone. */
export const MASTER_LEASE_TTL_MS = 15_000;

const PREFIX = `${STORAGE_ROOT}/masterleases/`;

export interface EndpointAddressSource {
  /** Says this server is alive and returns the addresses of every live server, sorted. */
  renew(): Promise<string[]>;
  /** Says this server is going away; returns the addresses of the others, sorted. */
  release(): Promise<string[]>;
  /** Upstream's --endpoint-reconciler-type this source is. */
  readonly type: 'lease' | 'master-count';
}

/** The lease reconciler when the store expires keys (etcd), the master-count one otherwise. */
export function endpointAddressSource(store: Store, ip: string): EndpointAddressSource {
  if (!store.expireUnder) {
    return { type: 'master-count', renew: async () => [ip], release: async () => [] };
  }
  store.expireUnder(PREFIX, MASTER_LEASE_TTL_MS);
  const key = `${PREFIX}${ip}`;
  // Upstream stores an Endpoints object naming the server; only the key's presence matters.
  const value = new TextEncoder().encode(JSON.stringify({ kind: 'Endpoints', apiVersion: 'v1', metadata: { name: ip }, subsets: [{ addresses: [{ ip }] }] }));
  const live = async (): Promise<string[]> => {
    const res = await store.range(PREFIX);
    return res.items.map((kv) => kv.key.slice(PREFIX.length)).sort();
  };
  return {
    type: 'lease',
    async renew() {
      // Every put re-arms the TTL, so an update of the unchanged value renews the lease.
      const cur = await store.get(key);
      try {
        if (cur) await store.update(key, value, cur.modRevision);
        else await store.create(key, value);
      } catch (e) {
        // Another server with this address renewed it in between: renewed all the same.
        if (!(e instanceof StoreError && (e.code === 'Conflict' || e.code === 'KeyExists'))) throw e;
      }
      return live();
    },
    async release() {
      await store.delete(key).catch((e: unknown) => {
        if (!(e instanceof StoreError && e.code === 'KeyNotFound')) throw e;
      });
      return live();
    },
  };
}
