import { storeContract } from '../contract.js';
import { MemoryStore } from './memory-store.js';

storeContract('memory', async () => {
  const store = new MemoryStore();
  return { store, cleanup: () => store.close() };
});

storeContract('memory (tiny watch pages)', async () => {
  const store = new MemoryStore({ watch: { pageSize: 2, scanWindow: 3 } });
  return { store, cleanup: () => store.close() };
});
