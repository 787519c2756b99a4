/** A data directory started in the other mode (branded vs --kubernetes-compat) is refused in one line. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startControlPlane } from '../src/index.js';

test('a store created branded refuses --kubernetes-compat with the fix, and starts again branded', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-brand-'));
  try {
    const opts = { dataDir: dir, securePort: 0, controllers: false } as const;
    await (await startControlPlane(opts)).stop();
    await assert.rejects(startControlPlane({ ...opts, kubernetesCompat: true }), {
      message: `the store in ${dir} was created without --kubernetes-compat: start the same way, or choose another --data-dir for this mode`,
    });
    await (await startControlPlane(opts)).stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
