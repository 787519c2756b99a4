/**
 * RBAC authorization end to end: a server with `--authorization-mode=RBAC`, users from client
 * certificates signed by its CA, RBAC objects written by the admin, and what each user may do
 * as the server answers it (status and message byte for byte); escalation checks of RBAC writes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually, request, type RawResponse, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { issueClientCertificate, pkiPaths } from '../src/pki/certificates.js';

const G = 'rbac.authorization.orch.io';
const RBAC = `/apis/${G}/v1`;

let cluster: TestCluster;
type Identity = { certPem: string; keyPem: string };
let ca: { cert: string; key: string };
const ids = new Map<string, Identity>();

async function as(user: string, groups: string[] = []): Promise<Identity> {
  const key = `${user}|${groups.join(',')}`;
  let id = ids.get(key);
  if (!id) {
    id = await issueClientCertificate(ca.cert, ca.key, user, groups);
    ids.set(key, id);
  }
  return id;
}

function call(id: Identity | undefined, method: string, path: string, body?: object): Promise<RawResponse> {
  return request(cluster, method, path, { ...(body ? { body } : {}), ...(id ? { identity: id } : {}) });
}

/**
 * The admin writes an object; a create then waits until the watch cache holds it (a read not
 * older than its resourceVersion), and with it the RBAC index, which the cache feeds in step.
 */
async function admin(method: string, path: string, body: object): Promise<void> {
  const r = await call(undefined, method, path, body);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  if (method !== 'POST') return;
  const seen = await call(undefined, 'GET', `${path}/${r.json.metadata.name}?resourceVersion=${r.json.metadata.resourceVersion}`);
  assert.equal(seen.status, 200, seen.text);
}

