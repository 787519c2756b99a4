import { storeContract } from '../contract.js';
import { MemoryStore } from './memory-store.js';

storeContract('memory', async (limits) => {
  const store = new MemoryStore(limits);
  return { store, cleanup: () => store.close() };
});

storeContract('memory (tiny watch pages)', async (limits) => {
  const store = new MemoryStore({ ...limits, watch: { pageSize: 2, scanWindow: 3 } });
  return { store, cleanup: () => store.close() };
});
