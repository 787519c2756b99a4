/**
 * Webhook token authentication against a TokenReview server the test runs on loopback: its
 * answers become users, refusals and an unreachable webhook are 401 (bounded, never 500), and
 * answers are cached.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { ensureCertificates } from '../src/pki/certificates.js';

let dir: string;
let webhook: https.Server;
let cluster: TestCluster;
let unreachable: TestCluster;
const reviews: any[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-webhook-'));
  const pki = await ensureCertificates(join(dir, 'pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
  webhook = https.createServer({ cert: pki.serverCertPem, key: pki.serverKeyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      reviews.push(review);
      const token = review.spec.token;
      const status =
        token === 'good'
          ? { authenticated: true, user: { username: 'hook-user', uid: '42', groups: ['system:masters'], extra: { scopes: ['a'] } } }
          : token === 'refused'
            ? { authenticated: false, error: 'token revoked' }
            : { authenticated: false };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'TokenReview', status }));
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  const port = (webhook.address() as AddressInfo).port;
  const kubeconfig = (server: string) =>
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'hook', cluster: { server, 'certificate-authority-data': Buffer.from(pki.caCertPem).toString('base64') } }],
      users: [{ name: 'apiserver', user: {} }],
      contexts: [{ name: 'hook', context: { cluster: 'hook', user: 'apiserver' } }],
      'current-context': 'hook',
    });
  await writeFile(join(dir, 'hook.kubeconfig'), kubeconfig(`https://localhost:${port}/review`));
  await writeFile(join(dir, 'dead.kubeconfig'), kubeconfig('https://127.0.0.1:1/review'));
  cluster = await startTestCluster({
    storageBackend: 'memory',
    authenticationTokenWebhook: { kubeconfigPath: join(dir, 'hook.kubeconfig'), version: 'v1', cacheTtlMs: 120_000 },
  });
  unreachable = await startTestCluster({
    storageBackend: 'memory',
    authenticationTokenWebhook: { kubeconfigPath: join(dir, 'dead.kubeconfig'), version: 'v1beta1', cacheTtlMs: 120_000 },
  });
});
after(async () => {
  await cluster.close();
  await unreachable.close();
  webhook.close();
  await rm(dir, { recursive: true, force: true });
});

const bearer = (token: string) => ({ anonymous: true, headers: { authorization: `Bearer ${token}` } });

test('an authenticated TokenReview is the user; the review is sent in the configured version', async () => {
  const r = await request(cluster, 'GET', '/api/v1/namespaces', bearer('good'));
  assert.equal(r.status, 200);
  const sent = reviews.find((x) => x.spec.token === 'good');
  assert.equal(sent.apiVersion, 'authentication.orch.io/v1');
  assert.equal(sent.kind, 'TokenReview');
});

test('a refusal with an error, or without, is 401', async () => {
  assert.equal((await request(cluster, 'GET', '/api/v1/namespaces', bearer('refused'))).status, 401);
  assert.equal((await request(cluster, 'GET', '/api/v1/namespaces', bearer('stranger'))).status, 401);
});

test('answers are cached: a repeated token is not sent again', async () => {
  const before = reviews.length;
  await request(cluster, 'GET', '/api/v1/namespaces', bearer('good'));
  await request(cluster, 'GET', '/api/v1/namespaces', bearer('refused'));
  assert.equal(reviews.length, before);
});

test('an unreachable webhook is 401 after bounded retries, and the server stays healthy', async () => {
  const started = Date.now();
  const r = await request(unreachable, 'GET', '/api/v1/namespaces', bearer('good'));
  assert.equal(r.status, 401);
  assert.ok(Date.now() - started < 15_000);
  assert.equal((await request(unreachable, 'GET', '/healthz')).status, 200);
});
