/**
 * The generic resource API as a user sees it: create/get/list/update/patch/delete for
 * namespaced and cluster-scoped types, generateName, server-owned metadata, conflicts,
 * generation, the status subresource, ObjectMeta validation, dryRun and deletecollection.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, startTestCluster, type RawResponse, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;

before(async () => {
  cluster = await startTestCluster();
});

after(async () => {
  await cluster?.close();
});

const MERGE = { 'content-type': 'application/merge-patch+json' };
const JSON_PATCH = { 'content-type': 'application/json-patch+json' };
/** A Deployment spec that passes apps/v1 validation (selector matching the template, one container). */
const DEPLOYMENT_SPEC = {
  replicas: 1,
  selector: { matchLabels: { app: 'crud' } },
  template: { metadata: { labels: { app: 'crud' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
};

function call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse> {
  return request(cluster, method, path, { body: body as object | undefined, headers });
}

/** Asserts a Status error body with the given code and reason; returns it. */
function assertStatus(r: RawResponse, code: number, reason: string): any {
  assert.equal(r.status, code, `expected ${code}, got ${r.status}: ${r.text.slice(0, 500)}`);
  assert.equal(r.json?.kind, 'Status', r.text.slice(0, 300));
  assert.equal(r.json.apiVersion, 'v1');
  assert.equal(r.json.status, 'Failure');
  assert.equal(r.json.code, code);
  assert.equal(r.json.reason, reason, r.json.message);
  return r.json;
}

function assertOk(r: RawResponse, code = 200): any {
  assert.equal(r.status, code, `expected ${code}, got ${r.status}: ${r.text.slice(0, 500)}`);
  return r.json;
}

/** An object's labels without the one the server adds to every namespace (upstream's kubernetes.io/metadata.name). */
function userLabels(o: any): Record<string, string> | undefined {
  const { 'orch.io/metadata.name': _name, ...rest } = o.metadata.labels ?? {};
  return o.metadata.labels === undefined ? undefined : rest;
}

/** The fields of each 422 cause. */
function causeFields(status: any): string[] {
  return (status.details?.causes ?? []).map((c: { field?: string }) => c.field);
}

interface TypeCase {
  title: string;
  /** Collection path (namespaced: inside namespace `default`). */
  collection: string;
  /** All-namespaces collection, for namespaced types. */
  allNamespaces?: string;
  apiVersion: string;
  kind: string;
  /** Resource as named in messages (`configmaps`, `deployments.apps`). */
  qualified: string;
  namespaced: boolean;
  extra: Record<string, unknown>;
}

const TYPES: TypeCase[] = [
  {
    title: 'core namespaced (configmaps)',
    collection: '/api/v1/namespaces/default/configmaps',
    allNamespaces: '/api/v1/configmaps',
    apiVersion: 'v1',
    kind: 'ConfigMap',
    qualified: 'configmaps',
    namespaced: true,
    extra: { data: { a: '1' } },
  },
  {
    title: 'named-group namespaced (deployments.apps)',
    collection: '/apis/apps/v1/namespaces/default/deployments',
    allNamespaces: '/apis/apps/v1/deployments',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    qualified: 'deployments.apps',
    namespaced: true,
    extra: { spec: DEPLOYMENT_SPEC },
  },
  {
    title: 'cluster-scoped (storageclasses.storage.orch.io)',
    collection: '/apis/storage.orch.io/v1/storageclasses',
    apiVersion: 'storage.orch.io/v1',
    kind: 'StorageClass',
    qualified: 'storageclasses.storage.orch.io',
    namespaced: false,
    extra: { provisioner: 'example.com/p' },
  },
  {
    title: 'cluster-scoped core (namespaces)',
    collection: '/api/v1/namespaces',
    apiVersion: 'v1',
    kind: 'Namespace',
    qualified: 'namespaces',
    namespaced: false,
    extra: {},
  },
];

describe('CRUD on every kind of path', () => {
  for (const t of TYPES) {
    describe(t.title, () => {
      const name = `crud-${t.kind.toLowerCase()}`;
      const item = `${t.collection}/${name}`;

      it('create answers 201 with server fields set, and the object reads back', async () => {
        const created = assertOk(
          await call('POST', t.collection, { apiVersion: t.apiVersion, kind: t.kind, metadata: { name, labels: { app: 'crud' } }, ...t.extra }),
          201,
        );
        assert.equal(created.apiVersion, t.apiVersion);
        assert.equal(created.kind, t.kind);
        assert.equal(created.metadata.name, name);
        if (t.namespaced) assert.equal(created.metadata.namespace, 'default');
        else assert.equal(created.metadata.namespace, undefined);
        assert.match(created.metadata.uid, /^[0-9a-f-]{36}$/);
        assert.ok(created.metadata.resourceVersion, 'resourceVersion set');
        assert.ok(Math.abs(Date.parse(created.metadata.creationTimestamp) - Date.now()) < 60_000);
        const got = assertOk(await call('GET', item));
        assert.equal(got.metadata.uid, created.metadata.uid);
        assert.equal(got.metadata.resourceVersion, created.metadata.resourceVersion);
        assert.deepEqual(userLabels(got), { app: 'crud' });
      });

      it('list returns the object in a <Kind>List with a resourceVersion', async () => {
        const list = assertOk(await call('GET', t.collection));
        assert.equal(list.kind, `${t.kind}List`);
        assert.equal(list.apiVersion, t.apiVersion);
        assert.ok(list.metadata.resourceVersion);
        assert.ok(list.items.some((i: any) => i.metadata.name === name));
        for (const i of list.items) {
          assert.equal(i.kind, t.kind);
          assert.equal(i.apiVersion, t.apiVersion);
        }
        if (t.allNamespaces) {
          const all = assertOk(await call('GET', t.allNamespaces));
          assert.ok(all.items.some((i: any) => i.metadata.name === name && i.metadata.namespace === 'default'));
        }
      });

      it('update (PUT) replaces the object and moves its resourceVersion', async () => {
        const cur = assertOk(await call('GET', item));
        cur.metadata.labels = { app: 'crud', updated: 'yes' };
        const upd = assertOk(await call('PUT', item, cur));
        assert.deepEqual(userLabels(upd), { app: 'crud', updated: 'yes' });
        assert.notEqual(upd.metadata.resourceVersion, cur.metadata.resourceVersion);
        assert.equal(upd.metadata.uid, cur.metadata.uid);
        assert.equal(upd.metadata.creationTimestamp, cur.metadata.creationTimestamp);
        assert.deepEqual(userLabels(assertOk(await call('GET', item))), { app: 'crud', updated: 'yes' });
      });

      it('merge patch changes only what it names', async () => {
        const p = assertOk(await call('PATCH', item, { metadata: { labels: { merged: 'true', updated: null } } }, MERGE));
        assert.deepEqual(userLabels(p), { app: 'crud', merged: 'true' });
      });

      it('JSON patch applies its operations in order', async () => {
        const p = assertOk(
          await call(
            'PATCH',
            item,
            [
              { op: 'add', path: '/metadata/annotations', value: { 'example.com/a': 'x' } },
              { op: 'replace', path: '/metadata/labels/merged', value: 'json' },
              { op: 'remove', path: '/metadata/labels/app' },
            ],
            JSON_PATCH,
          ),
        );
        assert.deepEqual(userLabels(p), { merged: 'json' });
        assert.deepEqual(p.metadata.annotations, { 'example.com/a': 'x' });
        // A failing `test` operation changes nothing (422, as upstream).
        const before = assertOk(await call('GET', item));
        assertStatus(
          await call(
            'PATCH',
            item,
            [
              { op: 'test', path: '/metadata/labels/merged', value: 'nope' },
              { op: 'remove', path: '/metadata/labels' },
            ],
            JSON_PATCH,
          ),
          422,
          'Invalid',
        );
        assert.equal(assertOk(await call('GET', item)).metadata.resourceVersion, before.metadata.resourceVersion);
      });

      it('delete answers a Success Status with details, then get is 404 NotFound', async () => {
        const cur = assertOk(await call('GET', item));
        const r = await call('DELETE', item);
        if (t.kind === 'Namespace') {
          // Namespaces finalize first (covered in api-deletion); they answer the Terminating object.
          assert.equal(assertOk(r).status.phase, 'Terminating');
          return;
        }
        const s = assertOk(r);
        assert.equal(s.kind, 'Status');
        assert.equal(s.status, 'Success');
        assert.equal(s.details.name, name);
        assert.equal(s.details.uid, cur.metadata.uid);
        const nf = assertStatus(await call('GET', item), 404, 'NotFound');
        assert.equal(nf.message, `${t.qualified} "${name}" not found`);
        assert.equal(nf.details.name, name);
      });

      it('get, update, patch and delete of a missing object are 404', async () => {
        const missing = `${t.collection}/does-not-exist`;
        assertStatus(await call('GET', missing), 404, 'NotFound');
        assertStatus(await call('PUT', missing, { metadata: { name: 'does-not-exist' }, ...t.extra }), 404, 'NotFound');
        assertStatus(await call('PATCH', missing, { metadata: { labels: { a: 'b' } } }, MERGE), 404, 'NotFound');
        assertStatus(await call('DELETE', missing), 404, 'NotFound');
      });
    });
  }
});

describe('create', () => {
  const CM = '/api/v1/namespaces/default/configmaps';

  it('generateName gives a random suffix, different on each create', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const o = assertOk(await call('POST', CM, { metadata: { generateName: 'gen-' } }), 201);
      assert.match(o.metadata.name, /^gen-[a-z0-9]{5}$/);
      assert.equal(o.metadata.generateName, 'gen-');
      names.add(o.metadata.name);
      assertOk(await call('GET', `${CM}/${o.metadata.name}`));
    }
    assert.equal(names.size, 5);
  });

  it('a given name wins over generateName', async () => {
    const o = assertOk(await call('POST', CM, { metadata: { name: 'given-name', generateName: 'gen-' } }), 201);
    assert.equal(o.metadata.name, 'given-name');
  });

  it('uid, creationTimestamp, resourceVersion and generation sent by the client are ignored', async () => {
    const o = assertOk(
      await call('POST', '/apis/apps/v1/namespaces/default/deployments', {
        metadata: {
          name: 'server-owned',
          uid: 'client-uid',
          creationTimestamp: '2001-01-01T00:00:00Z',
          resourceVersion: '424242',
          generation: 42,
          deletionTimestamp: '2001-01-01T00:00:00Z',
        },
        spec: DEPLOYMENT_SPEC,
      }),
      201,
    );
    assert.notEqual(o.metadata.uid, 'client-uid');
    assert.match(o.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.notEqual(o.metadata.creationTimestamp, '2001-01-01T00:00:00Z');
    assert.ok(Math.abs(Date.parse(o.metadata.creationTimestamp) - Date.now()) < 60_000);
    assert.notEqual(o.metadata.resourceVersion, '424242');
    assert.equal(o.metadata.generation, 1);
    assert.equal(o.metadata.deletionTimestamp, undefined);
    const got = assertOk(await call('GET', '/apis/apps/v1/namespaces/default/deployments/server-owned'));
    assert.equal(got.metadata.uid, o.metadata.uid);
    assert.equal(got.metadata.resourceVersion, o.metadata.resourceVersion);
  });

  it('an update ignores a client creationTimestamp, generation and deletionTimestamp', async () => {
    const o = assertOk(await call('POST', CM, { metadata: { name: 'immutable-meta' } }), 201);
    const u = assertOk(
      await call('PUT', `${CM}/immutable-meta`, {
        metadata: { name: 'immutable-meta', creationTimestamp: '2001-01-01T00:00:00Z', generation: 9, deletionTimestamp: '2001-01-01T00:00:00Z' },
        data: { x: 'y' },
      }),
    );
    assert.equal(u.metadata.creationTimestamp, o.metadata.creationTimestamp);
    assert.equal(u.metadata.deletionTimestamp, undefined);
    assert.equal(u.metadata.uid, o.metadata.uid);
    const got = assertOk(await call('GET', `${CM}/immutable-meta`));
    assert.equal(got.metadata.creationTimestamp, o.metadata.creationTimestamp);
    assert.equal(got.metadata.deletionTimestamp, undefined);
    assert.equal(got.data.x, 'y');
  });

  it('a uid in an update is a precondition: another uid is 409 Conflict (a stale copy of a recreated object)', async () => {
    const old = assertOk(await call('POST', CM, { metadata: { name: 'recreated' }, data: { v: 'old' } }), 201);
    assertOk(await call('DELETE', `${CM}/recreated`));
    const fresh = assertOk(await call('POST', CM, { metadata: { name: 'recreated' }, data: { v: 'new' } }), 201);
    const stale = { metadata: { name: 'recreated', uid: old.metadata.uid }, data: { v: 'stale' } };
    const s = assertStatus(await call('PUT', `${CM}/recreated`, stale), 409, 'Conflict');
    assert.match(
      s.message,
      new RegExp(
        `^Operation cannot be fulfilled on configmaps "recreated": .*Precondition failed: UID in precondition: ${old.metadata.uid}, UID in object meta: ${fresh.metadata.uid}`,
      ),
    );
    const p = await call('PATCH', `${CM}/recreated`, { metadata: { uid: old.metadata.uid }, data: { v: 'stale' } }, MERGE);
    assert.ok(p.status === 409 || p.status === 422, `patch changing uid is refused: ${p.status} ${p.text}`);
    const got = assertOk(await call('GET', `${CM}/recreated`));
    assert.equal(got.metadata.uid, fresh.metadata.uid);
    assert.equal(got.data.v, 'new');
    // The matching uid is fine.
    assert.equal(assertOk(await call('PUT', `${CM}/recreated`, { metadata: { name: 'recreated', uid: fresh.metadata.uid }, data: { v: 'ok' } })).data.v, 'ok');
  });

  it('a second create of the same name is 409 AlreadyExists', async () => {
    assertOk(await call('POST', CM, { metadata: { name: 'dup' } }), 201);
    const s = assertStatus(await call('POST', CM, { metadata: { name: 'dup' } }), 409, 'AlreadyExists');
    assert.equal(s.message, 'configmaps "dup" already exists');
    assert.equal(s.details.name, 'dup');
    assert.equal(s.details.kind, 'configmaps');
    const s2 = assertStatus(await call('POST', '/api/v1/namespaces', { metadata: { name: 'default' } }), 409, 'AlreadyExists');
    assert.equal(s2.message, 'namespaces "default" already exists');
  });

  it('the same name in another namespace is a different object', async () => {
    assertOk(await call('POST', '/api/v1/namespaces', { metadata: { name: 'crud-other' } }), 201);
    assertOk(await call('POST', '/api/v1/namespaces/crud-other/configmaps', { metadata: { name: 'dup' } }), 201);
  });

  it('kind or apiVersion not matching the URL is 400', async () => {
    const cases: [string, unknown][] = [
      ['wrong kind', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'k1' } }],
      ['wrong apiVersion', { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'k2' } }],
      ['unknown version', { apiVersion: 'v2', kind: 'ConfigMap', metadata: { name: 'k3' } }],
    ];
    for (const [what, body] of cases) {
      const r = await call('POST', CM, body);
      assert.equal(r.status, 400, `${what}: ${r.text}`);
      assert.equal(r.json.reason, 'BadRequest');
    }
    assertOk(await call('POST', CM, { metadata: { name: 'k4' } }), 201);
    for (const [what, body] of cases) {
      const r = await call('PUT', `${CM}/k4`, { ...(body as object), metadata: { name: 'k4' } });
      assert.equal(r.status, 400, `PUT ${what}: ${r.text}`);
    }
    assertStatus(
      await call('POST', '/apis/apps/v1/namespaces/default/deployments', { apiVersion: 'extensions/v1beta1', kind: 'Deployment', metadata: { name: 'k5' } }),
      400,
      'BadRequest',
    );
  });

  it('a body that is not an object is 400', async () => {
    for (const body of ['[]', '"x"', '5', 'null', 'true']) {
      assertStatus(await request(cluster, 'POST', CM, { body }), 400, 'BadRequest');
    }
  });
});

