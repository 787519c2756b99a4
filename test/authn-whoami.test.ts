/**
 * SelfSubjectReview (`kubectl auth whoami`): the caller as the server authenticated it, at v1,
 * v1beta1 and (once --runtime-config turns the alpha on) v1alpha1; each kubectl from 1.27 finds
 * the version it asks for; a plain user may ask (system:basic-user), and impersonation answers
 * with the impersonated user, as upstream.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { request, startTestCluster } from './helpers/cluster.js';
import { kubectlWorkspace } from './helpers/kubectl.js';
import { type TestUser, testUser } from './helpers/users.js';

const REVIEW = { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' };

describe('kubectl auth whoami (--kubernetes-compat, Node,RBAC)', () => {
  const ws = kubectlWorkspace({ storageBackend: 'memory', controllers: false, kubernetesCompat: true });
  let jane: TestUser;
  before(async () => {
    jane = await testUser(ws.cluster, 'jane', ['devs', 'qa']);
  });

  for (const version of ['1.27', '1.28', '1.33']) {
    test(`kubectl ${version} prints the admin's name and groups`, async () => {
      const out = await ws.kubectl(version).ok(['auth', 'whoami']);
      assert.match(out, /Username\s+admin/);
      assert.match(out, /Groups\s+\[system:masters system:authenticated\]/);
    });
  }

  test('a plain user may ask, by the basic-user role; -o json is the review', async () => {
    const kubeconfig = await jane.kubeconfig(ws.dir);
    const out = await ws.kubectl('1.33').ok(['--kubeconfig', kubeconfig, 'auth', 'whoami', '-o', 'json']);
    const review = JSON.parse(out);
    assert.equal(review.kind, 'SelfSubjectReview');
    assert.equal(review.apiVersion, 'authentication.k8s.io/v1');
    assert.deepEqual(review.status, { userInfo: { username: 'jane', groups: ['devs', 'qa', 'system:authenticated'] } });
  });

  test('impersonation answers with the impersonated user', async () => {
    const out = await ws.kubectl('1.33').ok(['auth', 'whoami', '--as', 'bob', '--as-group', 'ops']);
    assert.match(out, /Username\s+bob/);
    assert.match(out, /Groups\s+\[ops system:authenticated\]/);
  });

  test('over HTTP: v1 and v1beta1 answer; v1alpha1 is an alpha version, off by default', async () => {
    for (const v of ['v1', 'v1beta1']) {
      const r = await request(ws.cluster, 'POST', `/apis/authentication.k8s.io/${v}/selfsubjectreviews`, {
        body: { ...REVIEW, apiVersion: `authentication.k8s.io/${v}` },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.json, {
        kind: 'SelfSubjectReview',
        apiVersion: `authentication.k8s.io/${v}`,
        metadata: { creationTimestamp: null },
        status: { userInfo: { username: 'admin', groups: ['system:masters', 'system:authenticated'] } },
      });
    }
    const alpha = await request(ws.cluster, 'POST', '/apis/authentication.k8s.io/v1alpha1/selfsubjectreviews', { body: REVIEW });
    assert.equal(alpha.status, 404);
  });
});

test('--runtime-config authentication.k8s.io/v1alpha1=true serves the alpha version', async () => {
  const cluster = await startTestCluster({
    storageBackend: 'memory',
    controllers: false,
    kubernetesCompat: true,
    runtimeConfig: new Map([['authentication.k8s.io/v1alpha1', 'true']]),
  });
  try {
    const r = await request(cluster, 'POST', '/apis/authentication.k8s.io/v1alpha1/selfsubjectreviews', {
      body: { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1alpha1' },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status.userInfo.username, 'admin');
  } finally {
    await cluster.close();
  }
});
