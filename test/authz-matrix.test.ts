// The authorization matrix (issue 13): real users (client certificates, a service-account
// token, anonymous) bound to the bootstrap policy's roles, each request made for real. Every
// allow and every deny is the decision upstream's bootstrap policy gives. Writes are dry runs:
// a dry run needs exactly the permission of the real request.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { type RawResponse, request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { type TestUser, testUser } from './helpers/users.js';
import { KUBECTL_DIR } from './helpers/kubectl.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';
const AUTHZ = '/apis/authorization.orch.io/v1';
const WHO = ['viewer', 'editor', 'adminer', 'root', 'plain', 'anonymous', 'robot'] as const;
type Who = (typeof WHO)[number];

interface Row {
  what: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The users allowed; everyone else is refused. */
  allowed: readonly Who[];
  /** How a refusal shows (default: 403). */
  refused?: (r: RawResponse) => boolean;
}

const ALL: readonly Who[] = WHO;
const AUTHENTICATED: readonly Who[] = ['viewer', 'editor', 'adminer', 'root', 'plain', 'robot'];
const READERS: readonly Who[] = ['viewer', 'editor', 'adminer', 'root', 'robot'];
const WRITERS: readonly Who[] = ['editor', 'adminer', 'root'];
const ADMINS: readonly Who[] = ['adminer', 'root'];
const ROOT: readonly Who[] = ['root'];
const DRY = '?dryRun=All';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd' },
  spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
};
const access = (verb: string, resource: string) => ({
  apiVersion: 'authorization.orch.io/v1',
  kind: 'SelfSubjectAccessReview',
  spec: { resourceAttributes: { namespace: 'm', verb, resource } },
});

