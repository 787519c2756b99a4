/**
 * The bootstrap policy and ClusterRole aggregation in a running control plane: the post-start
 * hook in the health endpoints, admin/edit/view filled by the aggregation controller, a new
 * aggregate-to role reflected within a second, and a restart that rewrites nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { assertOk } from './helpers/invalid.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';
const LABEL = (role: string) => `rbac.authorization.orch.io/aggregate-to-${role}`;

interface Rule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
}

/** Polls until `check` holds for the ClusterRole, within `ms`; returns how long it took. */
async function waitForRole(cluster: TestCluster, name: string, check: (rules: Rule[]) => boolean, ms = 1000): Promise<number> {
  const start = Date.now();
  for (;;) {
    const role = assertOk(await request(cluster, 'GET', `${RBAC}/clusterroles/${name}`));
    if (check(role.rules ?? [])) return Date.now() - start;
    assert.ok(Date.now() - start < ms, `${name} did not change within ${ms} ms: ${JSON.stringify(role.rules)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits until view, edit and admin hold their aggregated rules (edit is read after view, admin after edit). */
async function waitForAggregation(cluster: TestCluster): Promise<void> {
  const count = async (name: string): Promise<number> => (assertOk(await request(cluster, 'GET', `${RBAC}/clusterroles/${name}`)).rules ?? []).length;
  const view = await count('system:aggregate-to-view');
  const edit = (await count('system:aggregate-to-edit')) + view;
  const admin = (await count('system:aggregate-to-admin')) + edit;
  await waitForRole(cluster, 'admin', (rules) => rules.length === admin);
}

const grants = (group: string) => (rules: Rule[]) => rules.some((r) => r.apiGroups?.includes(group));

describe('bootstrap policy and aggregation in the control plane', () => {
  let cluster: TestCluster;
  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory' });
  });
  after(() => cluster.close());

  test('the post-start hook rbac/bootstrap-roles shows in /readyz and /healthz', async () => {
    for (const endpoint of ['/readyz?verbose', '/healthz?verbose']) {
      const r = await request(cluster, 'GET', endpoint);
      assert.equal(r.status, 200);
      assert.ok(r.text.split('\n').includes('[+]poststarthook/rbac/bootstrap-roles ok'), r.text);
    }
    assert.equal((await request(cluster, 'GET', '/readyz/poststarthook/rbac/bootstrap-roles')).text, 'ok');
  });

  test('view, edit and admin carry the rules of their aggregate-to roles: view within edit within admin', async () => {
    await waitForAggregation(cluster);
    const rulesOf = async (name: string): Promise<Rule[]> => assertOk(await request(cluster, 'GET', `${RBAC}/clusterroles/${name}`)).rules;
    const view = await rulesOf('view');
    assert.deepEqual(view, await rulesOf('system:aggregate-to-view'));
    const edit = await rulesOf('edit');
    assert.deepEqual(edit, [...(await rulesOf('system:aggregate-to-edit')), ...view]);
    const admin = await rulesOf('admin');
    // Roles are taken in name order: `edit` before `system:aggregate-to-admin`.
    assert.deepEqual(admin, [...edit, ...(await rulesOf('system:aggregate-to-admin'))]);
  });

  test('a new ClusterRole labelled aggregate-to-view extends view (and so edit and admin) within a second; unlabelling takes it back', async () => {
    const created = await request(cluster, 'POST', `${RBAC}/clusterroles`, {
      body: {
        metadata: { name: 'widgets-view', labels: { [LABEL('view')]: 'true' } },
        rules: [{ verbs: ['get', 'list'], apiGroups: ['widgets.example.com'], resources: ['widgets'] }],
      },
    });
    assert.equal(created.status, 201, created.text);
    await waitForRole(cluster, 'view', grants('widgets.example.com'));
    await waitForRole(cluster, 'admin', grants('widgets.example.com'));
    const unlabelled = await request(cluster, 'PATCH', `${RBAC}/clusterroles/widgets-view`, {
      body: { metadata: { labels: { [LABEL('view')]: null } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assertOk(unlabelled);
    await waitForRole(cluster, 'view', (rules) => !grants('widgets.example.com')(rules));
  });

  test('a role aggregated into edit reaches admin; a user-made aggregated role works too; the writer is clusterrole-aggregation-controller', async () => {
    await request(cluster, 'POST', `${RBAC}/clusterroles`, {
      body: {
        metadata: { name: 'gadgets-edit', labels: { [LABEL('edit')]: 'true', team: 'gadgets' } },
        rules: [{ verbs: ['create'], apiGroups: ['gadgets.example.com'], resources: ['gadgets'] }],
      },
    });
    await waitForRole(cluster, 'edit', grants('gadgets.example.com'));
    await waitForRole(cluster, 'admin', grants('gadgets.example.com'));
    assert.ok(!grants('gadgets.example.com')(assertOk(await request(cluster, 'GET', `${RBAC}/clusterroles/view`)).rules));
    const mine = await request(cluster, 'POST', `${RBAC}/clusterroles`, {
      body: { metadata: { name: 'team-gadgets' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { team: 'gadgets' } }] } },
    });
    assert.equal(mine.status, 201, mine.text);
    await waitForRole(cluster, 'team-gadgets', (rules) => rules.length === 1 && grants('gadgets.example.com')(rules));
    const managers = assertOk(await request(cluster, 'GET', `${RBAC}/clusterroles/team-gadgets`)).metadata.managedFields.map(
      (m: { manager: string }) => m.manager,
    );
    assert.ok(managers.includes('clusterrole-aggregation-controller'), managers);
  });
});

describe('bootstrap policy across a restart (SQLite)', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-rbac-restart-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  test('a restart rewrites no bootstrap object and re-adds a removed rule; the aggregated roles stay as they were', async () => {
    const first = await startTestCluster({ dataDir });
    await waitForAggregation(first);
    const versions = async (c: TestCluster) => {
      const list = assertOk(await request(c, 'GET', `${RBAC}/clusterroles`));
      return new Map<string, string>(
        list.items.map((r: { metadata: { name: string; resourceVersion: string } }) => [r.metadata.name, r.metadata.resourceVersion]),
      );
    };
    const before = await versions(first);
    const trimmed = await request(first, 'PATCH', `${RBAC}/clusterroles/system:basic-user`, {
      body: { rules: [{ verbs: ['create'], apiGroups: ['authorization.orch.io'], resources: ['selfsubjectaccessreviews'] }] },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assertOk(trimmed);
    await first.close();

    const second = await startTestCluster({ dataDir });
    try {
      // Long enough for the aggregation controller to have listed and judged every role.
      await new Promise((r) => setTimeout(r, 300));
      const after = await versions(second);
      for (const [name, rv] of before) if (name !== 'system:basic-user') assert.equal(after.get(name), rv, `${name} was rewritten`);
      const basic = assertOk(await request(second, 'GET', `${RBAC}/clusterroles/system:basic-user`));
      assert.ok(
        basic.rules.some((r: Rule) => r.resources?.includes('selfsubjectrulesreviews')),
        'the removed rule is back',
      );
    } finally {
      await second.close();
    }
  });
});
