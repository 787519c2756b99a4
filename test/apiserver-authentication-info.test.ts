/**
 * The `start-cluster-authentication-info-controller` post-start hook: the ConfigMap
 * `orch-system/extension-apiserver-authentication` holds the client CA and the authenticating
 * proxy's settings as upstream writes them, comes back when deleted or edited, and is what a
 * scheduler given only --authentication-kubeconfig trusts (client certificates and the proxy).
 */
import assert from 'node:assert/strict';
import https from 'node:https';
import net from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureCertificates, type PkiMaterial } from '../src/pki/certificates.js';
import { eventually, request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { assertOk } from './helpers/invalid.js';
import { kubectlFor } from './helpers/kubectl.js';
import { type ServingScheduler, serveScheduler } from './helpers/scheduler-process.js';

const PATH = '/api/v1/namespaces/orch-system/configmaps/extension-apiserver-authentication';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

describe('extension-apiserver-authentication', () => {
  let dir: string;
  let cluster: TestCluster;
  let plain: TestCluster;
  let proxy: PkiMaterial;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-authn-info-'));
    proxy = await ensureCertificates(join(dir, 'proxy-pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
    const requestHeader = {
      clientCaPem: proxy.caCertPem,
      allowedNames: ['admin'],
      usernameHeaders: ['X-Remote-User'],
      groupHeaders: ['X-Remote-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-'],
    };
    [cluster, plain] = await Promise.all([startTestCluster({ storageBackend: 'memory', requestHeader }), startTestCluster({ storageBackend: 'memory' })]);
  });
  after(async () => {
    await Promise.all([cluster?.close(), plain?.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  test('holds the client CA and the request-header settings as upstream writes them (kubectl)', async () => {
    const out = await kubectlFor('1.33', cluster, join(dir, 'kubectl-cache')).ok([
      'get',
      'configmap',
      '-n',
      'orch-system',
      'extension-apiserver-authentication',
      '-o',
      'json',
    ]);
    const data = JSON.parse(out).data;
    assert.deepEqual(Object.keys(data).sort(), [
      'client-ca-file',
      'requestheader-allowed-names',
      'requestheader-client-ca-file',
      'requestheader-extra-headers-prefix',
      'requestheader-group-headers',
      'requestheader-username-headers',
    ]);
    assert.equal(data['client-ca-file'].trim(), cluster.caPem.trim());
    assert.equal(data['requestheader-client-ca-file'].trim(), proxy.caCertPem.trim());
    assert.equal(data['requestheader-allowed-names'], '["admin"]');
    assert.equal(data['requestheader-username-headers'], '["X-Remote-User"]');
    assert.equal(data['requestheader-group-headers'], '["X-Remote-Group"]');
    assert.equal(data['requestheader-extra-headers-prefix'], '["X-Remote-Extra-"]');
    const health = await request(cluster, 'GET', '/readyz?verbose');
    assert.match(health.text, /\[\+\]poststarthook\/start-cluster-authentication-info-controller ok/);
  });

  test("without --requestheader-* flags, kubeadm's front proxy is there: the generated front-proxy CA and its header names", async () => {
    const data = assertOk(await request(plain, 'GET', PATH)).data;
    assert.deepEqual(Object.keys(data).sort(), [
      'client-ca-file',
      'requestheader-allowed-names',
      'requestheader-client-ca-file',
      'requestheader-extra-headers-prefix',
      'requestheader-group-headers',
      'requestheader-username-headers',
    ]);
    assert.equal(data['client-ca-file'].trim(), plain.caPem.trim());
    const frontProxyCa = await readFile(join(plain.dataDir, 'pki', 'front-proxy-ca.crt'), 'utf8');
    assert.equal(data['requestheader-client-ca-file'].trim(), frontProxyCa.trim());
    assert.equal(data['requestheader-allowed-names'], '["front-proxy-client"]');
    assert.equal(data['requestheader-username-headers'], '["X-Remote-User"]');
    assert.equal(data['requestheader-group-headers'], '["X-Remote-Group"]');
    assert.equal(data['requestheader-extra-headers-prefix'], '["X-Remote-Extra-"]');
  });

  test('deleted or edited, it is written again; what a user added to the lists is kept, as upstream combines', async () => {
    const first = assertOk(await request(plain, 'GET', PATH)).metadata.uid;
    assertOk(await request(plain, 'DELETE', PATH));
    assert.ok(
      await eventually(async () => {
        const r = await request(plain, 'GET', PATH);
        return r.status === 200 && r.json.metadata.uid !== first;
      }, 2000),
      'not recreated',
    );
    const cm = assertOk(await request(cluster, 'GET', PATH));
    cm.data['client-ca-file'] = 'tampered';
    cm.data['requestheader-username-headers'] = '["X-Other-User"]';
    assertOk(await request(cluster, 'PUT', PATH, { body: cm }));
    assert.ok(
      await eventually(async () => {
        const data = (await request(cluster, 'GET', PATH)).json.data;
        return data['client-ca-file'].trim() === cluster.caPem.trim() && data['requestheader-username-headers'] === '["X-Other-User","X-Remote-User"]';
      }, 2000),
      'not restored',
    );
  });

  describe('a scheduler given only --authentication-kubeconfig', () => {
    let scheduler: ServingScheduler;
    before(async () => {
      scheduler = await serveScheduler([
        '--bind-address=127.0.0.1',
        `--secure-port=${await freePort()}`,
        '--port=0',
        `--cert-dir=${join(dir, 'certs')}`,
        `--kubeconfig=${cluster.kubeconfigPath}`,
        `--authentication-kubeconfig=${cluster.kubeconfigPath}`,
        '--leader-elect=false',
      ]);
    });
    after(async () => {
      await scheduler?.stop();
    });
    const metrics = (cert: { cert: string; key: string } | undefined, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        https
          .get({ host: '127.0.0.1', port: scheduler.securePort, path: '/metrics', rejectUnauthorized: false, ...(cert ?? {}), headers }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on('error', reject);
      });

    test('trusts the ConfigMap’s client CA and authenticating proxy', async () => {
      // system:masters is always allowed: 200 means the certificate authenticated.
      assert.equal(await metrics({ cert: cluster.adminCertPem, key: cluster.adminKeyPem }), 200);
      assert.equal(await metrics({ cert: proxy.adminCertPem, key: proxy.adminKeyPem }, { 'X-Remote-User': 'alice', 'X-Remote-Group': 'system:masters' }), 200);
      assert.equal(await metrics(undefined), 403);
    });
  });
});
