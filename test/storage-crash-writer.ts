/**
 * Child process for storage-crash.test.ts: opens a SqliteStore at argv[2] and writes values of
 * argv[3] bytes (default 1 KiB) as fast as it can with 32 writers in flight, printing each write only after the store acknowledged
 * it (`c <n>` for a create, `u <n>` for an update of that key), until it is killed.
 * stdout to a pipe is synchronous on Linux, so a printed line is an acknowledged write.
 */

import { pathToFileURL } from 'node:url';
import { SqliteStore } from '../src/storage/sqlite/sqlite-store.js';

/** The bytes written for key n in the given version; the test recomputes them to verify. */
export function crashValue(n: number, version: 1 | 2, size = 1024): Uint8Array {
  return new TextEncoder().encode(`value-${n}-v${version}-`.padEnd(size, 'x'));
}

async function main(path: string | undefined, size: number): Promise<void> {
  if (!path) throw new Error('usage: storage-crash-writer <store path> [value bytes]');
  const store = SqliteStore.open(path);
  let next = 0;
  const writer = async () => {
    for (;;) {
      const n = next++;
      const key = `/crash/${n}`;
      const rev = await store.create(key, crashValue(n, 1, size));
      process.stdout.write(`c ${n}\n`);
      if (n % 3 === 0) {
        await store.update(key, crashValue(n, 2, size), rev);
        process.stdout.write(`u ${n}\n`);
      }
    }
  };
  await Promise.all(Array.from({ length: 32 }, writer));
}

// Run only as the child's entry point: the test imports crashValue from this module too.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv[2], Number(process.argv[3] ?? 1024)).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