describe('update conflicts and generation', () => {
  const CM = '/api/v1/namespaces/default/configmaps';
  const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

  it('a stale resourceVersion on PUT is 409 Conflict with upstream message', async () => {
    const o = assertOk(await call('POST', CM, { metadata: { name: 'x' }, data: { v: '1' } }), 201);
    const stale = structuredClone(o);
    o.data.v = '2';
    assertOk(await call('PUT', `${CM}/x`, o));
    stale.data.v = '3';
    const s = assertStatus(await call('PUT', `${CM}/x`, stale), 409, 'Conflict');
    assert.equal(
      s.message,
      'Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again',
    );
    assert.equal(s.details.name, 'x');
    assert.equal(s.details.kind, 'configmaps');
    assert.equal(assertOk(await call('GET', `${CM}/x`)).data.v, '2');
  });

  it('a stale resourceVersion in a merge patch is 409 Conflict', async () => {
    const o = assertOk(await call('GET', `${CM}/x`));
    assertOk(await call('PATCH', `${CM}/x`, { data: { v: '4' } }, MERGE));
    const s = assertStatus(
      await call('PATCH', `${CM}/x`, { metadata: { resourceVersion: o.metadata.resourceVersion }, data: { v: '5' } }, MERGE),
      409,
      'Conflict',
    );
    assert.match(s.message, /^Operation cannot be fulfilled on configmaps "x": the object has been modified/);
  });

  it('a stale resourceVersion on a named-group type names the group', async () => {
    const o = assertOk(await call('POST', DEPLOY, { metadata: { name: 'conflict' }, spec: DEPLOYMENT_SPEC }), 201);
    assertOk(await call('PATCH', `${DEPLOY}/conflict`, { spec: { replicas: 2 } }, MERGE));
    const s = assertStatus(await call('PUT', `${DEPLOY}/conflict`, o), 409, 'Conflict');
    assert.equal(
      s.message,
      'Operation cannot be fulfilled on deployments.apps "conflict": the object has been modified; please apply your changes to the latest version and try again',
    );
    assert.equal(s.details.group, 'apps');
  });

  it('an update without resourceVersion is unconditional', async () => {
    const r = assertOk(await call('PUT', `${CM}/x`, { metadata: { name: 'x' }, data: { v: 'unconditional' } }));
    assert.equal(r.data.v, 'unconditional');
  });

  it('the name in the body must match the URL', async () => {
    assertStatus(await call('PUT', `${CM}/x`, { metadata: { name: 'y' } }), 400, 'BadRequest');
  });

  it('metadata.generation starts at 1 and increments only when the spec changes', async () => {
    let d = assertOk(await call('POST', DEPLOY, { metadata: { name: 'gen' }, spec: DEPLOYMENT_SPEC }), 201);
    assert.equal(d.metadata.generation, 1);
    const steps: [string, () => Promise<RawResponse>, number][] = [
      ['PUT label only', async () => call('PUT', `${DEPLOY}/gen`, { ...d, metadata: { ...d.metadata, labels: { a: 'b' } } }), 1],
      ['PUT spec change', async () => call('PUT', `${DEPLOY}/gen`, { ...d, spec: { ...d.spec, replicas: 2 } }), 2],
      ['PUT identical', async () => call('PUT', `${DEPLOY}/gen`, d), 2],
      // A Deployment's annotations are copied to its ReplicaSets: changing them is a new generation upstream.
      ['merge patch annotation', async () => call('PATCH', `${DEPLOY}/gen`, { metadata: { annotations: { x: 'y' } } }, MERGE), 3],
      ['merge patch spec', async () => call('PATCH', `${DEPLOY}/gen`, { spec: { paused: true } }, MERGE), 4],
      ['JSON patch spec', async () => call('PATCH', `${DEPLOY}/gen`, [{ op: 'replace', path: '/spec/replicas', value: 5 }], JSON_PATCH), 5],
      ['status write', async () => call('PUT', `${DEPLOY}/gen/status`, { ...d, status: { replicas: 5 } }), 5],
      ['client-sent generation ignored', async () => call('PATCH', `${DEPLOY}/gen`, { metadata: { generation: 100 } }, MERGE), 5],
    ];
    for (const [what, step, expected] of steps) {
      d = assertOk(await step());
      assert.equal(d.metadata.generation, expected, what);
      delete d.metadata.resourceVersion;
    }
  });
});

