/**
 * Authentication over real HTTPS: client certificates from orch's CA and from a foreign CA, the
 * static token file (also through kubectl --token), anonymous requests, and the rule that bad
 * credentials are 401 even when anonymous access is on.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';
import { ensureCertificates, issueClientCertificate, pkiPaths } from '../src/pki/certificates.js';
import { KUBECTL_DIR } from './helpers/kubectl.js';

interface Credentials {
  cert?: string;
  key?: string;
  headers?: Record<string, string>;
}

function call(cluster: TestCluster, path: string, creds: Credentials): Promise<{ status: number; json: any }> {
  const url = new URL(cluster.url);
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: url.hostname, port: url.port, path, method: 'GET', ca: cluster.caPem, agent: false, cert: creds.cert, key: creds.key, headers: creds.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const UNAUTHORIZED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

let dir: string;
let cluster: TestCluster;
let anonymousCluster: TestCluster;
let jane: { certPem: string; keyPem: string };
let foreign: { certPem: string; keyPem: string };
let proxyCluster: TestCluster;
let strictProxyCluster: TestCluster;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-authn-'));
  const tokens = join(dir, 'tokens.csv');
  await writeFile(tokens, 'admintoken,token-admin,100,"system:masters"\njanetoken,jane,101,dev\n', { mode: 0o600 });
  cluster = await startTestCluster({ storageBackend: 'memory', tokenAuthFile: tokens, enableBootstrapTokenAuth: true, anonymousAuth: false });
  anonymousCluster = await startTestCluster({ storageBackend: 'memory', tokenAuthFile: tokens, anonymousAuth: true });
  const paths = pkiPaths(join(cluster.dataDir, 'pki'));
  jane = await issueClientCertificate(await readFile(paths.caCert, 'utf8'), await readFile(paths.caKey, 'utf8'), 'jane', ['dev', 'qa']);
  // A certificate from a CA the server does not trust.
  const other = await ensureCertificates(join(dir, 'other-pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
  foreign = { certPem: other.adminCertPem, keyPem: other.adminKeyPem };
  // The foreign CA doubles as the authenticating proxy's CA; its admin certificate (CN=admin) is the proxy.
  const requestHeader = {
    clientCaPem: other.caCertPem,
    allowedNames: [],
    usernameHeaders: ['X-Remote-User'],
    groupHeaders: ['X-Remote-Group'],
    extraHeaderPrefixes: ['X-Remote-Extra-'],
  };
  proxyCluster = await startTestCluster({ storageBackend: 'memory', requestHeader });
  strictProxyCluster = await startTestCluster({ storageBackend: 'memory', requestHeader: { ...requestHeader, allowedNames: ['front-proxy'] } });
});
after(async () => {
  await cluster.close();
  await anonymousCluster.close();
  await proxyCluster.close();
  await strictProxyCluster.close();
  await rm(dir, { recursive: true, force: true });
});

describe('client certificates', () => {
  test('a certificate from orch CA is its CN in its O groups plus system:authenticated', async () => {
    const r = await call(cluster, '/api/v1/namespaces', { cert: jane.certPem, key: jane.keyPem });
    assert.equal(r.status, 403);
    assert.equal(r.json.message, 'namespaces is forbidden: User "jane" cannot list resource "namespaces" in API group "" at the cluster scope');
  });

  test('a certificate that fails verification is 401, never anonymous', async () => {
    for (const c of [cluster, anonymousCluster]) {
      const r = await call(c, '/api/v1/namespaces', { cert: foreign.certPem, key: foreign.keyPem });
      assert.equal(r.status, 401);
      assert.deepEqual(r.json, UNAUTHORIZED);
    }
  });
});

describe('static token file', () => {
  test('a known token is its user; system:masters in the file authorizes', async () => {
    assert.equal((await call(cluster, '/api/v1/namespaces', { headers: { authorization: 'Bearer admintoken' } })).status, 200);
    assert.equal((await call(cluster, '/api/v1/namespaces', { headers: { authorization: 'bearer admintoken' } })).status, 200);
    const r = await call(cluster, '/api/v1/namespaces', { headers: { authorization: 'Bearer janetoken' } });
    assert.equal(r.status, 403);
    assert.match(r.json.message, /User "jane" cannot list/);
  });

  test('an unknown token is 401 with the bare Unauthorized Status, also with anonymous on', async () => {
    for (const c of [cluster, anonymousCluster]) {
      const r = await call(c, '/api/v1/namespaces', { headers: { authorization: 'Bearer nope' } });
      assert.equal(r.status, 401);
      assert.deepEqual(r.json, UNAUTHORIZED);
    }
  });

  test('kubectl --token works', async () => {
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        join(KUBECTL_DIR, 'kubectl.1.33'),
        [
          '--server',
          cluster.url,
          '--certificate-authority',
          pkiPaths(join(cluster.dataDir, 'pki')).caCert,
          '--token',
          'admintoken',
          '--cache-dir',
          join(dir, 'cache'),
          'get',
          'ns',
          '-o',
          'name',
        ],
        { timeout: 20_000 },
        (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)),
      );
    });
    assert.match(out, /namespace\/default/);
  });
});

describe('anonymous', () => {
  test('off: no credentials is 401', async () => {
    assert.deepEqual((await call(cluster, '/api/v1/namespaces', {})).json, UNAUTHORIZED);
  });

  test('on: no credentials (or an empty bearer token) is system:anonymous and authorization decides', async () => {
    for (const headers of [{}, { authorization: 'Bearer  admintoken' }] as Record<string, string>[]) {
      const r = await call(anonymousCluster, '/api/v1/namespaces', { headers });
      assert.equal(r.status, 403);
      assert.equal(r.json.message, 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope');
    }
  });
});

describe('impersonation', () => {
  const admin = () => ({ cert: cluster.adminCertPem, key: cluster.adminKeyPem });

  test('a permitted requester acts as the impersonated user, whom authorization then judges', async () => {
    const asJane = await call(cluster, '/api/v1/namespaces', { ...admin(), headers: { 'impersonate-user': 'jane', 'impersonate-group': 'dev' } });
    assert.equal(asJane.status, 403);
    assert.equal(asJane.json.message, 'namespaces is forbidden: User "jane" cannot list resource "namespaces" in API group "" at the cluster scope');
    const asMaster = await call(cluster, '/api/v1/namespaces', { ...admin(), headers: { 'impersonate-user': 'jane', 'impersonate-group': 'system:masters' } });
    assert.equal(asMaster.status, 200);
  });

  test('each impersonated item needs the impersonate verb: users, serviceaccounts, groups', async () => {
    const asUser = await call(cluster, '/api/v1/namespaces', { cert: jane.certPem, key: jane.keyPem, headers: { 'impersonate-user': 'admin' } });
    assert.equal(asUser.status, 403);
    assert.equal(asUser.json.message, 'users "admin" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
    const asSa = await call(cluster, '/api/v1/namespaces', {
      cert: jane.certPem,
      key: jane.keyPem,
      headers: { 'impersonate-user': 'system:serviceaccount:default:builder' },
    });
    assert.equal(
      asSa.json.message,
      'serviceaccounts "builder" is forbidden: User "jane" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "default"',
    );
  });

  test('a group without a user is an error, as upstream', async () => {
    const r = await call(cluster, '/api/v1/namespaces', { ...admin(), headers: { 'impersonate-group': 'system:masters' } });
    assert.equal(r.status, 500);
  });

  test('kubectl --as and --as-group', async () => {
    const kubectl = (args: string[]) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(
          join(KUBECTL_DIR, 'kubectl.1.33'),
          ['--kubeconfig', cluster.kubeconfigPath, '--cache-dir', join(dir, 'cache2'), ...args],
          { timeout: 20_000 },
          (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: stdout + stderr }),
        );
      });
    // --raw: without RBAC (next issue) jane may not read discovery, which `get ns` needs first.
    const denied = await kubectl(['--as', 'jane', 'get', '--raw', '/api/v1/namespaces']);
    assert.equal(denied.code, 1);
    assert.match(denied.out, /User "jane" cannot list resource "namespaces"/);
    const allowed = await kubectl(['--as', 'jane', '--as-group', 'system:masters', 'get', 'ns', '-o', 'name']);
    assert.equal(allowed.code, 0);
    assert.match(allowed.out, /namespace\/default/);
    const whoami = await kubectl(['--as', 'jane', '--as-group', 'system:masters', 'get', '--raw', '/api/v1/namespaces/default']);
    assert.equal(whoami.code, 0);
  });
});

describe('authenticating proxy (request headers)', () => {
  const proxy = () => ({ cert: foreign.certPem, key: foreign.keyPem });

  test('the proxy names the user and groups in headers', async () => {
    const asMaster = await call(proxyCluster, '/api/v1/namespaces', { ...proxy(), headers: { 'X-Remote-User': 'jane', 'X-Remote-Group': 'system:masters' } });
    assert.equal(asMaster.status, 200);
    const asDev = await call(proxyCluster, '/api/v1/namespaces', { ...proxy(), headers: { 'X-Remote-User': 'jane', 'X-Remote-Group': 'dev' } });
    assert.equal(asDev.status, 403);
    assert.match(asDev.json.message, /User "jane" cannot list/);
  });

  test('headers from anyone but the proxy are ignored', async () => {
    const paths = pkiPaths(join(proxyCluster.dataDir, 'pki'));
    const local = await issueClientCertificate(await readFile(paths.caCert, 'utf8'), await readFile(paths.caKey, 'utf8'), 'jane', []);
    const r = await call(proxyCluster, '/api/v1/namespaces', {
      cert: local.certPem,
      key: local.keyPem,
      headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' },
    });
    assert.equal(r.status, 403);
    assert.match(r.json.message, /User "jane" cannot list/);
  });

  test('a proxy certificate without a user header is not a user; a CN outside the allowed names is 401', async () => {
    assert.equal((await call(proxyCluster, '/api/v1/namespaces', proxy())).status, 401);
    const r = await call(strictProxyCluster, '/api/v1/namespaces', { ...proxy(), headers: { 'X-Remote-User': 'jane', 'X-Remote-Group': 'system:masters' } });
    assert.deepEqual(r.json, UNAUTHORIZED);
  });
});

describe('bootstrap tokens', () => {
  const admin = () => ({ cert: cluster.adminCertPem, key: cluster.adminKeyPem });
  const create = async (id: string, data: Record<string, string>) => {
    const url = new URL(cluster.url);
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `bootstrap-token-${id}` },
      type: 'bootstrap.orch.io/token',
      stringData: { 'token-id': id, ...data },
    });
    const status = await new Promise<number>((resolve, reject) => {
      const req = https.request(
        {
          host: url.hostname,
          port: url.port,
          path: '/api/v1/namespaces/orch-system/secrets',
          method: 'POST',
          ca: cluster.caPem,
          ...admin(),
          agent: false,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(status, 201);
  };

  test('a bootstrap token Secret in orch-system authenticates system:bootstrap:<id>', async () => {
    await create('abcdef', {
      'token-secret': '0123456789abcdef',
      'usage-bootstrap-authentication': 'true',
      'auth-extra-groups': 'system:bootstrappers:worker',
    });
    const r = await call(cluster, '/api/v1/namespaces', { headers: { authorization: 'Bearer abcdef.0123456789abcdef' } });
    assert.equal(r.status, 403);
    assert.match(r.json.message, /User "system:bootstrap:abcdef" cannot list/);
  });

  test('an expired or wrong bootstrap token is 401', async () => {
    await create('expire', { 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', expiration: '2020-01-01T00:00:00Z' });
    assert.deepEqual((await call(cluster, '/api/v1/namespaces', { headers: { authorization: 'Bearer expire.0123456789abcdef' } })).json, UNAUTHORIZED);
    assert.deepEqual((await call(cluster, '/api/v1/namespaces', { headers: { authorization: 'Bearer abcdef.0123456789abcdee' } })).json, UNAUTHORIZED);
  });
});
