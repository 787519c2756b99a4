/**
 * An acknowledged write survives kill -9: a child process writes under load and prints each
 * acknowledged write; we SIGKILL it mid-load, reopen the store and find every one of them.
 * (SIGKILL does not drop the OS page cache, so this proves acks follow commits; surviving
 * power loss additionally rests on the fsyncs of wal-sync.ts and checkpoint.ts.) With 64 KiB
 * values the kill also lands among WAL checkpoints, which empty the WAL while writes wait.
 */

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SqliteStore } from '../src/storage/sqlite/sqlite-store.js';
import { crashValue } from './storage-crash-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-crash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the writer until `acks` writes were acknowledged, kills it with SIGKILL, returns what it acknowledged. */
async function writeThenKill(path: string, acks: number, size: number): Promise<{ created: Set<number>; updated: Set<number> }> {
  const writer = fileURLToPath(new URL('./storage-crash-writer.js', import.meta.url));
  const child = spawn(process.execPath, [writer, path, String(size)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const created = new Set<number>();
  const updated = new Set<number>();
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
  let seen = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    const [kind, n] = line.split(' ');
    (kind === 'c' ? created : updated).add(Number(n));
    if (++seen === acks) child.kill('SIGKILL');
  }
  clearTimeout(timeout);
  assert.equal(await exited, 'SIGKILL', `writer died on its own: ${stderr}`);
  assert.ok(seen >= acks, `only ${seen} acks before the writer stopped: ${stderr}`);
  return { created, updated };
}

for (const [size, acks] of [
  [1024, 300],
  [64 * 1024, 400],
] as const)
  it(`every write acknowledged before kill -9 is there after reopening (${size / 1024} KiB values)`, async (t) => {
    const path = join(dir, `orch-${size}.db`);
    const { created, updated } = await writeThenKill(path, acks, size);
    const store = SqliteStore.open(path);
    try {
      for (const n of created) {
        const kv = await store.get(`/crash/${n}`);
        assert.ok(kv, `acknowledged create of ${n} is missing`);
        const want = crashValue(n, updated.has(n) || kv.modRevision !== kv.createRevision ? 2 : 1, size);
        assert.deepEqual(Buffer.from(kv.value), Buffer.from(want), `value of ${n}`);
      }
      for (const n of updated) assert.ok(created.has(n), `update of ${n} acknowledged before its create`);
      // The store goes on from where the log ends, and history is consistent with it.
      const all = await store.range('/crash/');
      assert.equal(store.currentRevision(), Math.max(...all.items.map((kv) => kv.modRevision)));
      const r = await store.create('/after-crash', new Uint8Array([1]));
      t.diagnostic(`acks: ${created.size} creates, ${updated.size} updates; in store: ${all.items.length} keys, revision ${all.revision}`);
      assert.equal(r, all.revision + 1);
    } finally {
      await store.close();
    }
  });
