/** `orch kubeconfig`: a kubeconfig for any user and groups that kubectl uses as that user. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';
import { KUBECTL_DIR } from './helpers/kubectl.js';

const ORCH = new URL('../src/cmd/orch.js', import.meta.url).pathname;

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 20_000 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

let cluster: TestCluster;
before(async () => {
  cluster = await startTestCluster({ storageBackend: 'memory' });
});
after(() => cluster.close());

test('the printed kubeconfig authenticates as the user in the groups', async () => {
  const made = await run(process.execPath, [
    ORCH,
    'kubeconfig',
    '--user',
    'jane',
    '--group',
    'dev',
    '--group',
    'system:masters',
    '--data-dir',
    cluster.dataDir,
  ]);
  assert.equal(made.code, 0, made.stderr);
  const path = join(cluster.dataDir, 'jane.kubeconfig');
  await writeFile(path, made.stdout, { mode: 0o600 });
  const got = await run(join(KUBECTL_DIR, 'kubectl.1.33'), [
    '--kubeconfig',
    path,
    '--cache-dir',
    join(cluster.dataDir, 'cache'),
    'get',
    'ns',
    'default',
    '-o',
    'name',
  ]);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(got.stdout.trim(), 'namespace/default');
  const plain = await run(process.execPath, [ORCH, 'kubeconfig', '--user', 'bob', '--data-dir', cluster.dataDir]);
  await writeFile(path, plain.stdout, { mode: 0o600 });
  const denied = await run(join(KUBECTL_DIR, 'kubectl.1.33'), ['--kubeconfig', path, 'get', '--raw', '/api/v1/namespaces']);
  assert.notEqual(denied.code, 0);
  assert.match(denied.stderr, /User "bob" cannot list resource "namespaces"/);
});

test('without a CA in the data dir it says so in one line and fails', async () => {
  const r = await run(process.execPath, [ORCH, 'kubeconfig', '--user', 'x', '--data-dir', join(cluster.dataDir, 'missing')]);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(r.stderr, /^orch kubeconfig: .*ca\.crt/);
});
