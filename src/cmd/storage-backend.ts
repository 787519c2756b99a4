/**
 * The configured store, its compactor and its health check: SQLite or memory in-process, or
 * etcd (`--storage-backend=etcd3`) shared by every replica, with upstream's `etcd` check.
 */
import { join } from 'node:path';
import { startCompactor } from '../storage/compactor.js';
import { STORAGE_ROOT } from '../registry/resource-info.js';
import type { Store } from '../storage/interface.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import type { HealthCheck } from '../server/health.js';
import type { ControlPlaneOptions } from './control-plane-types.js';

const FIVE_MINUTES = 5 * 60 * 1000;

/** upstream's --etcd-healthcheck-timeout default. */
export const DEFAULT_ETCD_HEALTHCHECK_TIMEOUT_MS = 2000;

export interface StorageBackend {
  store: Store;
  /** The store's check for /livez, /readyz and /healthz; undefined: the API server's default. */
  healthCheck?: HealthCheck;
  /** Stops the compactor (resolves after a running compaction). */
  stopCompactor(): Promise<void>;
}

/** Opens the configured store (under dataDir for SQLite) and starts its compaction. */
export async function openStorage(opts: ControlPlaneOptions, dataDir: string): Promise<StorageBackend> {
  const limits = { quotaBackendBytes: opts.quotaBackendBytes };
  const intervalMs = opts.compactionIntervalMs ?? FIVE_MINUTES;
  if (opts.storageBackend === 'etcd3') {
    const etcd = opts.etcd;
    if (!etcd || etcd.servers.length === 0) throw new Error('--etcd-servers must be specified with --storage-backend=etcd3');
    // Loaded only for etcd: a SQLite or memory store never pays for the etcd client's modules.
    const [{ EtcdStore }, { startEtcdCompactor }] = await Promise.all([import('../storage/etcd/etcd-store.js'), import('../storage/etcd/compactor.js')]);
    const store = await EtcdStore.connect({ ...limits, ...etcd, keyRoot: STORAGE_ROOT }).catch((err: Error) => {
      throw new Error(`cannot reach etcd at ${etcd.servers.join(',')} (${err.message}): start etcd or fix --etcd-servers`);
    });
    const timeoutMs = etcd.healthcheckTimeoutMs ?? DEFAULT_ETCD_HEALTHCHECK_TIMEOUT_MS;
    return {
      store,
      healthCheck: { name: 'etcd', check: () => store.ping(timeoutMs) },
      stopCompactor: startEtcdCompactor(store, { intervalMs }),
    };
  }
  const store = opts.storageBackend === 'memory' ? new MemoryStore(limits) : SqliteStore.open(join(dataDir, 'state.db'), limits);
  return { store, stopCompactor: startCompactor(store, { intervalMs }) };
}
