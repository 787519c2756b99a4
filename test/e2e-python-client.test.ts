// The official Python client (Debian's python3-kubernetes, under /usr/bin/python3) against orch
// in compat mode (issue 15): a watch it opens with watch=True streams events, errors come back
// as its ApiException with upstream's body, and the scale and eviction subresources and a
// DeleteOptions body work as against upstream.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'test', 'fixtures', 'python', 'client_e2e.py');

describe('Python client', () => {
  let cluster: TestCluster;
  const steps = new Map<string, Record<string, unknown>>();

  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory', kubernetesCompat: true });
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(PYTHON, [SCRIPT, cluster.kubeconfigPath], { timeout: 60_000 }, (err, out, errOut) =>
        err ? reject(new Error(`${err.message}\n${errOut}\n${out}`)) : resolve(out),
      ),
    );
    for (const line of stdout.split('\n').filter((l) => l.startsWith('{'))) {
      const step = JSON.parse(line);
      steps.set(step.step, step);
    }
  });
  after(() => cluster?.close());

  it('watches with watch=True and sees events', () => {
    assert.deepEqual(steps.get('watch')?.events, [
      ['ADDED', 'a'],
      ['MODIFIED', 'a'],
    ]);
  });

  it('gets upstream Status bodies in its ApiException', () => {
    assert.deepEqual(steps.get('not-found'), { step: 'not-found', status: 404, reason: 'NotFound', message: 'configmaps "missing" not found' });
  });

  it('scales a deployment through the scale subresource', () => {
    assert.deepEqual(steps.get('scale'), { step: 'scale', kind: 'Scale', replicas: 3, selector: 'app=web' });
  });

  it('evicts a pod', () => {
    assert.deepEqual(steps.get('evicted'), { step: 'evicted', gone: true });
  });

  it('deletes with a DeleteOptions body', () => {
    assert.deepEqual(steps.get('delete'), { step: 'delete', kind: 'Status' });
  });
});
