/**
 * The Store contract on a real etcd: each test gets its own member (an empty keyspace at
 * etcd's first revision), started on free loopback ports and stopped afterwards.
 */
import { storeContract } from '../src/storage/contract.js';
import { EtcdStore } from '../src/storage/etcd/etcd-store.js';
import { startEtcd } from './helpers/etcd.js';

storeContract('etcd', async (limits) => {
  // etcd refuses requests past --max-request-bytes itself; a little headroom above the store's
  // own limit leaves the byte-exact refusal to the store (a Txn carries more than key and value).
  const etcd = await startEtcd({ maxRequestBytes: 2 * 1024 * 1024 });
  const store = await EtcdStore.connect({ ...limits, servers: [etcd.endpoint] });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await etcd.destroy();
    },
  };
});