describe('status subresource', () => {
  const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

  it('create drops a client-sent status', async () => {
    const d = assertOk(await call('POST', DEPLOY, { metadata: { name: 'st' }, spec: DEPLOYMENT_SPEC, status: { replicas: 7 } }), 201);
    assert.equal(d.status?.replicas, undefined);
  });

  it('PUT /status changes only status', async () => {
    const d = assertOk(await call('GET', `${DEPLOY}/st`));
    const u = assertOk(
      await call('PUT', `${DEPLOY}/st/status`, {
        ...d,
        metadata: { ...d.metadata, labels: { sneaky: 'yes' } },
        spec: { replicas: 9 },
        status: { replicas: 3 },
      }),
    );
    assert.deepEqual(u.status, { replicas: 3 });
    assert.equal(u.spec.replicas, 1);
    assert.equal(u.metadata.labels, undefined);
    const got = assertOk(await call('GET', `${DEPLOY}/st`));
    assert.deepEqual(got.status, { replicas: 3 });
    assert.equal(got.spec.replicas, 1);
    assert.equal(got.metadata.labels, undefined);
  });

  it('GET /status answers the object', async () => {
    const s = assertOk(await call('GET', `${DEPLOY}/st/status`));
    assert.equal(s.kind, 'Deployment');
    assert.deepEqual(s.status, { replicas: 3 });
  });

  it('PATCH /status changes only status', async () => {
    const u = assertOk(await call('PATCH', `${DEPLOY}/st/status`, { spec: { replicas: 50 }, status: { readyReplicas: 1 } }, MERGE));
    assert.deepEqual(u.status, { replicas: 3, readyReplicas: 1 });
    assert.equal(u.spec.replicas, 1);
  });

  it('a main-resource PUT or PATCH ignores status', async () => {
    const d = assertOk(await call('GET', `${DEPLOY}/st`));
    const u = assertOk(await call('PUT', `${DEPLOY}/st`, { ...d, spec: { ...d.spec, replicas: 2 }, status: { replicas: 99 } }));
    assert.equal(u.spec.replicas, 2);
    assert.deepEqual(u.status, { replicas: 3, readyReplicas: 1 });
    const p = assertOk(await call('PATCH', `${DEPLOY}/st`, { status: { replicas: 100 } }, MERGE));
    assert.deepEqual(p.status, { replicas: 3, readyReplicas: 1 });
    assert.deepEqual(assertOk(await call('GET', `${DEPLOY}/st`)).status, { replicas: 3, readyReplicas: 1 });
  });

  it('a stale resourceVersion on PUT /status is 409 Conflict', async () => {
    const d = assertOk(await call('GET', `${DEPLOY}/st`));
    assertOk(await call('PATCH', `${DEPLOY}/st/status`, { status: { replicas: 4 } }, MERGE));
    assertStatus(await call('PUT', `${DEPLOY}/st/status`, { ...d, status: { replicas: 5 } }), 409, 'Conflict');
  });

  it('a type without status has no status subresource (404)', async () => {
    assertOk(await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'nostatus' } }), 201);
    assertStatus(await call('GET', '/api/v1/namespaces/default/configmaps/nostatus/status'), 404, 'NotFound');
  });
});