const ROWS: Row[] = [
  { what: 'list pods', method: 'GET', path: '/api/v1/namespaces/m/pods', allowed: READERS },
  { what: 'get a pod', method: 'GET', path: '/api/v1/namespaces/m/pods/x', allowed: READERS },
  { what: 'watch pods', method: 'GET', path: '/api/v1/namespaces/m/pods?watch=1&timeoutSeconds=1', allowed: READERS },
  { what: 'list secrets (view never reads secrets)', method: 'GET', path: '/api/v1/namespaces/m/secrets', allowed: WRITERS },
  { what: 'create a deployment', method: 'POST', path: `/apis/apps/v1/namespaces/m/deployments${DRY}`, body: deployment, allowed: WRITERS },
  { what: 'delete a configmap', method: 'DELETE', path: `/api/v1/namespaces/m/configmaps/x${DRY}`, allowed: WRITERS },
  { what: 'create an event', method: 'POST', path: `/api/v1/namespaces/m/events${DRY}`, body: { metadata: { name: 'e' } }, allowed: WRITERS },
  { what: 'read a pod log', method: 'GET', path: '/api/v1/namespaces/m/pods/x/log', allowed: READERS },
  { what: 'read a deployment status', method: 'GET', path: '/apis/apps/v1/namespaces/m/deployments/x/status', allowed: READERS },
  { what: 'exec in a pod', method: 'POST', path: '/api/v1/namespaces/m/pods/x/exec?command=ls', allowed: WRITERS },
  {
    what: 'scale a deployment',
    method: 'PATCH',
    path: '/apis/apps/v1/namespaces/m/deployments/x/scale',
    body: {},
    headers: { 'content-type': 'application/merge-patch+json' },
    allowed: WRITERS,
  },
  { what: 'request a service-account token', method: 'POST', path: '/api/v1/namespaces/m/serviceaccounts/x/token', body: { spec: {} }, allowed: WRITERS },
  { what: 'read resource quotas', method: 'GET', path: '/api/v1/namespaces/m/resourcequotas', allowed: READERS },
  { what: 'create a resource quota', method: 'POST', path: `/api/v1/namespaces/m/resourcequotas${DRY}`, body: { metadata: { name: 'q' } }, allowed: ROOT },
  {
    what: 'create a role',
    method: 'POST',
    path: `${RBAC}/namespaces/m/roles${DRY}`,
    body: { metadata: { name: 'r' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
    allowed: ADMINS,
  },
  {
    what: 'bind view in the namespace',
    method: 'POST',
    path: `${RBAC}/namespaces/m/rolebindings${DRY}`,
    body: {
      metadata: { name: 'b' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', name: 'x', apiGroup: 'rbac.authorization.orch.io' }],
    },
    allowed: ADMINS,
  },
  {
    what: 'ask a local access review',
    method: 'POST',
    path: `${AUTHZ}/namespaces/m/localsubjectaccessreviews`,
    body: { spec: { user: 'x', resourceAttributes: { namespace: 'm', verb: 'get', resource: 'pods' } } },
    allowed: ADMINS,
  },
  { what: 'list pods in another namespace', method: 'GET', path: '/api/v1/namespaces/o/pods', allowed: ROOT },
  { what: 'list nodes (cluster-scoped)', method: 'GET', path: '/api/v1/nodes', allowed: ROOT },
  { what: 'delete the namespace', method: 'DELETE', path: `/api/v1/namespaces/m${DRY}`, allowed: ROOT },
  { what: 'list cluster roles', method: 'GET', path: `${RBAC}/clusterroles`, allowed: ROOT },
  { what: 'GET /healthz (public info)', method: 'GET', path: '/healthz', allowed: ALL },
  { what: 'GET /version (public info)', method: 'GET', path: '/version', allowed: ALL },
  { what: 'GET /api (discovery)', method: 'GET', path: '/api', allowed: AUTHENTICATED },
  { what: 'GET /openapi/v2 (discovery)', method: 'GET', path: '/openapi/v2', allowed: AUTHENTICATED },
  { what: 'GET /metrics (monitoring only)', method: 'GET', path: '/metrics', allowed: ROOT },
  {
    what: 'ask a self access review (basic user)',
    method: 'POST',
    path: `${AUTHZ}/selfsubjectaccessreviews`,
    body: access('get', 'pods'),
    allowed: AUTHENTICATED,
  },
  {
    what: 'impersonate a service account of the namespace',
    method: 'GET',
    path: '/api/v1/namespaces/m/configmaps',
    headers: { 'Impersonate-User': 'system:serviceaccount:m:robot' },
    allowed: WRITERS,
    // Allowed impersonation then runs as the account (which may read configmaps: view).
    refused: (r) => r.status === 403 && /cannot impersonate/.test(r.json?.message ?? ''),
  },
];

/** admin, edit and view get their rules from the aggregation controller: wait until it has run. */
async function waitForAggregation(cluster: TestCluster, rbac: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const view = (await request(cluster, 'GET', `${rbac}/clusterroles/view`)).json;
    const adminRole = (await request(cluster, 'GET', `${rbac}/clusterroles/admin`)).json;
    if ((view.rules ?? []).length > 0 && (adminRole.rules ?? []).some((r: { resources?: string[] }) => r.resources?.includes('roles'))) return;
    assert.ok(Date.now() < deadline, 'the aggregated roles were never filled');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('authorization matrix (Node,RBAC with the bootstrap policy)', { concurrency: true }, () => {
  let cluster: TestCluster;
  let dir: string;
  const users = new Map<Who, TestUser>();
  let robotToken = '';

  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await request(cluster, method, path, { body: body as object });
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
    return r.json;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'authz-matrix-'));
    cluster = await startTestCluster({ storageBackend: 'memory', authorization: { modes: ['Node', 'RBAC'] }, anonymousAuth: true });
    for (const ns of ['m', 'o']) await admin('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    const bind = (name: string, role: string, subject: Record<string, unknown>) =>
      admin('POST', `${RBAC}/namespaces/m/rolebindings`, {
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: role },
        subjects: [subject],
      });
    const user = (name: string) => ({ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name });
    await bind('viewer', 'view', user('viewer'));
    await bind('editor', 'edit', user('editor'));
    await bind('adminer', 'admin', user('adminer'));
    await bind('robot', 'view', { kind: 'ServiceAccount', name: 'robot', namespace: 'm' });
    await admin('POST', `${RBAC}/clusterrolebindings`, {
      metadata: { name: 'root' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [user('root')],
    });
    for (const name of ['viewer', 'editor', 'adminer', 'root', 'plain'] as const) users.set(name, await testUser(cluster, name));
    await admin('POST', '/api/v1/namespaces/m/serviceaccounts', { metadata: { name: 'robot' } });
    robotToken = (await admin('POST', '/api/v1/namespaces/m/serviceaccounts/robot/token', { spec: {} })).status.token;
    await waitForAggregation(cluster, RBAC);
  });
  after(async () => {
    await cluster?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const send = (who: Who, row: Row): Promise<RawResponse> => {
    const opts = { body: row.body as object | undefined, headers: row.headers };
    if (who === 'anonymous') return request(cluster, row.method, row.path, { ...opts, anonymous: true });
    if (who === 'robot')
      return request(cluster, row.method, row.path, { ...opts, anonymous: true, headers: { ...(row.headers ?? {}), authorization: `Bearer ${robotToken}` } });
    return (users.get(who) as TestUser).request(row.method, row.path, opts);
  };

  for (const row of ROWS) {
    it(row.what, async () => {
      const wrong: string[] = [];
      for (const who of WHO) {
        const r = await send(who, row);
        const refused = row.refused ? row.refused(r) : r.status === 403;
        const allowed = row.allowed.includes(who);
        if (allowed === refused) wrong.push(`${who}: ${allowed ? 'should be allowed' : 'should be refused'}, got ${r.status} ${r.text.slice(0, 200)}`);
      }
      assert.deepEqual(wrong, []);
    });
  }

  it('words a refusal as upstream does', async () => {
    const r = await (users.get('viewer') as TestUser).request('GET', '/api/v1/namespaces/m/secrets');
    assert.equal(r.status, 403);
    assert.deepEqual(r.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'secrets is forbidden: User "viewer" cannot list resource "secrets" in API group "" in the namespace "m"',
      reason: 'Forbidden',
      details: { kind: 'secrets' },
      code: 403,
    });
    const anon = await request(cluster, 'GET', '/api', { anonymous: true });
    assert.equal(anon.json.message, 'forbidden: User "system:anonymous" cannot get path "/api"');
    const named = await (users.get('plain') as TestUser).request('GET', '/apis/apps/v1/namespaces/m/deployments/web');
    assert.equal(
      named.json.message,
      'deployments.apps "web" is forbidden: User "plain" cannot get resource "deployments" in API group "apps" in the namespace "m"',
    );
  });

  it('an edit user cannot grant cluster-admin or more than it holds; escalate and bind let it', async () => {
    const editor = users.get('editor') as TestUser;
    const crb = await editor.request('POST', `${RBAC}/clusterrolebindings`, {
      body: {
        metadata: { name: 'mine' },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ kind: 'User', name: 'editor', apiGroup: 'rbac.authorization.orch.io' }],
      },
    });
    assert.equal(crb.status, 403);
    // An admin of the namespace may create Roles, but not one granting what it lacks.
    const adminer = users.get('adminer') as TestUser;
    const more = await adminer.request('POST', `${RBAC}/namespaces/m/roles`, {
      body: { metadata: { name: 'nodes' }, rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] },
    });
    assert.equal(more.status, 403);
    assert.match(
      more.json.message,
      /^roles\.rbac\.authorization\.orch\.io "nodes" is forbidden: user "adminer" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["nodes"\], Verbs:\["get"\]\}/,
    );
    await admin('POST', `${RBAC}/namespaces/m/roles`, {
      metadata: { name: 'escalator' },
      rules: [{ apiGroups: ['rbac.authorization.orch.io'], resources: ['roles'], verbs: ['escalate'] }],
    });
    await admin('POST', `${RBAC}/namespaces/m/rolebindings`, {
      metadata: { name: 'escalator' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'escalator' },
      subjects: [{ kind: 'User', name: 'adminer', apiGroup: 'rbac.authorization.orch.io' }],
    });
    const deadline = Date.now() + 5000;
    let allowed: RawResponse;
    do {
      allowed = await adminer.request('POST', `${RBAC}/namespaces/m/roles${DRY}`, {
        body: { metadata: { name: 'nodes' }, rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] },
      });
    } while (allowed.status === 403 && Date.now() < deadline && (await new Promise((r) => setTimeout(r, 50))) === undefined);
    assert.equal(allowed.status, 201, allowed.text);
  });

  it('kubectl auth can-i --list shows a namespaced user its rules (compat names, which kubectl asks for)', async () => {
    const compat = await startTestCluster({ storageBackend: 'memory', authorization: { modes: ['Node', 'RBAC'] }, kubernetesCompat: true });
    after(() => compat.close());
    const made = await request(compat, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'm' } } });
    assert.equal(made.status, 201, made.text);
    const bound = await request(compat, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/m/rolebindings', {
      body: {
        metadata: { name: 'viewer' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'viewer' }],
      },
    });
    assert.equal(bound.status, 201, bound.text);
    const kubeconfig = await (await testUser(compat, 'viewer')).kubeconfig(dir);
    await waitForAggregation(compat, '/apis/rbac.authorization.k8s.io/v1');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        join(KUBECTL_DIR, 'kubectl.1.33'),
        ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), 'auth', 'can-i', '--list', '-n', 'm'],
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    const lines = out.split('\n').map((l) => l.trim().split(/\s{2,}/));
    const row = (resource: string) => lines.find((l) => l[0] === resource);
    assert.deepEqual(row('pods')?.slice(1), ['[]', '[]', '[get list watch]']);
    assert.deepEqual(row('selfsubjectaccessreviews.authorization.k8s.io')?.slice(1), ['[]', '[]', '[create]']);
    assert.equal(row('secrets'), undefined, 'view grants no secrets');
    const canI = (args: string[]) =>
      new Promise<string>((resolve) =>
        execFile(join(KUBECTL_DIR, 'kubectl.1.33'), ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), 'auth', 'can-i', ...args], (_err, stdout) =>
          resolve(stdout.trim()),
        ),
      );
    assert.equal(await canI(['get', 'pods', '-n', 'm']), 'yes');
    assert.equal(await canI(['get', 'secrets', '-n', 'm']), 'no');
    assert.equal(await canI(['create', 'deployments', '-n', 'o']), 'no');
  });

  it('answers SelfSubjectRulesReview as a UI calls it', async () => {
    const r = await (users.get('editor') as TestUser).request('POST', `${AUTHZ}/selfsubjectrulesreviews`, {
      body: { apiVersion: 'authorization.orch.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'm' } },
    });
    assert.equal(r.status, 201, r.text);
    // The Node mode has no opinion on users that are not nodes, so RBAC's list is complete.
    assert.equal(r.json.status.incomplete, false);
    const rules = r.json.status.resourceRules as { verbs: string[]; apiGroups: string[]; resources: string[] }[];
    assert.ok(rules.some((x) => x.resources.includes('secrets') && x.verbs.includes('create')));
    assert.ok(r.json.status.nonResourceRules.some((x: { nonResourceURLs: string[] }) => x.nonResourceURLs.includes('/healthz')));
  });
});
