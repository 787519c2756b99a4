import { storeContract } from '../contract.js';
import { MemoryStore } from './memory-store.js';

storeContract('memory', async () => {
  const store = new MemoryStore();
  return { store, cleanup: () => store.close() };
});
