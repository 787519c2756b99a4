/**
 * orch as a dependency: the packed tarball installs into a fresh TypeScript ESM project, whose
 * test file imports `orch`, type-checks against the shipped declarations (no skipLibCheck) and
 * runs a control plane from the installed package.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { consumerProject } from './consumer-lock.js';

const root = new URL('../../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'orch-package-'));
after(() => rmSync(work, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('the packed tarball installs offline, type-checks in a TypeScript consumer and runs', { timeout: 120_000 }, () => {
  npm(['pack', '--pack-destination', work, '--ignore-scripts'], root);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  assert.ok(tarball, 'npm pack wrote no tarball');
  const app = join(work, 'app');
  const { manifest, lock } = consumerProject(root, join(work, tarball));
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(lock, null, 2));
  // Scripts off: better-sqlite3's native build is not needed by a memory-backed control plane.
  npm(['ci', '--offline', '--ignore-scripts'], app);
  copyFileSync(join(root, 'test', 'package', 'consumer.ts.txt'), join(app, 'consumer.ts'));
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        types: ['node'],
        outDir: 'out',
      },
      files: ['consumer.ts'],
    }),
  );
  const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', '.'], { cwd: app, encoding: 'utf8' });
  } catch (e) {
    assert.fail(`tsc failed on the consumer:\n${(e as { stdout?: string }).stdout}`);
  }
  const out = execFileSync(process.execPath, [join('out', 'consumer.js'), join(work, 'data')], { cwd: app, encoding: 'utf8' });
  const result = JSON.parse(out.trim().split('\n').at(-1) as string);
  assert.deepEqual(result, { status: 200, mode: 'test', port: true, deleted: 0, restored: 0 });
});
