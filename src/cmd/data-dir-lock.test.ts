import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { LOCK_FILE, lockDataDir } from './data-dir-lock.js';

const root = mkdtempSync(join(tmpdir(), 'orch-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));
const fresh = () => mkdtempSync(join(root, 'd-'));

describe('lockDataDir', () => {
  it('writes this pid to a private lock file and removes it on release', () => {
    const dir = fresh();
    const lock = lockDataDir(dir);
    const path = join(dir, LOCK_FILE);
    assert.equal(readFileSync(path, 'utf8'), `${process.pid}\n`);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    lock.release();
    lock.release();
    assert.equal(existsSync(path), false);
    lockDataDir(dir).release();
  });

  it('refuses a directory this process already holds, and one a live process holds', () => {
    const dir = fresh();
    const lock = lockDataDir(dir);
    assert.throws(() => lockDataDir(dir), /already used by a control plane in this process/);
    lock.release();
    // pid 1 (init) always runs; only when it is our parent would it count as a stale leftover.
    if (process.ppid === 1) return;
    const other = fresh();
    writeFileSync(join(other, LOCK_FILE), '1\n');
    assert.throws(() => lockDataDir(other), /is in use by process 1 .*--data-dir; if no server uses it, delete .*orch\.lock$/);
    assert.equal(readFileSync(join(other, LOCK_FILE), 'utf8'), '1\n', 'a live owner keeps its lock');
  });

  it('takes over a stale lock: a dead pid, garbage, or a pid reused by this very process', () => {
    for (const content of ['2147483646\n', 'garbage', '', `${process.pid}\n`]) {
      const dir = fresh();
      writeFileSync(join(dir, LOCK_FILE), content);
      const lock = lockDataDir(dir);
      assert.equal(readFileSync(join(dir, LOCK_FILE), 'utf8'), `${process.pid}\n`, JSON.stringify(content));
      lock.release();
    }
  });
});
