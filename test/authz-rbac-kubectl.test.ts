/**
 * RBAC as kubectl meets it (compat mode, `rbac.authorization.k8s.io`): a user's kubectl is
 * refused with upstream's text, `kubectl auth can-i` (single checks and `--list`) answers from
 * the same rules, and `kubectl create rolebinding` past one's permissions is refused.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { issueClientCertificate, pkiPaths } from '../src/pki/certificates.js';
import { writeKubeconfig } from '../src/pki/kubeconfig.js';
import { eventually, request } from './helpers/cluster.js';
import { kubectlWorkspace } from './helpers/kubectl.js';

const MANIFESTS = `apiVersion: v1
kind: Namespace
metadata: {name: dev}
---
apiVersion: v1
kind: Namespace
metadata: {name: other}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: everything}
rules:
- apiGroups: ['*']
  resources: ['*']
  verbs: ['*']
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: dev-worker, namespace: dev}
rules:
- apiGroups: ['']
  resources: [pods]
  verbs: [get, list, watch]
- apiGroups: [rbac.authorization.k8s.io]
  resources: [rolebindings]
  verbs: [create]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: jane, namespace: dev}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: dev-worker}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: jane}
`;

describe('RBAC through kubectl', () => {
  const ws = kubectlWorkspace({ storageBackend: 'memory', kubernetesCompat: true, authorization: { modes: ['RBAC'] } });
  const kubectl = ws.kubectl('1.31');
  let asJane: string[];

  before(async () => {
    const paths = pkiPaths(join(ws.cluster.dataDir, 'pki'));
    const jane = await issueClientCertificate(await readFile(paths.caCert, 'utf8'), await readFile(paths.caKey, 'utf8'), 'jane', []);
    const kubeconfig = join(ws.dir, 'jane.kubeconfig');
    await writeKubeconfig(kubeconfig, {
      server: ws.cluster.url,
      caPem: ws.cluster.caPem,
      clientCertPem: jane.certPem,
      clientKeyPem: jane.keyPem,
      clusterName: 'orch',
      userName: 'jane',
      contextName: 'jane',
    });
    // The last --kubeconfig wins over the workspace's admin one.
    asJane = ['--kubeconfig', kubeconfig];
    await kubectl.ok(['apply', '-f', await ws.file('rbac.yaml', MANIFESTS)]);
    // The RBAC index follows the watch caches: wait until each RBAC resource's cache has what was applied.
    const G = '/apis/rbac.authorization.k8s.io/v1';
    for (const path of [`${G}/clusterroles/everything`, `${G}/namespaces/dev/roles/dev-worker`, `${G}/namespaces/dev/rolebindings/jane`]) {
      assert.ok(await eventually(async () => (await request(ws.cluster, 'GET', `${path}?resourceVersion=0`)).status === 200), path);
    }
  });

  test('a namespaced user: allowed in its namespace, refused elsewhere with upstream text', async () => {
    const ok = await kubectl.run([...asJane, 'get', 'pods', '-n', 'dev']);
    assert.equal(ok.code, 0, ok.stderr);
    const refused = await kubectl.run([...asJane, 'get', 'pods', '-n', 'other']);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr.trim(),
      'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "other"',
    );
  });

  test('kubectl auth can-i, single checks and --list', async () => {
    assert.equal((await kubectl.run([...asJane, 'auth', 'can-i', 'list', 'pods', '-n', 'dev'])).stdout.trim(), 'yes');
    const no = await kubectl.run([...asJane, 'auth', 'can-i', 'delete', 'pods', '-n', 'dev']);
    assert.deepEqual([no.code, no.stdout.trim()], [1, 'no']);
    assert.equal((await kubectl.run([...asJane, 'auth', 'can-i', 'list', 'pods', '-n', 'other'])).stdout.trim(), 'no');
    const list = await kubectl.ok([...asJane, 'auth', 'can-i', '--list', '-n', 'dev']);
    const rows = list
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s{2,}/));
    // The bootstrap policy's basic-user, discovery and public-info-viewer rules, then the Role's.
    const resources = rows.filter((r) => r.length === 4);
    assert.deepEqual(resources, [
      ['selfsubjectreviews.authentication.k8s.io', '[]', '[]', '[create]'],
      ['selfsubjectaccessreviews.authorization.k8s.io', '[]', '[]', '[create]'],
      ['selfsubjectrulesreviews.authorization.k8s.io', '[]', '[]', '[create]'],
      ['rolebindings.rbac.authorization.k8s.io', '[]', '[]', '[create]'],
      ['pods', '[]', '[]', '[get list watch]'],
    ]);
    const urls = rows.filter((r) => r.length === 3).map((r) => r[0]);
    for (const url of [
      '[/api/*]',
      '[/api]',
      '[/apis/*]',
      '[/apis]',
      '[/healthz]',
      '[/livez]',
      '[/openapi/*]',
      '[/openapi]',
      '[/readyz]',
      '[/version/]',
      '[/version]',
    ]) {
      assert.ok(urls.includes(url), `${url} in ${urls.join(' ')}`);
    }
  });

  test('kubectl create rolebinding past one permissions is refused; within them it works', async () => {
    const refused = await kubectl.run([...asJane, 'create', 'rolebinding', 'grab', '-n', 'dev', '--clusterrole', 'everything', '--user', 'jane']);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr.trim(),
      'error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "grab" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}',
    );
    const ok = await kubectl.run([...asJane, 'create', 'rolebinding', 'share', '-n', 'dev', '--role', 'dev-worker', '--user', 'joe']);
    assert.equal(ok.code, 0, ok.stderr);
  });
});