describe('ObjectMeta validation', () => {
  const CM = '/api/v1/namespaces/default/configmaps';

  const invalidNames: [string, string, string, string][] = [
    // [title, collection, name, why]
    ['configmap with upper case', CM, 'Upper', 'subdomain'],
    ['configmap with underscore', CM, 'a_b', 'subdomain'],
    ['configmap starting with a dash', CM, '-a', 'subdomain'],
    ['configmap ending with a dot', CM, 'a.', 'subdomain'],
    ['configmap of 254 characters', CM, 'a'.repeat(254), 'subdomain'],
    ['namespace with a dot (DNS label)', '/api/v1/namespaces', 'a.b', 'label'],
    ['namespace of 64 characters', '/api/v1/namespaces', 'a'.repeat(64), 'label'],
    ['namespace with upper case', '/api/v1/namespaces', 'Abc', 'label'],
  ];
  for (const [title, collection, name, why] of invalidNames) {
    it(`rejects ${title} with 422 naming metadata.name`, async () => {
      const s = assertStatus(await call('POST', collection, { metadata: { name } }), 422, 'Invalid');
      // A namespace also gets its name as a label value, which is just as invalid (as upstream reports).
      const longNamespace = collection === '/api/v1/namespaces' && name.length > 63;
      assert.deepEqual(causeFields(s), longNamespace ? ['metadata.name', 'metadata.labels'] : ['metadata.name']);
      assert.match(s.message, why === 'label' ? /RFC 1123 label|must be no more than 63 characters/ : /RFC 1123 subdomain|must be no more than 253 characters/);
      assert.equal(s.details.name, name);
      assertStatus(await call('GET', `${collection}/${encodeURIComponent(name)}`), 404, 'NotFound');
    });
  }

  const validNames: [string, string, string][] = [
    ['configmap with dots and dashes', CM, 'a.b-c.d'],
    ['configmap starting with a digit', CM, '0abc'],
    ['configmap of 253 characters', CM, `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`],
    ['namespace of 63 characters', '/api/v1/namespaces', 'n'.repeat(63)],
  ];
  for (const [title, collection, name] of validNames) {
    it(`accepts ${title}`, async () => {
      assertOk(await call('POST', collection, { metadata: { name } }), 201);
    });
  }

  it('a missing name without generateName is 422 Required on metadata.name', async () => {
    const s = assertStatus(await call('POST', CM, { metadata: {} }), 422, 'Invalid');
    assert.deepEqual(causeFields(s), ['metadata.name']);
    assert.equal(s.details.causes[0].reason, 'FieldValueRequired');
    assert.match(s.message, /name or generateName is required/);
  });

  it('a generateName that cannot form a valid name is 422', async () => {
    const s = assertStatus(await call('POST', CM, { metadata: { generateName: 'Bad_' } }), 422, 'Invalid');
    assert.ok(causeFields(s).includes('metadata.generateName'), JSON.stringify(s.details));
  });

  const badMeta: [string, Record<string, unknown>, string][] = [
    ['label key with a space', { labels: { 'bad key': 'v' } }, 'metadata.labels'],
    ['label key with two slashes', { labels: { 'a/b/c': 'v' } }, 'metadata.labels'],
    ['label key prefix not a DNS subdomain', { labels: { 'Bad_Prefix/x': 'v' } }, 'metadata.labels'],
    ['label key name part over 63 characters', { labels: { ['k'.repeat(64)]: 'v' } }, 'metadata.labels'],
    ['label value over 63 characters', { labels: { k: 'v'.repeat(64) } }, 'metadata.labels'],
    ['label value starting with a dash', { labels: { k: '-v' } }, 'metadata.labels'],
    ['label value with a space', { labels: { k: 'a b' } }, 'metadata.labels'],
    ['annotation key with a space', { annotations: { 'bad key': 'v' } }, 'metadata.annotations'],
    ['annotation key with an empty prefix', { annotations: { '/x': 'v' } }, 'metadata.annotations'],
    ['annotations over 256 KiB in total', { annotations: { a: 'x'.repeat(128 * 1024), b: 'y'.repeat(128 * 1024) } }, 'metadata.annotations'],
    ['a single annotation over 256 KiB', { annotations: { k: 'x'.repeat(256 * 1024) } }, 'metadata.annotations'],
  ];
  for (const [title, meta, field] of badMeta) {
    it(`rejects a ${title} with 422 naming ${field}`, async () => {
      const s = assertStatus(await call('POST', CM, { metadata: { name: 'meta-bad', ...meta } }), 422, 'Invalid');
      assert.ok(causeFields(s).includes(field), `causes: ${JSON.stringify(s.details.causes)}`);
      assertStatus(await call('GET', `${CM}/meta-bad`), 404, 'NotFound');
    });
  }

  it('the annotation limit counts keys and values: exactly 256 KiB is accepted', async () => {
    const o = assertOk(await call('POST', CM, { metadata: { name: 'ann-limit', annotations: { k: 'x'.repeat(256 * 1024 - 1) } } }), 201);
    assert.equal(o.metadata.annotations.k.length, 256 * 1024 - 1);
    // ...and one more byte through an update is refused.
    const s = assertStatus(await call('PATCH', `${CM}/ann-limit`, { metadata: { annotations: { k2: '' } } }, MERGE), 422, 'Invalid');
    assert.ok(causeFields(s).includes('metadata.annotations'));
  });

  it('valid labels and annotations are accepted as sent', async () => {
    const labels = { 'example.com/app': 'web', tier: '', 'a-b_c.d': 'x.y-z_1' };
    const annotations = { 'example.com/anything': 'any value, with spaces & symbols: {}', plain: '' };
    const o = assertOk(await call('POST', CM, { metadata: { name: 'meta-good', labels, annotations } }), 201);
    assert.deepEqual(o.metadata.labels, labels);
    assert.deepEqual(o.metadata.annotations, annotations);
  });

  it('label validation also holds on update and patch', async () => {
    assertStatus(await call('PUT', `${CM}/meta-good`, { metadata: { name: 'meta-good', labels: { 'bad key': 'v' } } }), 422, 'Invalid');
    assertStatus(await call('PATCH', `${CM}/meta-good`, { metadata: { labels: { k: '-bad' } } }, MERGE), 422, 'Invalid');
  });

  it('metadata fields of the wrong JSON type are refused with a 4xx, never stored', async () => {
    const cases: Record<string, unknown>[] = [
      { labels: 'x' },
      { labels: ['x'] },
      { labels: { a: 5 } },
      { annotations: 'abc' },
      { annotations: { a: {} } },
      { finalizers: 'abc' },
      { finalizers: [1, {}] },
      { ownerReferences: 'abc' },
      { ownerReferences: [null] },
      { managedFields: 'abc' },
    ];
    for (const meta of cases) {
      const r = await call('POST', CM, { metadata: { name: 'meta-types', ...meta } });
      assert.ok(r.status === 400 || r.status === 422, `${JSON.stringify(meta)}: ${r.status} ${r.text.slice(0, 200)}`);
      assertStatus(await call('GET', `${CM}/meta-types`), 404, 'NotFound');
      const p = await call('PATCH', `${CM}/meta-good`, { metadata: meta }, MERGE);
      assert.ok(p.status === 400 || p.status === 422, `PATCH ${JSON.stringify(meta)}: ${p.status} ${p.text.slice(0, 200)}`);
    }
  });
});

