// Real kubectl binaries (oldest and newest on the machine) against a real orch server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';

const KUBECTL_DIR = '/usr/lib/google-cloud-sdk/bin';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

for (const version of ['1.33', '1.27']) {
  describe(`kubectl ${version}`, () => {
    let cluster: TestCluster;
    let cacheDir: string;
    const kubectl = (...args: string[]): Promise<Run> =>
      new Promise((resolve) => {
        execFile(
          join(KUBECTL_DIR, `kubectl.${version}`),
          ['--kubeconfig', cluster.kubeconfigPath, '--cache-dir', cacheDir, ...args],
          { timeout: 30_000 },
          (err, stdout, stderr) => {
            resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
          },
        );
      });
    const ok = async (...args: string[]): Promise<string> => {
      const r = await kubectl(...args);
      assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
      return r.stdout;
    };

    before(async () => {
      cluster = await startTestCluster();
      cacheDir = await mkdtemp(join(tmpdir(), 'kubectl-cache-'));
    });
    after(async () => {
      await cluster.close();
      await rm(cacheDir, { recursive: true, force: true });
    });

    it('get ns lists the system namespaces', async () => {
      const out = await ok('get', 'ns');
      for (const ns of ['default', 'orch-system', 'orch-public', 'orch-node-lease']) assert.match(out, new RegExp(`^${ns}\\s`, 'm'));
    });

    it('create ns, create configmap --from-literal, get cm -o json, delete', async () => {
      assert.match(await ok('create', 'ns', 'team-a'), /namespace\/team-a created/);
      assert.match(await ok('create', 'configmap', 'settings', '--from-literal=color=blue', '-n', 'team-a'), /configmap\/settings created/);
      const cm = JSON.parse(await ok('get', 'cm', 'settings', '-n', 'team-a', '-o', 'json'));
      assert.equal(cm.kind, 'ConfigMap');
      assert.deepEqual(cm.data, { color: 'blue' });
      assert.equal(cm.metadata.namespace, 'team-a');
      assert.match(await ok('delete', 'cm', 'settings', '-n', 'team-a'), /configmap "settings" deleted/);
      const gone = await kubectl('get', 'cm', 'settings', '-n', 'team-a');
      assert.notEqual(gone.code, 0);
      assert.match(gone.stderr, /NotFound|not found/);
      // Namespace deletion waits for the namespace controller to empty and finalize it.
      assert.match(await ok('delete', 'ns', 'team-a', '--timeout=20s'), /namespace "team-a" deleted/);
      assert.notEqual((await kubectl('get', 'ns', 'team-a')).code, 0);
    });

    it('create -f with --validate=false', async () => {
      const manifest = join(cacheDir, 'cm.json');
      const { writeFile } = await import('node:fs/promises');
      await writeFile(
        manifest,
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-file', namespace: 'default' }, data: { x: '1' } }),
      );
      assert.match(await ok('create', '--validate=false', '-f', manifest), /configmap\/from-file created/);
    });

    it('api-resources lists every type with its short names', async () => {
      const out = await ok('api-resources');
      const rows = out
        .split('\n')
        .slice(1)
        .filter((l) => l.trim() !== '');
      const names = new Map(
        rows.map((r) => {
          const cols = r.trim().split(/\s+/);
          return [cols[0], r];
        }),
      );
      for (const [name, short] of [
        ['configmaps', 'cm'],
        ['namespaces', 'ns'],
        ['pods', 'po'],
        ['deployments', 'deploy'],
        ['customresourcedefinitions', 'crd,crds'],
        ['priorityclasses', 'pc'],
        ['horizontalpodautoscalers', 'hpa'],
        ['cronjobs', 'cj'],
        ['storageclasses', 'sc'],
        ['poddisruptionbudgets', 'pdb'],
        ['networkpolicies', 'netpol'],
        ['leases', ''],
      ]) {
        const row = names.get(name);
        assert.ok(row, `${name} missing from api-resources`);
        if (short) assert.ok(row.includes(` ${short} `), `${name} lacks short name ${short}: ${row}`);
      }
      assert.ok(rows.length >= 55, `only ${rows.length} resources listed`);
    });

    it('get --raw /readyz?verbose', async () => {
      const out = await ok('get', '--raw', '/readyz?verbose');
      assert.match(out, /^\[\+\]ping ok$/m);
      assert.match(out, /^\[\+\]storage ok$/m);
      assert.match(out, /readyz check passed/);
    });
  });
}

describe('kubectl 1.33 against --kubernetes-compat', () => {
  let cluster: TestCluster;
  let cacheDir: string;
  const kubectl = (...args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        join(KUBECTL_DIR, 'kubectl.1.33'),
        ['--kubeconfig', cluster.kubeconfigPath, '--cache-dir', cacheDir, ...args],
        { timeout: 30_000 },
        (err, stdout, stderr) => {
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
        },
      );
    });

  before(async () => {
    cluster = await startTestCluster({ kubernetesCompat: true });
    cacheDir = await mkdtemp(join(tmpdir(), 'kubectl-cache-'));
  });
  after(async () => {
    await cluster.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("shows Kubernetes' own namespaces and groups", async () => {
    const ns = await kubectl('get', 'ns');
    assert.equal(ns.code, 0, ns.stderr);
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) assert.match(ns.stdout, new RegExp(`^${name}\\s`, 'm'));
    const res = await kubectl('api-resources', '-v=6');
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /events\s+ev\s+events\.k8s\.io\/v1\s+true\s+Event/);
    assert.match(res.stdout, /priorityclasses\s+pc\s+scheduling\.k8s\.io\/v1\s+false\s+PriorityClass/);
    assert.doesNotMatch(res.stdout, /orch\.io/);
  });

  it('creates a secret through protobuf and reads it back', async () => {
    const created = await kubectl('create', 'secret', 'generic', 'creds', '--from-literal=user=admin');
    assert.equal(created.code, 0, created.stderr);
    const value = await kubectl('get', 'secret', 'creds', '-o', 'jsonpath={.data.user}');
    assert.equal(Buffer.from(value.stdout, 'base64').toString(), 'admin');
  });
});
