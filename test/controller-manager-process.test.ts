/**
 * `orch-controller-manager` as its own process against an API server that runs no controllers,
 * under the default Node,RBAC authorization: with --use-service-account-credentials each
 * controller acts as its service account (a controller whose role binding is missing logs
 * Forbidden and retries, and works once the binding is back); two managers with leader election
 * run the controllers once, and the follower takes over when the leader is killed; --help lists
 * the flags; /healthz answers on the secure port.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import https from 'node:https';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eventually, request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { assertOk } from './helpers/invalid.js';
import { csrBody, makeRequest } from './helpers/csr.js';
import { join } from 'node:path';

const BIN = fileURLToPath(new URL('../../bin/orch-controller-manager', import.meta.url));
const RBAC = '/apis/rbac.authorization.orch.io/v1';

interface Manager {
  child: ChildProcess;
  stderr: () => string;
}

function startManager(args: readonly string[]): Manager {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    err += c;
  });
  return { child, stderr: () => err };
}

async function stopManager(m: Manager, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (m.child.exitCode !== null || m.child.signalCode !== null) return;
  const exited = new Promise((r) => m.child.once('exit', r));
  m.child.kill(signal);
  await exited;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function createNamespace(cluster: TestCluster, name: string): Promise<void> {
  assertOk(await request(cluster, 'POST', '/api/v1/namespaces', { body: { metadata: { name } } }), 201);
}

const exists = (cluster: TestCluster, path: string) => async () => (await request(cluster, 'GET', path)).status === 200;

describe('orch-controller-manager as a separate process', () => {
  let cluster: TestCluster;
  const managers: Manager[] = [];
  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory', controllers: false });
  });
  after(async () => {
    await Promise.all(managers.map((m) => stopManager(m)));
    await cluster.close();
  });

  test('--help lists upstream’s flags', () => {
    const r = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    assert.equal(r.status, 0);
    for (const flag of [
      '--kubeconfig',
      '--master',
      '--controllers',
      '--leader-elect ',
      '--leader-elect-lease-duration',
      '--secure-port',
      '--authentication-kubeconfig',
      '--authorization-kubeconfig',
      '--concurrent-namespace-syncs',
      '--concurrent-gc-syncs',
      '--root-ca-file',
      '--service-account-private-key-file',
      '--cluster-signing-cert-file',
      '--cluster-signing-key-file',
      '--use-service-account-credentials',
      '--orch-api-qps',
      '--orch-api-burst',
    ]) {
      assert.ok(r.stdout.includes(flag), `--help lacks ${flag}`);
    }
    assert.match(r.stdout, /--secure-port <int>.*\(default: 10257\)/);
    assert.match(r.stdout, /All controllers: .*csrsigning.*/);
  });

  test('an unknown controller is refused with upstream’s message', () => {
    const r = spawnSync(process.execPath, [BIN, '--kubeconfig', cluster.kubeconfigPath, '--controllers', '*,nosuch'], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /"nosuch" is not in the list of known controllers/);
  });

  test('with service account credentials under RBAC: default ServiceAccount, root CA, pods, namespace deletion; /healthz served', async () => {
    const port = await freePort();
    const m = startManager([
      '--kubeconfig',
      cluster.kubeconfigPath,
      '--use-service-account-credentials',
      '--leader-elect=false',
      '--secure-port',
      String(port),
      '--bind-address',
      '127.0.0.1',
      '--cert-dir',
      `${cluster.dataDir}/cm-certs`,
    ]);
    managers.push(m);
    await createNamespace(cluster, 'sep');
    assert.ok(await eventually(exists(cluster, '/api/v1/namespaces/sep/serviceaccounts/default'), 10_000), `no default ServiceAccount\n${m.stderr()}`);
    assert.ok(await eventually(exists(cluster, '/api/v1/namespaces/sep/configmaps/kube-root-ca.crt'), 5000), `no kube-root-ca.crt\n${m.stderr()}`);
    const p = assertOk(
      await request(cluster, 'POST', '/api/v1/namespaces/sep/pods', {
        body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      }),
      201,
    );
    assert.equal(p.spec.serviceAccountName, 'default');
    // Each controller's own account, made by the manager for its token.
    for (const sa of ['namespace-controller', 'service-account-controller', 'root-ca-cert-publisher', 'clusterrole-aggregation-controller']) {
      assert.equal((await request(cluster, 'GET', `/api/v1/namespaces/orch-system/serviceaccounts/${sa}`)).status, 200, sa);
    }
    assertOk(await request(cluster, 'DELETE', '/api/v1/namespaces/sep'));
    assert.ok(
      await eventually(async () => (await request(cluster, 'GET', '/api/v1/namespaces/sep')).status === 404, 10_000),
      `namespace not finalized\n${m.stderr()}`,
    );
    const health = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => {
            body += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });
    assert.deepEqual(health, { status: 200, body: 'ok' });
    await stopManager(m);
  });

  test('a controller denied by RBAC logs Forbidden and retries until its binding is back', async () => {
    const binding = `${RBAC}/clusterrolebindings/system:controller:service-account-controller`;
    const saved = assertOk(await request(cluster, 'GET', binding));
    assertOk(await request(cluster, 'DELETE', binding));
    const m = startManager([
      '--kubeconfig',
      cluster.kubeconfigPath,
      '--use-service-account-credentials',
      '--leader-elect=false',
      '--secure-port=0',
      '--controllers=serviceaccount',
    ]);
    managers.push(m);
    await createNamespace(cluster, 'denied');
    assert.ok(await eventually(async () => /forbidden/i.test(m.stderr()), 10_000), `no Forbidden logged\n${m.stderr()}`);
    assert.equal((await request(cluster, 'GET', '/api/v1/namespaces/denied/serviceaccounts/default')).status, 404);
    assert.equal(m.child.exitCode, null, 'the manager exited');
    const { resourceVersion: _rv, uid: _uid, ...meta } = saved.metadata;
    assertOk(await request(cluster, 'POST', `${RBAC}/clusterrolebindings`, { body: { ...saved, metadata: meta } }), 201);
    assert.ok(await eventually(exists(cluster, '/api/v1/namespaces/denied/serviceaccounts/default'), 15_000), `no retry succeeded\n${m.stderr()}`);
    await stopManager(m);
  });

  test('certificate and bootstrap-token controllers run as their service accounts: an approved CSR is signed with --cluster-signing-*, an expired bootstrap token is deleted', async () => {
    const pki = join(cluster.dataDir, 'pki');
    const m = startManager([
      '--kubeconfig',
      cluster.kubeconfigPath,
      '--use-service-account-credentials',
      '--leader-elect=false',
      '--secure-port=0',
      '--controllers=csrsigning,csrapproving,tokencleaner',
      '--cluster-signing-cert-file',
      join(pki, 'ca.crt'),
      '--cluster-signing-key-file',
      join(pki, 'ca.key'),
    ]);
    managers.push(m);
    const base = '/apis/certificates.orch.io/v1/certificatesigningrequests';
    const req = await makeRequest('cm-user', ['cm-group']);
    assertOk(
      await request(cluster, 'POST', base, {
        body: csrBody('certificates.orch.io', 'cm-user', req, 'orch.io/kube-apiserver-client', ['digital signature', 'client auth']),
      }),
      201,
    );
    const csr = assertOk(await request(cluster, 'GET', `${base}/cm-user`));
    csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] };
    assertOk(await request(cluster, 'PUT', `${base}/cm-user/approval`, { body: csr }));
    let certificate = '';
    assert.ok(
      await eventually(async () => {
        certificate = (await request(cluster, 'GET', `${base}/cm-user`)).json?.status?.certificate ?? '';
        return certificate !== '';
      }, 10_000),
      `not signed\n${m.stderr()}`,
    );
    const certPem = Buffer.from(certificate, 'base64').toString('utf8');
    const asUser = await request(cluster, 'GET', '/api/v1/namespaces/default/pods', { identity: { certPem, keyPem: req.keyPem } });
    assert.equal(asUser.status, 403, asUser.text);
    assert.match(asUser.json.message, /User "cm-user" cannot list resource "pods"/);

    const secrets = '/api/v1/namespaces/orch-system/secrets';
    const expired = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const data = { 'token-id': 'cmtokn', 'token-secret': 'cmtokencmtokenxx', expiration: expired, 'usage-bootstrap-authentication': 'true' };
    const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
    assertOk(
      await request(cluster, 'POST', secrets, { body: { metadata: { name: 'bootstrap-token-cmtokn' }, type: 'bootstrap.orch.io/token', data: encoded } }),
      201,
    );
    assert.ok(
      await eventually(async () => (await request(cluster, 'GET', `${secrets}/bootstrap-token-cmtokn`)).status === 404, 10_000),
      `not cleaned\n${m.stderr()}`,
    );
    for (const sa of ['certificate-controller', 'token-cleaner']) {
      assert.equal((await request(cluster, 'GET', `/api/v1/namespaces/orch-system/serviceaccounts/${sa}`)).status, 200, sa);
    }
    await stopManager(m);
  });

  test('without --cluster-signing-* the CSR signer is skipped, as upstream', async () => {
    const m = startManager(['--kubeconfig', cluster.kubeconfigPath, '--leader-elect=false', '--secure-port=0', '--controllers=csrsigning', '-v=2']);
    managers.push(m);
    assert.ok(await eventually(async () => /Skipping CSR signer controller because no csr cert\/key was specified/.test(m.stderr()), 10_000), m.stderr());
    assert.equal(m.child.exitCode, null);
    await stopManager(m);
  });

  test('two managers with leader election: one runs the controllers, the other takes over when it is killed', async () => {
    const args = [
      '--kubeconfig',
      cluster.kubeconfigPath,
      '--secure-port=0',
      '--controllers=serviceaccount',
      '--leader-elect-lease-duration=2s',
      '--leader-elect-renew-deadline=1500ms',
      '--leader-elect-retry-period=500ms',
    ];
    const a = startManager(args);
    const b = startManager(args);
    managers.push(a, b);
    const lease = '/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-controller-manager';
    let holder = '';
    assert.ok(
      await eventually(async () => {
        const r = await request(cluster, 'GET', lease);
        holder = r.json?.spec?.holderIdentity ?? '';
        return holder !== '';
      }, 10_000),
      'no leader',
    );
    await createNamespace(cluster, 'le-1');
    assert.ok(await eventually(exists(cluster, '/api/v1/namespaces/le-1/serviceaccounts/default'), 5000));
    const leaderLog = (m: Manager) => m.stderr().includes('became leader');
    assert.equal([a, b].filter(leaderLog).length, 1, 'exactly one manager leads');
    const [leader, follower] = leaderLog(a) ? [a, b] : [b, a];
    await stopManager(leader, 'SIGKILL');
    assert.ok(
      await eventually(async () => {
        const r = await request(cluster, 'GET', lease);
        return (r.json?.spec?.holderIdentity ?? holder) !== holder;
      }, 10_000),
      `the follower did not take the lease\n${follower.stderr()}`,
    );
    await createNamespace(cluster, 'le-2');
    assert.ok(await eventually(exists(cluster, '/api/v1/namespaces/le-2/serviceaccounts/default'), 5000), `follower runs no controllers\n${follower.stderr()}`);
    await stopManager(follower);
  });
});