describe('namespaces of namespaced objects', () => {
  it('create in a missing namespace is 404 namespaces "nope" not found', async () => {
    const s = assertStatus(await call('POST', '/api/v1/namespaces/nope/configmaps', { metadata: { name: 'a' } }), 404, 'NotFound');
    assert.equal(s.message, 'namespaces "nope" not found');
    assert.equal(s.details.name, 'nope');
    assert.equal(s.details.kind, 'namespaces');
  });

  it('a namespace in the body that differs from the URL is 400', async () => {
    assertStatus(await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'a', namespace: 'orch-system' } }), 400, 'BadRequest');
  });

  it('a body without namespace takes the URL namespace', async () => {
    const o = assertOk(await call('POST', '/api/v1/namespaces/orch-public/configmaps', { metadata: { name: 'ns-from-url' } }), 201);
    assert.equal(o.metadata.namespace, 'orch-public');
  });

  it('a namespaced type cannot be created without a namespace in the path', async () => {
    const r = await call('POST', '/api/v1/configmaps', { metadata: { name: 'a', namespace: 'default' } });
    assert.ok(r.status === 404 || r.status === 405, `${r.status} ${r.text}`);
    assertStatus(await call('GET', '/api/v1/namespaces/default/configmaps/a'), 404, 'NotFound');
  });

  it('a cluster-scoped object drops a namespace sent in the body', async () => {
    const o = assertOk(
      await call('POST', '/apis/storage.orch.io/v1/storageclasses', { metadata: { name: 'sc-ns', namespace: 'default' }, provisioner: 'x' }),
      201,
    );
    assert.equal(o.metadata.namespace, undefined);
  });
});

