import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { backupTimestamp, RotatingFile } from './rotation.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'audit-rotation-'));
});
after(() => rm(dir, { recursive: true, force: true }));

const MB = 1024 * 1024;
/** A line of n bytes (newline included). */
const line = (ch: string, n: number) => Buffer.from(`${ch.repeat(n - 1)}\n`);

test("lumberjack's backup name: <name>-<UTC 2006-01-02T15-04-05.000><ext>", () => {
  assert.equal(backupTimestamp(Date.UTC(2026, 10, 26, 4, 30, 1, 7)), '2026-11-26T04-30-01.007');
});

test('a write that would pass maxsize rotates first; maxbackup keeps the newest backups', async () => {
  let clock = Date.UTC(2026, 10, 26, 4, 30, 0);
  const path = join(dir, 'audit.log');
  const file = new RotatingFile({ path, maxSizeMB: 1, maxBackups: 2, maxAgeDays: 0, now: () => clock });
  // Each write is 0.4 MB: two fit in a file, the third starts a new one.
  for (const ch of 'abcdefg') {
    await file.write([line(ch, 0.4 * MB)]);
    clock += 1000;
  }
  await file.close();
  // Removal of old backups runs beside the writes: give it its turn.
  await file.removeOldBackups();
  const names = (await readdir(dir)).filter((n) => n.startsWith('audit')).sort();
  // Files held ab, cd, ef, g: the two newest backups (cd, ef) and the current file (g) remain.
  assert.deepEqual(names, ['audit-2026-11-26T04-30-04.000.log', 'audit-2026-11-26T04-30-06.000.log', 'audit.log']);
  assert.equal((await readFile(join(dir, names[0]), 'utf8'))[0], 'c');
  assert.equal((await readFile(join(dir, names[1]), 'utf8'))[0], 'e');
  assert.equal(await readFile(path, 'utf8'), line('g', 0.4 * MB).toString());
});

test('an existing file is appended to until it is full; a single write past maxsize is refused', async () => {
  const path = join(dir, 'other.log');
  await writeFile(path, 'old\n');
  const file = new RotatingFile({ path, maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0 });
  await file.write([Buffer.from('new\n')]);
  await assert.rejects(file.write([Buffer.alloc(MB + 1)]), { message: `write length ${MB + 1} exceeds maximum file size ${MB}` });
  await file.close();
  assert.equal(await readFile(path, 'utf8'), 'old\nnew\n');
});

test('maxage removes backups older than that many days', async () => {
  const sub = await mkdtemp(join(dir, 'age-'));
  const path = join(sub, 'a.log');
  const now = Date.UTC(2026, 10, 26);
  await writeFile(join(sub, `a-${backupTimestamp(now - 3 * 86_400_000)}.log`), 'x');
  await writeFile(join(sub, `a-${backupTimestamp(now - 86_400_000)}.log`), 'y');
  await writeFile(join(sub, 'unrelated.log'), 'z');
  await new RotatingFile({ path, maxSizeMB: 1, maxBackups: 0, maxAgeDays: 2, now: () => now }).removeOldBackups();
  assert.deepEqual((await readdir(sub)).sort(), [`a-${backupTimestamp(now - 86_400_000)}.log`, 'unrelated.log']);
});
