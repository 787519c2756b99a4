/**
 * Two-phase deletion (spec "Deletion of a resource"), one test per row of its table, for a
 * namespaced and a cluster-scoped type; delete options; and namespace deletion end to end.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, startTestCluster, type RawResponse, type TestCluster } from './helpers/cluster.js';
import { kubectlFor } from './helpers/kubectl.js';

let cluster: TestCluster;

before(async () => {
  cluster = await startTestCluster();
});

after(async () => {
  await cluster?.close();
});

const MERGE = { 'content-type': 'application/merge-patch+json' };
const JSON_PATCH = { 'content-type': 'application/json-patch+json' };

function call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse> {
  return request(cluster, method, path, { body: body as object | undefined, headers });
}

function assertOk(r: RawResponse, code = 200): any {
  assert.equal(r.status, code, `expected ${code}, got ${r.status}: ${r.text.slice(0, 500)}`);
  return r.json;
}

function assertStatus(r: RawResponse, code: number, reason: string): any {
  assert.equal(r.status, code, `expected ${code}, got ${r.status}: ${r.text.slice(0, 500)}`);
  assert.equal(r.json?.kind, 'Status');
  assert.equal(r.json.status, 'Failure');
  assert.equal(r.json.code, code);
  assert.equal(r.json.reason, reason, r.json.message);
  return r.json;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const TYPES = [
  { title: 'namespaced (configmaps)', collection: '/api/v1/namespaces/default/configmaps', kind: 'ConfigMap', extra: {} },
  { title: 'cluster-scoped (clusterroles)', collection: '/apis/rbac.authorization.orch.io/v1/clusterroles', kind: 'ClusterRole', extra: { rules: [] } },
];

describe('two-phase deletion table', () => {
  for (const t of TYPES) {
    describe(t.title, () => {
      let n = 0;
      async function createWith(finalizers: string[] | undefined): Promise<{ path: string; obj: any }> {
        const name = `del-${++n}`;
        const obj = assertOk(await call('POST', t.collection, { metadata: { name, ...(finalizers ? { finalizers } : {}) }, ...t.extra }), 201);
        return { path: `${t.collection}/${name}`, obj };
      }

      it('live → finalizing: DELETE of an object with finalizers sets deletionTimestamp and answers the object', async () => {
        const { path, obj } = await createWith(['example.com/a']);
        const startedAt = Date.now();
        const r = assertOk(await call('DELETE', path));
        assert.equal(r.kind, t.kind, 'DELETE answers the object while it is finalizing');
        assert.equal(r.metadata.name, obj.metadata.name);
        assert.equal(r.metadata.uid, obj.metadata.uid);
        assert.ok(r.metadata.deletionTimestamp, 'deletionTimestamp set');
        assert.ok(Math.abs(Date.parse(r.metadata.deletionTimestamp) - startedAt) < 5_000, 'deletionTimestamp is the current time');
        assert.deepEqual(r.metadata.finalizers, ['example.com/a']);
        const got = assertOk(await call('GET', path));
        assert.equal(got.metadata.deletionTimestamp, r.metadata.deletionTimestamp);
        assert.ok(
          assertOk(await call('GET', t.collection)).items.some((i: any) => i.metadata.name === obj.metadata.name),
          'still listed',
        );
      });

      it('live → removed: DELETE without finalizers answers a Success Status with details', async () => {
        const { path, obj } = await createWith(undefined);
        const s = assertOk(await call('DELETE', path));
        assert.equal(s.kind, 'Status');
        assert.equal(s.apiVersion, 'v1');
        assert.equal(s.status, 'Success');
        assert.equal(s.details.name, obj.metadata.name);
        assert.equal(s.details.uid, obj.metadata.uid);
        assert.equal(s.details.kind, t.collection.split('/').pop());
        assertStatus(await call('GET', path), 404, 'NotFound');
      });

      it('finalizing → finalizing: removing one of two finalizers keeps the object', async () => {
        const { path } = await createWith(['example.com/a', 'example.com/b']);
        const deleting = assertOk(await call('DELETE', path));
        const r = assertOk(await call('PATCH', path, { metadata: { finalizers: ['example.com/b'] } }, MERGE));
        assert.deepEqual(r.metadata.finalizers, ['example.com/b']);
        const got = assertOk(await call('GET', path));
        assert.deepEqual(got.metadata.finalizers, ['example.com/b']);
        assert.equal(got.metadata.deletionTimestamp, deleting.metadata.deletionTimestamp, 'deletionTimestamp unchanged');
      });

      it('finalizing → removed: removing the last finalizer removes the object', async () => {
        const { path } = await createWith(['example.com/a', 'example.com/b']);
        assertOk(await call('DELETE', path));
        assertOk(await call('PATCH', path, [{ op: 'remove', path: '/metadata/finalizers/0' }], JSON_PATCH));
        assertOk(await call('GET', path));
        const cur = assertOk(await call('GET', path));
        cur.metadata.finalizers = [];
        assertOk(await call('PUT', path, cur));
        assertStatus(await call('GET', path), 404, 'NotFound');
        assert.ok(!assertOk(await call('GET', t.collection)).items.some((i: any) => `${t.collection}/${i.metadata.name}` === path));
      });

      it('DELETE of an object already finalizing answers it again, unchanged', async () => {
        const { path } = await createWith(['example.com/a']);
        const first = assertOk(await call('DELETE', path));
        await new Promise((r) => setTimeout(r, 1100));
        const second = assertOk(await call('DELETE', path));
        assert.equal(second.metadata.deletionTimestamp, first.metadata.deletionTimestamp);
        assert.equal(second.metadata.resourceVersion, first.metadata.resourceVersion);
      });

      it('a finalizing object may not gain new finalizers (422)', async () => {
        const { path } = await createWith(['example.com/a']);
        assertOk(await call('DELETE', path));
        const s = assertStatus(await call('PATCH', path, { metadata: { finalizers: ['example.com/a', 'example.com/new'] } }, MERGE), 422, 'Invalid');
        assert.ok(
          s.details.causes.some((c: any) => c.field === 'metadata.finalizers'),
          JSON.stringify(s.details),
        );
      });

      it('a finalizing object can still be updated otherwise, and its deletionTimestamp is kept', async () => {
        const { path } = await createWith(['example.com/a']);
        const d = assertOk(await call('DELETE', path));
        const u = assertOk(await call('PATCH', path, { metadata: { labels: { still: 'editable' }, deletionTimestamp: null } }, MERGE));
        assert.equal(u.metadata.labels.still, 'editable');
        assert.equal(u.metadata.deletionTimestamp, d.metadata.deletionTimestamp);
      });

      it('dryRun=All on an object with finalizers does not mark it deleting', async () => {
        const { path } = await createWith(['example.com/a']);
        const r = assertOk(await call('DELETE', `${path}?dryRun=All`));
        assert.equal(r.kind, t.kind);
        const got = assertOk(await call('GET', path));
        assert.equal(got.metadata.deletionTimestamp, undefined);
      });
    });
  }
});

describe('delete options', () => {
  const CM = '/api/v1/namespaces/default/configmaps';
  let n = 0;
  async function create(): Promise<{ path: string; obj: any }> {
    const name = `opt-${++n}`;
    const obj = assertOk(await call('POST', CM, { metadata: { name } }), 201);
    return { path: `${CM}/${name}`, obj };
  }

  for (const policy of ['Bad', 'background', 'orphan', '']) {
    it(`propagationPolicy=${JSON.stringify(policy)} is 422 Invalid and deletes nothing`, async () => {
      const { path } = await create();
      const q = policy === '' ? 'propagationPolicy=' : `propagationPolicy=${policy}`;
      const r = await call('DELETE', `${path}?${q}`);
      if (policy === '') {
        // An empty query value means "unset", as upstream's query decoding treats it.
        assert.ok(r.status === 200 || r.status === 422, r.text);
        return;
      }
      const s = assertStatus(r, 422, 'Invalid');
      assert.ok(
        s.details.causes.some((c: any) => c.field === 'propagationPolicy'),
        JSON.stringify(s.details),
      );
      assertOk(await call('GET', path));
    });
  }

  it('an invalid propagationPolicy in the DeleteOptions body is 422 too', async () => {
    const { path } = await create();
    assertStatus(await call('DELETE', path, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Sideways' }), 422, 'Invalid');
    assertOk(await call('GET', path));
  });

  it('orphanDependents together with propagationPolicy is 422', async () => {
    const { path } = await create();
    assertStatus(await call('DELETE', path, { orphanDependents: true, propagationPolicy: 'Background' }), 422, 'Invalid');
    assertOk(await call('GET', path));
  });

  for (const policy of ['Background', 'Foreground', 'Orphan']) {
    it(`propagationPolicy=${policy} is accepted`, async () => {
      const { path } = await create();
      const r = await call('DELETE', `${path}?propagationPolicy=${policy}`);
      assert.equal(r.status, 200, r.text);
    });
  }

  it('a non-integer gracePeriodSeconds is 400', async () => {
    const { path } = await create();
    assertStatus(await call('DELETE', `${path}?gracePeriodSeconds=soon`), 400, 'BadRequest');
    assertOk(await call('GET', path));
  });

  it('gracePeriodSeconds=0 deletes', async () => {
    const { path } = await create();
    assert.equal(assertOk(await call('DELETE', `${path}?gracePeriodSeconds=0`)).status, 'Success');
  });

  it('a uid precondition that does not match is 409 Conflict and deletes nothing', async () => {
    const { path, obj } = await create();
    const s = assertStatus(await call('DELETE', path, { preconditions: { uid: 'not-the-uid' } }), 409, 'Conflict');
    // Upstream words it through its storage error ("StorageError: invalid object, ... AdditionalErrorMsg: Precondition failed: ...").
    assert.match(
      s.message,
      new RegExp(
        `^Operation cannot be fulfilled on configmaps "${obj.metadata.name}": .*Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${obj.metadata.uid}$`,
      ),
    );
    assert.equal(s.details.name, obj.metadata.name);
    assertOk(await call('GET', path));
  });

  it('a resourceVersion precondition that does not match is 409 Conflict', async () => {
    const { path } = await create();
    assertStatus(await call('DELETE', path, { preconditions: { resourceVersion: '1' } }), 409, 'Conflict');
    assertOk(await call('GET', path));
  });

  it('matching preconditions delete', async () => {
    const { path, obj } = await create();
    const s = assertOk(await call('DELETE', path, { preconditions: { uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion } }));
    assert.equal(s.status, 'Success');
    assertStatus(await call('GET', path), 404, 'NotFound');
  });

  it('a malformed DeleteOptions body is 400', async () => {
    const { path } = await create();
    assertStatus(await request(cluster, 'DELETE', path, { body: '{not json' }), 400, 'BadRequest');
    assertOk(await call('GET', path));
  });
});

/** A Deployment spec that passes apps/v1 validation (selector matching the template, one container). */
const DEPLOYMENT_SPEC = {
  selector: { matchLabels: { app: 'dep' } },
  template: { metadata: { labels: { app: 'dep' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
};

describe('namespace deletion', () => {
  const NS = 'doomed';

  before(async () => {
    assertOk(await call('POST', '/api/v1/namespaces', { metadata: { name: NS } }), 201);
    assertOk(await call('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'cm' } }), 201);
    assertOk(await call('POST', `/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 'sec' }, type: 'Opaque' }), 201);
    assertOk(await call('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, { metadata: { name: 'dep' }, spec: DEPLOYMENT_SPEC }), 201);
    assertOk(await call('POST', `/apis/coordination.orch.io/v1/namespaces/${NS}/leases`, { metadata: { name: 'lease' }, spec: {} }), 201);
    assertOk(
      await call('POST', `/api/v1/namespaces/${NS}/events`, {
        metadata: { name: 'ev' },
        involvedObject: { kind: 'ConfigMap', name: 'cm', namespace: NS },
        reason: 'R',
        message: 'm',
      }),
      201,
    );
    // Held by a finalizer nobody else removes, so the namespace stays Terminating until the test does.
    assertOk(await call('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'held', finalizers: ['example.com/hold'] } }), 201);
  });

  it('a new namespace is Active and carries the namespace finalizer', async () => {
    const ns = assertOk(await call('GET', `/api/v1/namespaces/${NS}`));
    assert.equal(ns.status.phase, 'Active');
    assert.deepEqual(ns.spec.finalizers, ['orch']);
  });

  it('DELETE answers the namespace in phase Terminating with deletionTimestamp set', async () => {
    const ns = assertOk(await call('DELETE', `/api/v1/namespaces/${NS}`));
    assert.equal(ns.kind, 'Namespace');
    assert.equal(ns.status.phase, 'Terminating');
    assert.ok(ns.metadata.deletionTimestamp);
    assert.deepEqual(ns.spec.finalizers, ['orch']);
    assert.equal(assertOk(await call('GET', `/api/v1/namespaces/${NS}`)).status.phase, 'Terminating');
  });

  it('creating content in a terminating namespace is 403 Forbidden with cause NamespaceTerminating', async () => {
    const s = assertStatus(await call('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'late' } }), 403, 'Forbidden');
    assert.match(s.message, /because it is being terminated/);
    assert.ok(
      s.details.causes.some((c: any) => c.reason === 'NamespaceTerminating'),
      JSON.stringify(s.details),
    );
    assertStatus(await call('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, { metadata: { name: 'late' }, spec: DEPLOYMENT_SPEC }), 403, 'Forbidden');
  });

  it('updates in a terminating namespace are still allowed', async () => {
    assertOk(await call('PATCH', `/api/v1/namespaces/${NS}/configmaps/held`, { metadata: { labels: { touched: 'yes' } } }, MERGE));
  });

  it('the controller deletes the content', async () => {
    const gone = async (path: string) => (await call('GET', path)).status === 404;
    await waitFor(
      'namespace content to be deleted',
      async () =>
        (await gone(`/api/v1/namespaces/${NS}/configmaps/cm`)) &&
        (await gone(`/api/v1/namespaces/${NS}/secrets/sec`)) &&
        (await gone(`/apis/apps/v1/namespaces/${NS}/deployments/dep`)) &&
        (await gone(`/apis/coordination.orch.io/v1/namespaces/${NS}/leases/lease`)) &&
        (await gone(`/api/v1/namespaces/${NS}/events/ev`)),
    );
    // The held object is finalizing, and holds the namespace.
    const held = assertOk(await call('GET', `/api/v1/namespaces/${NS}/configmaps/held`));
    assert.ok(held.metadata.deletionTimestamp);
    assert.equal(assertOk(await call('GET', `/api/v1/namespaces/${NS}`)).status.phase, 'Terminating');
  });

  it('the status conditions say what is left and which finalizers hold it, in upstream’s words', async () => {
    const byType = async () => {
      const ns = assertOk(await call('GET', `/api/v1/namespaces/${NS}`));
      return new Map<string, any>((ns.status.conditions ?? []).map((c: any) => [c.type, c]));
    };
    await waitFor('the content conditions', async () => (await byType()).get('NamespaceFinalizersRemaining')?.status === 'True');
    const conditions = await byType();
    const summary = (type: string) => {
      const c = conditions.get(type);
      return c && [c.status, c.reason, c.message];
    };
    assert.deepEqual(
      [...conditions.keys()],
      [
        'NamespaceDeletionDiscoveryFailure',
        'NamespaceDeletionGroupVersionParsingFailure',
        'NamespaceDeletionContentFailure',
        'NamespaceContentRemaining',
        'NamespaceFinalizersRemaining',
      ],
    );
    assert.deepEqual(summary('NamespaceDeletionDiscoveryFailure'), ['False', 'ResourcesDiscovered', 'All resources successfully discovered']);
    assert.deepEqual(summary('NamespaceDeletionGroupVersionParsingFailure'), ['False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed']);
    assert.deepEqual(summary('NamespaceDeletionContentFailure'), [
      'False',
      'ContentDeleted',
      'All content successfully deleted, may be waiting on finalization',
    ]);
    assert.deepEqual(summary('NamespaceContentRemaining'), [
      'True',
      'SomeResourcesRemain',
      'Some resources are remaining: configmaps. has 1 resource instances',
    ]);
    assert.deepEqual(summary('NamespaceFinalizersRemaining'), [
      'True',
      'SomeFinalizersRemain',
      'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    ]);
    assert.match(conditions.get('NamespaceContentRemaining').lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // kubectl reads the same (its cache in the cluster's data dir, removed with it).
    const kubectl = kubectlFor('1.33', cluster, `${cluster.dataDir}/kubectl-cache`);
    const jsonpath = '{.status.conditions[?(@.type=="NamespaceFinalizersRemaining")].reason}';
    assert.equal(await kubectl.ok(['get', 'namespace', NS, '-o', `jsonpath=${jsonpath}`]), 'SomeFinalizersRemain');
  });

  it('once its last content is gone the namespace is removed', async () => {
    assertOk(await call('PATCH', `/api/v1/namespaces/${NS}/configmaps/held`, { metadata: { finalizers: null } }, MERGE));
    await waitFor('namespace to be removed', async () => (await call('GET', `/api/v1/namespaces/${NS}`)).status === 404);
    assert.ok(!assertOk(await call('GET', '/api/v1/namespaces')).items.some((i: any) => i.metadata.name === NS));
  });

  it('after removal, creating content there is 404 and the name can be reused', async () => {
    const s = assertStatus(await call('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'x' } }), 404, 'NotFound');
    assert.equal(s.message, `namespaces "${NS}" not found`);
    const ns = assertOk(await call('POST', '/api/v1/namespaces', { metadata: { name: NS } }), 201);
    assert.equal(ns.status.phase, 'Active');
    assert.equal(assertOk(await call('GET', `/api/v1/namespaces/${NS}/configmaps`)).items.length, 0);
  });

  it('an empty namespace goes away quickly', async () => {
    assertOk(await call('POST', '/api/v1/namespaces', { metadata: { name: 'empty-ns' } }), 201);
    assertOk(await call('DELETE', '/api/v1/namespaces/empty-ns'));
    await waitFor('empty namespace to be removed', async () => (await call('GET', '/api/v1/namespaces/empty-ns')).status === 404);
  });

  for (const name of ['default', 'orch-system', 'orch-public']) {
    it(`deleting ${name} is 403 Forbidden and leaves it Active`, async () => {
      const s = assertStatus(await call('DELETE', `/api/v1/namespaces/${name}`), 403, 'Forbidden');
      assert.match(s.message, new RegExp(`namespaces "${name}" is forbidden`));
      const ns = assertOk(await call('GET', `/api/v1/namespaces/${name}`));
      assert.equal(ns.status.phase, 'Active');
      assert.equal(ns.metadata.deletionTimestamp, undefined);
    });
  }

  it('the system namespaces exist at start', async () => {
    const names = assertOk(await call('GET', '/api/v1/namespaces')).items.map((i: any) => i.metadata.name);
    for (const n of ['default', 'orch-system', 'orch-public', 'orch-node-lease']) assert.ok(names.includes(n), `${n} in ${names}`);
  });
});