describe('dryRun', () => {
  const CM = '/api/v1/namespaces/default/configmaps';

  before(async () => {
    assertOk(await call('POST', CM, { metadata: { name: 'dry' }, data: { v: '1' } }), 201);
  });

  async function current(): Promise<any> {
    return assertOk(await call('GET', `${CM}/dry`));
  }

  it('create with dryRun=All validates, answers the object and stores nothing', async () => {
    const o = assertOk(await call('POST', `${CM}?dryRun=All`, { metadata: { name: 'dry-new' } }), 201);
    assert.equal(o.metadata.name, 'dry-new');
    assertStatus(await call('GET', `${CM}/dry-new`), 404, 'NotFound');
    // It still runs validation and admission.
    assertStatus(await call('POST', `${CM}?dryRun=All`, { metadata: { name: 'Bad_Name' } }), 422, 'Invalid');
    assertStatus(await call('POST', `${CM}?dryRun=All`, { metadata: { name: 'dry' } }), 409, 'AlreadyExists');
    assertStatus(await call('POST', '/api/v1/namespaces/nope/configmaps?dryRun=All', { metadata: { name: 'x' } }), 404, 'NotFound');
  });

  it('update with dryRun=All answers the new object and stores nothing', async () => {
    const before = await current();
    const o = assertOk(await call('PUT', `${CM}/dry?dryRun=All`, { ...before, data: { v: '2' } }));
    assert.equal(o.data.v, '2');
    const after = await current();
    assert.equal(after.data.v, '1');
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it('patch with dryRun=All answers the patched object and stores nothing', async () => {
    const before = await current();
    assert.equal(assertOk(await call('PATCH', `${CM}/dry?dryRun=All`, { data: { v: '3' } }, MERGE)).data.v, '3');
    assert.equal(assertOk(await call('PATCH', `${CM}/dry?dryRun=All`, [{ op: 'replace', path: '/data/v', value: '4' }], JSON_PATCH)).data.v, '4');
    const after = await current();
    assert.equal(after.data.v, '1');
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it('delete with dryRun=All deletes nothing', async () => {
    const before = await current();
    assertOk(await call('DELETE', `${CM}/dry?dryRun=All`));
    const after = await current();
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it('deletecollection with dryRun=All deletes nothing', async () => {
    assertOk(await call('DELETE', `${CM}?dryRun=All`));
    assertOk(await call('GET', `${CM}/dry`));
  });

  for (const value of ['true', 'all', 'None', '', 'All,x']) {
    it(`dryRun=${JSON.stringify(value)} is 400 on every write`, async () => {
      const q = `dryRun=${encodeURIComponent(value)}`;
      const writes: [string, string, unknown, Record<string, string>?][] = [
        ['POST', `${CM}?${q}`, { metadata: { name: 'dry-bad' } }],
        ['PUT', `${CM}/dry?${q}`, { metadata: { name: 'dry' }, data: { v: 'bad' } }],
        ['PATCH', `${CM}/dry?${q}`, { data: { v: 'bad' } }, MERGE],
        ['DELETE', `${CM}/dry?${q}`, undefined],
        ['DELETE', `${CM}?${q}`, undefined],
      ];
      for (const [method, path, body, headers] of writes) {
        const r = await call(method, path, body, headers);
        assert.equal(r.status, 400, `${method} ${path}: ${r.text}`);
        assert.equal(r.json.reason, 'BadRequest');
      }
      assertStatus(await call('GET', `${CM}/dry-bad`), 404, 'NotFound');
      assert.equal((await current()).data.v, '1');
    });
  }
});

describe('deletecollection', () => {
  const NS = 'crud-dc';
  const CM = `/api/v1/namespaces/${NS}/configmaps`;

  before(async () => {
    assertOk(await call('POST', '/api/v1/namespaces', { metadata: { name: NS } }), 201);
    const objs: [string, Record<string, string>][] = [
      ['a', { app: 'x' }],
      ['b', { app: 'x' }],
      ['c', { app: 'y' }],
      ['d', {}],
    ];
    for (const [name, labels] of objs) assertOk(await call('POST', CM, { metadata: { name, labels } }), 201);
    assertOk(await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'dc-elsewhere', labels: { app: 'x' } } }), 201);
  });

  it('deletes exactly what the label selector selects, in that namespace only', async () => {
    const deleted = assertOk(await call('DELETE', `${CM}?labelSelector=${encodeURIComponent('app=x')}`));
    // Answered with the list of what it deleted, as upstream.
    assert.equal(deleted.kind, 'ConfigMapList');
    assert.deepEqual(deleted.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`).sort(), [`${NS}/a`, `${NS}/b`]);
    const names = assertOk(await call('GET', CM))
      .items.map((i: any) => i.metadata.name)
      .sort();
    assert.deepEqual(names, ['c', 'd']);
    assertOk(await call('GET', '/api/v1/namespaces/default/configmaps/dc-elsewhere'));
  });

  it('a field selector narrows it too', async () => {
    assertOk(await call('DELETE', `${CM}?fieldSelector=${encodeURIComponent('metadata.name=c')}`));
    assert.deepEqual(
      assertOk(await call('GET', CM)).items.map((i: any) => i.metadata.name),
      ['d'],
    );
  });

  it('a bad selector is 400 and deletes nothing', async () => {
    assertStatus(await call('DELETE', `${CM}?labelSelector=${encodeURIComponent('app in (x')}`), 400, 'BadRequest');
    assertStatus(await call('DELETE', `${CM}?fieldSelector=${encodeURIComponent('spec.bogus=1')}`), 400, 'BadRequest');
    assert.equal(assertOk(await call('GET', CM)).items.length, 1);
  });

  it('without selectors deletes everything in the namespace', async () => {
    assertOk(await call('DELETE', CM));
    assert.equal(assertOk(await call('GET', CM)).items.length, 0);
  });

  it('a type without deletecollection (namespaces) answers 405', async () => {
    assertStatus(await call('DELETE', '/api/v1/namespaces'), 405, 'MethodNotAllowed');
    assertOk(await call('GET', '/api/v1/namespaces/default'));
  });
});
