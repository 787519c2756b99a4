/**
 * serviceaccounts/<name>/token and tokenreviews: `kubectl create token` (compat mode) gives a
 * token that authenticates as the ServiceAccount and stops working when it is deleted;
 * TokenRequest's validation and binding rules; TokenReview answers from the same authenticators.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { KUBECTL_DIR } from './helpers/kubectl.js';

let cluster: TestCluster;
before(async () => {
  cluster = await startTestCluster({ storageBackend: 'memory', kubernetesCompat: true });
});
after(() => cluster.close());

const SA = '/api/v1/namespaces/default/serviceaccounts';
const bearer = (token: string) => ({ anonymous: true, headers: { authorization: `Bearer ${token}` } });

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      join(KUBECTL_DIR, 'kubectl.1.33'),
      ['--kubeconfig', cluster.kubeconfigPath, '--cache-dir', join(cluster.dataDir, 'cache'), ...args],
      { timeout: 20_000 },
      (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }),
    );
  });
}

test('kubectl create token gives a token of the ServiceAccount, refused once it is deleted', async () => {
  assert.equal((await request(cluster, 'POST', SA, { body: { metadata: { name: 'robot' } } })).status, 201);
  const made = await kubectl(['create', 'token', 'robot', '--duration', '20m']);
  assert.equal(made.code, 0, made.stderr);
  const token = made.stdout.trim();
  const r = await request(cluster, 'GET', '/api/v1/namespaces/default/pods', bearer(token));
  assert.equal(r.status, 403);
  assert.match(r.json.message, /User "system:serviceaccount:default:robot" cannot list resource "pods"/);
  const review = await request(cluster, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
  });
  assert.equal(review.status, 201);
  assert.equal(review.json.status.authenticated, true);
  assert.equal(review.json.status.user.username, 'system:serviceaccount:default:robot');
  assert.deepEqual(review.json.status.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
  assert.equal((await request(cluster, 'DELETE', `${SA}/robot`)).status, 200);
  const again = await kubectl(['create', 'token', 'robot']);
  assert.notEqual(again.code, 0);
  assert.match(again.stderr, /serviceaccounts "robot" not found/);
});

test('TokenRequest: expirationSeconds bounds, default, audiences and binding rules as upstream', async () => {
  assert.equal((await request(cluster, 'POST', SA, { body: { metadata: { name: 'builder' } } })).status, 201);
  const tr = (spec: object) =>
    request(cluster, 'POST', `${SA}/builder/token`, { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec } });
  const short = await tr({ expirationSeconds: 60 });
  assert.equal(short.status, 422);
  assert.equal(
    short.json.message,
    'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
  );
  const ok = await tr({});
  assert.equal(ok.status, 201);
  assert.equal(ok.json.kind, 'TokenRequest');
  assert.equal(ok.json.apiVersion, 'authentication.k8s.io/v1');
  assert.equal(ok.json.spec.expirationSeconds, 3600);
  assert.deepEqual(ok.json.spec.audiences, ['https://kubernetes.default.svc.cluster.local']);
  const expires = Date.parse(ok.json.status.expirationTimestamp);
  assert.ok(Math.abs(expires - Date.now() - 3600_000) < 60_000);
  const other = await tr({ audiences: ['vault'] });
  assert.equal(other.status, 201);
  // A token for another audience does not authenticate to the API.
  assert.equal((await request(cluster, 'GET', '/api/v1/namespaces', bearer(other.json.status.token))).status, 401);
  const wrongKind = await tr({ boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'x' } });
  assert.equal(wrongKind.status, 400);
  assert.equal(wrongKind.json.message, 'cannot bind token to object of type apps/v1, Kind=Deployment');
  const pod = await request(cluster, 'POST', '/api/v1/namespaces/default/pods', {
    body: { metadata: { name: 'web' }, spec: { serviceAccountName: 'default', containers: [{ name: 'c', image: 'nginx' }] } },
  });
  assert.equal(pod.status, 201);
  const otherSa = await tr({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } });
  assert.equal(otherSa.status, 400);
  assert.equal(otherSa.json.message, 'cannot bind token for serviceaccount "builder" to pod running with serviceaccount "default"');
  // `default` is the serviceaccount controller's (the pod above could only be created once it was there).
  assert.equal((await request(cluster, 'GET', `${SA}/default`)).status, 200);
  const staleUid = await request(cluster, 'POST', `${SA}/default/token`, {
    body: {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: 'nope' } },
    },
  });
  assert.equal(staleUid.status, 409);
});

test('TokenReview of a token no method knows is unauthenticated, without an error', async () => {
  const review = (token: string) =>
    request(cluster, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
    });
  const unknown = await review('not-a-token');
  assert.equal(unknown.status, 201);
  assert.equal(unknown.json.status.authenticated, undefined);
  assert.deepEqual(unknown.json.status.user, {});
});