const role = (name: string, namespace: string, rules: object[]) => ({ apiVersion: `${G}/v1`, kind: 'Role', metadata: { name, namespace }, rules });
const clusterRole = (name: string, rules: object[]) => ({ apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name }, rules });
const roleBinding = (name: string, namespace: string, roleKind: string, roleName: string, subjects: object[]) => ({
  apiVersion: `${G}/v1`,
  kind: 'RoleBinding',
  metadata: { name, namespace },
  roleRef: { apiGroup: G, kind: roleKind, name: roleName },
  subjects,
});
const clusterRoleBinding = (name: string, roleName: string, subjects: object[]) => ({
  apiVersion: `${G}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: G, kind: 'ClusterRole', name: roleName },
  subjects,
});
const user = (name: string) => ({ kind: 'User', apiGroup: G, name });

before(async () => {
  cluster = await startTestCluster({ storageBackend: 'memory', authorization: { modes: ['RBAC'] } });
  const paths = pkiPaths(join(cluster.dataDir, 'pki'));
  ca = { cert: await readFile(paths.caCert, 'utf8'), key: await readFile(paths.caKey, 'utf8') };
  for (const ns of ['dev', 'other']) await admin('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await admin('POST', '/api/v1/namespaces/dev/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', image: 'x' }] },
  });
  await admin('POST', '/api/v1/namespaces/dev/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' } });
});

after(() => cluster.close());

test('a Role and RoleBinding let a user read pods in one namespace, not another; deleting the binding takes it back', async () => {
  const jane = await as('jane');
  await admin('POST', `${RBAC}/namespaces/dev/roles`, role('pod-reader', 'dev', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]));
  await admin('POST', `${RBAC}/namespaces/dev/rolebindings`, roleBinding('jane-reads', 'dev', 'Role', 'pod-reader', [user('jane')]));
  assert.equal((await call(jane, 'GET', '/api/v1/namespaces/dev/pods')).status, 200);
  assert.equal((await call(jane, 'GET', '/api/v1/namespaces/dev/pods/p')).status, 200);
  const denied = await call(jane, 'GET', '/api/v1/namespaces/other/pods');
  assert.equal(denied.status, 403);
  assert.equal(denied.json.message, 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "other"');
  assert.deepEqual(denied.json.details, { kind: 'pods' });
  assert.equal((await call(jane, 'DELETE', '/api/v1/namespaces/dev/pods/p')).status, 403);

  await admin('DELETE', `${RBAC}/namespaces/dev/rolebindings/jane-reads`, {});
  assert.ok(await eventually(async () => (await call(jane, 'GET', '/api/v1/namespaces/dev/pods')).status === 403));
});

test('resourceNames allow the named object only (get, not list); */status rules cover the subresource only', async () => {
  const ann = await as('ann');
  await admin(
    'POST',
    `${RBAC}/namespaces/dev/roles`,
    role('named', 'dev', [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cfg'] },
      { verbs: ['get'], apiGroups: [''], resources: ['*/status'] },
    ]),
  );
  await admin('POST', `${RBAC}/namespaces/dev/rolebindings`, roleBinding('ann', 'dev', 'Role', 'named', [user('ann')]));
  assert.equal((await call(ann, 'GET', '/api/v1/namespaces/dev/configmaps/cfg')).status, 200);
  assert.equal((await call(ann, 'GET', '/api/v1/namespaces/dev/configmaps/other')).status, 403);
  const list = await call(ann, 'GET', '/api/v1/namespaces/dev/configmaps');
  assert.equal(list.json.message, 'configmaps is forbidden: User "ann" cannot list resource "configmaps" in API group "" in the namespace "dev"');
  assert.equal((await call(ann, 'GET', '/api/v1/namespaces/dev/pods/p/status')).status, 200);
  const pod = await call(ann, 'GET', '/api/v1/namespaces/dev/pods/p');
  assert.equal(pod.json.message, 'pods "p" is forbidden: User "ann" cannot get resource "pods" in API group "" in the namespace "dev"');
});

test('Group and ServiceAccount subjects', async () => {
  const bob = await as('bob', ['qa']);
  const sa = await as('system:serviceaccount:dev:builder', ['system:serviceaccounts', 'system:serviceaccounts:dev']);
  await admin('POST', `${RBAC}/clusterroles`, clusterRole('secret-lister', [{ verbs: ['list'], apiGroups: [''], resources: ['secrets'] }]));
  await admin(
    'POST',
    `${RBAC}/namespaces/dev/rolebindings`,
    roleBinding('qa', 'dev', 'ClusterRole', 'secret-lister', [{ kind: 'Group', apiGroup: G, name: 'qa' }]),
  );
  // No namespace: the binding's own.
  await admin(
    'POST',
    `${RBAC}/namespaces/dev/rolebindings`,
    roleBinding('builder', 'dev', 'ClusterRole', 'secret-lister', [{ kind: 'ServiceAccount', name: 'builder' }]),
  );
  assert.equal((await call(bob, 'GET', '/api/v1/namespaces/dev/secrets')).status, 200);
  assert.equal((await call(bob, 'GET', '/api/v1/namespaces/other/secrets')).status, 403);
  assert.equal((await call(await as('bob'), 'GET', '/api/v1/namespaces/dev/secrets')).status, 403);
  assert.equal((await call(sa, 'GET', '/api/v1/namespaces/dev/secrets')).status, 200);
  assert.equal((await call(await as('system:serviceaccount:other:builder'), 'GET', '/api/v1/namespaces/dev/secrets')).status, 403);
});

test('non-resource URLs with a trailing *', async () => {
  // Discovery paths are everybody's (the bootstrap policy): /debug/ is not.
  const nora = await as('nora');
  const before = await call(nora, 'GET', '/debug/flags');
  assert.equal(before.status, 403);
  assert.equal(before.json.message, 'forbidden: User "nora" cannot get path "/debug/flags"');
  await admin('POST', `${RBAC}/clusterroles`, clusterRole('debug-reader', [{ verbs: ['get'], nonResourceURLs: ['/debug/*'] }]));
  await admin('POST', `${RBAC}/clusterrolebindings`, clusterRoleBinding('nora', 'debug-reader', [user('nora')]));
  // Allowed, then not served: 404, no longer 403.
  assert.equal((await call(nora, 'GET', '/debug/flags')).status, 404);
  assert.equal((await call(nora, 'GET', '/debug/flags/v')).status, 404);
  assert.equal((await call(nora, 'GET', '/debugger')).status, 403);
});

test('a ClusterRoleBinding to a missing ClusterRole: the reason says so', async () => {
  const ghost = await as('ghost');
  await admin('POST', `${RBAC}/clusterrolebindings`, clusterRoleBinding('ghost', 'missing', [user('ghost')]));
  const r = await call(ghost, 'GET', '/api/v1/nodes');
  assert.equal(r.status, 403);
  assert.equal(
    r.json.message,
    `nodes is forbidden: User "ghost" cannot list resource "nodes" in API group "" at the cluster scope: RBAC: clusterrole.${G} "missing" not found`,
  );
  // The self rules review reports the same as its evaluation error.
  const review = await call(ghost, 'POST', `/apis/authorization.orch.io/v1/selfsubjectrulesreviews`, {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SelfSubjectRulesReview',
    spec: { namespace: 'dev' },
  });
  assert.equal(review.status, 201, review.text);
  assert.equal(review.json.status.evaluationError, `clusterrole.${G} "missing" not found`);
  assert.equal(review.json.status.incomplete, false);
  // What the bootstrap policy's basic-user grants everybody.
  assert.deepEqual(review.json.status.resourceRules, [
    { verbs: ['create'], apiGroups: ['authorization.orch.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
    { verbs: ['create'], apiGroups: ['authentication.orch.io'], resources: ['selfsubjectreviews'] },
  ]);
});

test('escalation: creating a Role with more than one holds is refused (dry run too) unless one may escalate', async () => {
  const maker = await as('rolemaker', ['makers']);
  await admin(
    'POST',
    `${RBAC}/namespaces/dev/roles`,
    role('role-maker', 'dev', [
      { verbs: ['create', 'update', 'patch'], apiGroups: [G], resources: ['roles'] },
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    ]),
  );
  await admin('POST', `${RBAC}/namespaces/dev/rolebindings`, roleBinding('role-maker', 'dev', 'Role', 'role-maker', [user('rolemaker')]));
  const bigger = role('bigger', 'dev', [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }]);
  const expected = `roles.${G} "bigger" is forbidden: user "rolemaker" (groups=["makers" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}`;
  const refused = await call(maker, 'POST', `${RBAC}/namespaces/dev/roles`, bigger);
  assert.equal(refused.status, 403);
  assert.equal(refused.json.message, expected);
  assert.deepEqual(refused.json.details, { name: 'bigger', group: G, kind: 'roles' });
  const dry = await call(maker, 'POST', `${RBAC}/namespaces/dev/roles?dryRun=All`, bigger);
  assert.equal(dry.status, 403);
  assert.equal(dry.json.message, expected);
  // What one holds may be granted.
  const smaller = await call(maker, 'POST', `${RBAC}/namespaces/dev/roles`, role('smaller', 'dev', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]));
  assert.equal(smaller.status, 201, smaller.text);
  // Growing it by update or patch is refused the same way.
  const patched = await request(cluster, 'PATCH', `${RBAC}/namespaces/dev/roles/smaller`, {
    identity: maker,
    headers: { 'content-type': 'application/merge-patch+json' },
    body: { rules: [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }] },
  });
  assert.equal(patched.status, 403, patched.text);
  assert.match(
    patched.json.message,
    /^roles\.rbac\.authorization\.orch\.io "smaller" is forbidden: .*\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["\*"\]\}$/,
  );

  // Server-side apply of a new Role is checked as the create it is.
  const applied = await request(cluster, 'PATCH', `${RBAC}/namespaces/dev/roles/applied?fieldManager=test`, {
    identity: maker,
    headers: { 'content-type': 'application/apply-patch+yaml' },
    body: role('applied', 'dev', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]),
  });
  assert.equal(applied.status, 403, applied.text);
  assert.match(applied.json.message, /\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["list"\]\}$/);
  assert.equal((await call(undefined, 'GET', `${RBAC}/namespaces/dev/roles/applied`)).status, 404);

  await admin('POST', `${RBAC}/namespaces/dev/roles`, role('escalator', 'dev', [{ verbs: ['escalate'], apiGroups: [G], resources: ['roles'] }]));
  await admin(
    'POST',
    `${RBAC}/namespaces/dev/rolebindings`,
    roleBinding('escalator', 'dev', 'Role', 'escalator', [{ kind: 'Group', apiGroup: G, name: 'makers' }]),
  );
  assert.equal((await call(maker, 'POST', `${RBAC}/namespaces/dev/roles`, bigger)).status, 201);
});

test('escalation: binding a role with more than one holds is refused unless one may bind it', async () => {
  const binder = await as('binder');
  await admin('POST', `${RBAC}/clusterroles`, clusterRole('all-powerful', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]));
  await admin('POST', `${RBAC}/namespaces/other/roles`, role('binding-maker', 'other', [{ verbs: ['create'], apiGroups: [G], resources: ['rolebindings'] }]));
  await admin('POST', `${RBAC}/namespaces/other/rolebindings`, roleBinding('binder', 'other', 'Role', 'binding-maker', [user('binder')]));
  const grant = roleBinding('grant', 'other', 'ClusterRole', 'all-powerful', [user('binder')]);
  const refused = await call(binder, 'POST', `${RBAC}/namespaces/other/rolebindings`, grant);
  assert.equal(refused.status, 403);
  assert.equal(
    refused.json.message,
    `rolebindings.${G} "grant" is forbidden: user "binder" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}`,
  );
  // A binding to a role that does not exist: 404, as upstream's registry lookup.
  const missing = await call(binder, 'POST', `${RBAC}/namespaces/other/rolebindings`, roleBinding('nothing', 'other', 'ClusterRole', 'nope', [user('binder')]));
  assert.equal(missing.status, 404);
  assert.equal(missing.json.message, `clusterroles.${G} "nope" not found`);

  await admin(
    'POST',
    `${RBAC}/clusterroles`,
    clusterRole('binder-of-all', [{ verbs: ['bind'], apiGroups: [G], resources: ['clusterroles'], resourceNames: ['all-powerful'] }]),
  );
  await admin('POST', `${RBAC}/namespaces/other/rolebindings`, roleBinding('bind-it', 'other', 'ClusterRole', 'binder-of-all', [user('binder')]));
  const bound = await call(binder, 'POST', `${RBAC}/namespaces/other/rolebindings`, grant);
  assert.equal(bound.status, 201, bound.text);
  // Now binder holds everything in "other", nothing elsewhere.
  assert.equal((await call(binder, 'GET', '/api/v1/namespaces/other/secrets')).status, 200);
  assert.equal((await call(binder, 'GET', '/api/v1/namespaces/dev/secrets')).status, 403);
});
