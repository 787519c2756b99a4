/**
 * `orch migrate`: a SQLite cluster's objects copied into an empty etcd are served the same by
 * a control plane on that etcd (same objects, same list order, resource versions in the same
 * order); a second run refuses the now non-empty target.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { type EtcdProcess, startEtcd } from './helpers/etcd.js';

const ORCH = new URL('../../bin/orch', import.meta.url).pathname;

function orch(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [ORCH, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const PATHS = [
  '/api/v1/namespaces',
  '/api/v1/namespaces/shop/configmaps',
  '/api/v1/namespaces/shop/secrets',
  '/api/v1/namespaces/shop/services',
  '/api/v1/namespaces/shop/serviceaccounts',
  '/apis/apps/v1/namespaces/shop/deployments',
  '/apis/rbac.authorization.k8s.io/v1/clusterroles',
];

describe('orch migrate from SQLite to etcd', () => {
  let etcd: EtcdProcess;
  let scratch: string;
  let sqliteDir: string;
  let onEtcd: TestCluster | undefined;

  before(async () => {
    etcd = await startEtcd();
    scratch = await mkdtemp(join(tmpdir(), 'orch-migrate-'));
    sqliteDir = join(scratch, 'sqlite');
  });
  after(async () => {
    await onEtcd?.close();
    await etcd?.destroy();
    await rm(scratch, { recursive: true, force: true });
  });

  it('copies every object; the etcd cluster serves them identically; a second run refuses', async () => {
    const source = await startTestCluster({ dataDir: sqliteDir, kubernetesCompat: true, controllers: false });
    const before: Record<string, { names: string[]; rvs: number[] }> = {};
    try {
      const post = async (path: string, body: object) => {
        const r = await request(source, 'POST', path, { body });
        assert.equal(r.status, 201, r.text);
      };
      await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
      for (const name of ['zeta', 'alpha', 'mid'])
        await post('/api/v1/namespaces/shop/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } });
      await post('/api/v1/namespaces/shop/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, stringData: { password: 'p' } });
      await post('/api/v1/namespaces/shop/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
      await post('/api/v1/namespaces/shop/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
      await post('/apis/apps/v1/namespaces/shop/deployments', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        },
      });
      // The later write to an older object must stay the newest after the copy.
      const r = await request(source, 'PATCH', '/api/v1/namespaces/shop/configmaps/zeta', {
        body: { data: { k: 'changed' } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      assert.equal(r.status, 200, r.text);
      for (const path of PATHS) {
        const list = await request(source, 'GET', path);
        assert.equal(list.status, 200, list.text);
        before[path] = {
          names: list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name),
          rvs: list.json.items.map((i: { metadata: { resourceVersion: string } }) => Number(i.metadata.resourceVersion)),
        };
      }
    } finally {
      await source.stop();
    }

    const first = await orch(['migrate', '--from', sqliteDir, '--to-etcd', etcd.endpoint]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^copied \d+ keys from .* to etcd at http:\/\/127\.0\.0\.1:\d+ under \/registry\n$/);

    onEtcd = await startTestCluster({
      storageBackend: 'etcd3',
      etcd: { servers: [etcd.endpoint] },
      certDir: join(sqliteDir, 'pki'),
      kubernetesCompat: true,
      controllers: false,
    });
    for (const path of PATHS) {
      const list = await request(onEtcd, 'GET', path);
      assert.equal(list.status, 200, list.text);
      const names = list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name);
      assert.deepEqual(names, before[path].names, path);
      // Resource versions differ but keep their order: compare the ranks of every pair.
      const rvs: number[] = list.json.items.map((i: { metadata: { resourceVersion: string } }) => Number(i.metadata.resourceVersion));
      for (let i = 0; i < rvs.length; i++)
        for (let j = 0; j < rvs.length; j++) assert.equal(rvs[i] < rvs[j], before[path].rvs[i] < before[path].rvs[j], `${path}: ${names[i]} vs ${names[j]}`);
    }
    const zeta = await request(onEtcd, 'GET', '/api/v1/namespaces/shop/configmaps/zeta');
    assert.deepEqual(zeta.json.data, { k: 'changed' });
    const secret = await request(onEtcd, 'GET', '/api/v1/namespaces/shop/secrets/creds');
    assert.equal(Buffer.from(secret.json.data.password, 'base64').toString(), 'p');

    const again = await orch(['migrate', '--from', sqliteDir, '--to-etcd', etcd.endpoint]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^orch migrate: etcd at http:\/\/127\.0\.0\.1:\d+ already holds \d+ keys under \/registry: migrate only into an empty etcd/);
  });
});
