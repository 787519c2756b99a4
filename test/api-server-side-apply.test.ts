// Server-side apply and field ownership over HTTP: every row of the spec's "Field ownership"
// table, managedFields on every write, and upstream's apply options, errors and rules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request, startTestCluster, type RawResponse, type TestCluster } from './helpers/cluster.js';

const APPLY = 'application/apply-patch+yaml';
const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

type Entry = {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: string;
  fieldsType: string;
  fieldsV1: Record<string, unknown>;
  subresource?: string;
};

function entries(r: RawResponse): Entry[] {
  return (r.json?.metadata?.managedFields ?? []) as Entry[];
}

/** `manager/Operation[/subresource]: fieldsV1` per entry, in the server's order. */
function owners(r: RawResponse): string[] {
  return entries(r).map((e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}: ${JSON.stringify(e.fieldsV1)}`);
}

function configMap(name: string, data: Record<string, string>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data };
}

function deployment(name: string, spec: Record<string, unknown>, containers: Array<Record<string, unknown>> = [{ name: 'web', image: 'nginx:1' }]) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers } }, ...spec },
  };
}

describe('server-side apply and field ownership', () => {
  let cluster: TestCluster;
  const apply = (path: string, manager: string | undefined, body: unknown, query = '') =>
    request(cluster, 'PATCH', `${path}?${manager === undefined ? '' : `fieldManager=${manager}&`}${query}`, {
      headers: { 'content-type': APPLY },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const get = (path: string) => request(cluster, 'GET', path);

  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory' });
  });
  after(() => cluster.close());

  describe('the Field ownership table', () => {
    it('a write (POST, PUT, non-apply PATCH) by B moves ownership to B', async () => {
      const created = await request(cluster, 'POST', `${CM}?fieldManager=alice`, { body: configMap('own-write', { a: '1', b: '2' }) });
      assert.equal(created.status, 201);
      assert.deepEqual(owners(created), ['alice/Update: {"f:data":{".":{},"f:a":{},"f:b":{}}}']);
      assert.equal(entries(created)[0].apiVersion, 'v1');
      assert.match(entries(created)[0].time ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

      // PUT without fieldManager: the manager is the User-Agent's product.
      const put = await request(cluster, 'PUT', `${CM}/own-write`, {
        headers: { 'user-agent': 'bob-controller/v2.0 (linux/amd64)' },
        body: { ...configMap('own-write', { a: '9', b: '2' }), metadata: { name: 'own-write', managedFields: created.json.metadata.managedFields } },
      });
      assert.equal(put.status, 200);
      assert.deepEqual(owners(put), ['alice/Update: {"f:data":{".":{},"f:b":{}}}', 'bob-controller/Update: {"f:data":{"f:a":{}}}']);

      const patched = await request(cluster, 'PATCH', `${CM}/own-write?fieldManager=carol`, {
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { data: { b: '3' } },
      });
      assert.equal(patched.status, 200);
      // alice still owns the data map itself (its `.`), which she created.
      assert.deepEqual(owners(patched), ['alice/Update: {"f:data":{}}', 'bob-controller/Update: {"f:data":{"f:a":{}}}', 'carol/Update: {"f:data":{"f:b":{}}}']);
    });

    it('apply by B of a different value is a 409 conflict naming each field', async () => {
      assert.equal((await apply(DEPLOY + '/conflict', 'alice', deployment('conflict', { replicas: 2 }))).status, 201);
      const r = await apply(DEPLOY + '/conflict', 'bob', deployment('conflict', { replicas: 3 }, [{ name: 'web', image: 'nginx:2' }]));
      assert.equal(r.status, 409);
      assert.equal(r.json.reason, 'Conflict');
      assert.equal(
        r.json.message,
        'Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.replicas\n- .spec.template.spec.containers[name="web"].image',
      );
      assert.deepEqual(r.json.details.causes, [
        { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' },
        { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.template.spec.containers[name="web"].image' },
      ]);
      const one = await apply(DEPLOY + '/conflict', 'bob', deployment('conflict', { replicas: 3 }, [{ name: 'web', image: 'nginx:1' }]));
      assert.equal(one.json.message, 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
      assert.equal((await get(DEPLOY + '/conflict')).json.spec.replicas, 2);
    });

    it('conflicts with an updater name its version', async () => {
      await apply(`${CM}/conflict-update`, 'alice', configMap('conflict-update', { a: '1' }));
      await request(cluster, 'PATCH', `${CM}/conflict-update?fieldManager=kube-controller`, {
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { data: { b: '2' } },
      });
      const r = await apply(`${CM}/conflict-update`, 'alice', configMap('conflict-update', { a: '1', b: '3' }));
      assert.equal(r.status, 409);
      assert.equal(r.json.message, 'Apply failed with 1 conflict: conflict with "kube-controller" using v1: .data.b');
      assert.equal(r.json.details.causes[0].message, 'conflict with "kube-controller" using v1');
    });

    it('force=true overwrites the value and takes the field from every other manager', async () => {
      await apply(`${CM}/forced`, 'alice', configMap('forced', { a: '1', keep: 'x' }));
      await apply(`${CM}/forced`, 'bob', configMap('forced', { a: '1' }));
      const r = await apply(`${CM}/forced`, 'carol', configMap('forced', { a: '2' }), 'force=true');
      assert.equal(r.status, 200);
      assert.equal(r.json.data.a, '2');
      assert.deepEqual(
        owners(r).map((o) => o.replace(/^(\w+)\/Apply: /, '$1 ')),
        ['alice {"f:data":{"f:keep":{}}}', 'carol {"f:data":{"f:a":{}}}'],
      );
    });

    it('the same value applied by two managers is shared; a later change by either conflicts', async () => {
      await apply(`${CM}/shared`, 'alice', configMap('shared', { a: '1' }));
      const shared = await apply(`${CM}/shared`, 'bob', configMap('shared', { a: '1' }));
      assert.deepEqual(owners(shared).sort(), ['alice/Apply: {"f:data":{"f:a":{}}}', 'bob/Apply: {"f:data":{"f:a":{}}}']);
      assert.equal(
        (await apply(`${CM}/shared`, 'alice', configMap('shared', { a: '2' }))).json.message,
        'Apply failed with 1 conflict: conflict with "bob": .data.a',
      );
      assert.equal(
        (await apply(`${CM}/shared`, 'bob', configMap('shared', { a: '2' }))).json.message,
        'Apply failed with 1 conflict: conflict with "alice": .data.a',
      );
    });

    it('a sole owner that stops applying a field removes it, or resets it to its default', async () => {
      await apply(`${CM}/sole`, 'alice', configMap('sole', { a: '1', b: '2' }, { labels: { x: '1', y: '2' } }));
      const r = await apply(`${CM}/sole`, 'alice', configMap('sole', { a: '1' }, { labels: { x: '1' } }));
      assert.deepEqual(r.json.data, { a: '1' });
      assert.deepEqual(r.json.metadata.labels, { x: '1' });
      assert.deepEqual(owners(r), ['alice/Apply: {"f:data":{"f:a":{}},"f:metadata":{"f:labels":{"f:x":{}}}}']);

      await apply(`${DEPLOY}/sole`, 'alice', deployment('sole', { replicas: 4, minReadySeconds: 5 }));
      const d = await apply(`${DEPLOY}/sole`, 'alice', deployment('sole', {}));
      assert.equal(d.status, 200);
      // replicas has a default (1); minReadySeconds has none and is gone.
      assert.equal(d.json.spec.replicas, 1);
      assert.equal(d.json.spec.minReadySeconds, undefined);
    });

    it('lists and maps are handled per item: keyed items, set items, granular map keys', async () => {
      const containers = [
        { name: 'a', image: 'a:1', ports: [{ containerPort: 80, protocol: 'TCP' }] },
        { name: 'b', image: 'b:1' },
      ];
      const created = await apply(`${DEPLOY}/items`, 'alice', {
        ...deployment('items', {}, containers),
        metadata: { name: 'items', finalizers: ['example.com/a', 'example.com/b'], annotations: { one: '1', two: '2' } },
      });
      assert.equal(created.status, 201);
      const fields = entries(created)[0].fieldsV1 as Record<string, any>;
      assert.deepEqual(fields['f:metadata'], {
        'f:annotations': { 'f:one': {}, 'f:two': {} },
        'f:finalizers': { 'v:"example.com/a"': {}, 'v:"example.com/b"': {} },
      });
      assert.deepEqual(fields['f:spec']['f:selector'], {});
      assert.deepEqual(Object.keys(fields['f:spec']['f:template']['f:spec']['f:containers']), ['k:{"name":"a"}', 'k:{"name":"b"}']);
      assert.deepEqual(fields['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"a"}']['f:ports'], {
        'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} },
      });

      const r = await apply(`${DEPLOY}/items`, 'alice', {
        ...deployment('items', {}, [{ name: 'a', image: 'a:1' }]),
        metadata: { name: 'items', finalizers: ['example.com/b'], annotations: { two: '2' } },
      });
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.json.spec.template.spec.containers.map((c: { name: string }) => c.name),
        ['a'],
      );
      assert.equal(r.json.spec.template.spec.containers[0].ports, undefined);
      assert.deepEqual(r.json.metadata.finalizers, ['example.com/b']);
      assert.deepEqual(r.json.metadata.annotations, { two: '2' });
      // Clean up the finalizer so the namespace can go.
      await apply(`${DEPLOY}/items`, 'alice', { ...deployment('items', {}, [{ name: 'a', image: 'a:1' }]), metadata: { name: 'items' } });
    });

    it('an atomic list or map is owned, replaced and conflicts as a whole', async () => {
      const spec = { nodeSelector: { disk: 'ssd', zone: 'a' }, containers: [{ name: 'w', image: 'i', args: ['x', 'y'] }] };
      const body = (s: Record<string, unknown>) => ({
        ...deployment('atomic', {}),
        spec: { selector: { matchLabels: { app: 'atomic' } }, template: { metadata: { labels: { app: 'atomic' } }, spec: s } },
      });
      const r = await apply(`${DEPLOY}/atomic`, 'alice', body(spec));
      const pod = (entries(r)[0].fieldsV1 as any)['f:spec']['f:template']['f:spec'];
      assert.deepEqual(pod['f:nodeSelector'], {});
      assert.deepEqual(pod['f:containers']['k:{"name":"w"}']['f:args'], {});
      const c = await apply(`${DEPLOY}/atomic`, 'bob', body({ nodeSelector: { disk: 'ssd' }, containers: [{ name: 'w', image: 'i', args: ['x'] }] }));
      assert.equal(c.status, 409);
      assert.deepEqual(
        c.json.details.causes.map((x: { field: string }) => x.field),
        ['.spec.template.spec.nodeSelector', '.spec.template.spec.containers[name="w"].args'],
      );
    });

    it('a shared owner that stops applying leaves the value to the remaining owner', async () => {
      await apply(`${CM}/left`, 'alice', configMap('left', { a: '1', b: '1' }));
      await apply(`${CM}/left`, 'bob', configMap('left', { a: '1' }));
      const r = await apply(`${CM}/left`, 'alice', configMap('left', { b: '1' }));
      assert.deepEqual(r.json.data, { a: '1', b: '1' });
      assert.deepEqual(owners(r).sort(), ['alice/Apply: {"f:data":{"f:b":{}}}', 'bob/Apply: {"f:data":{"f:a":{}}}']);
    });

    it('a manager that ends up owning no fields is removed', async () => {
      await apply(`${CM}/emptied`, 'alice', configMap('emptied', { a: '1' }));
      const r = await request(cluster, 'PUT', `${CM}/emptied?fieldManager=bob`, { body: configMap('emptied', { a: '2' }) });
      assert.deepEqual(owners(r), ['bob/Update: {"f:data":{"f:a":{}}}']);
    });
  });

  describe('apply requests', () => {
    it('creates the object when it does not exist (201), from YAML', async () => {
      const r = await apply(`${CM}/from-yaml`, 'alice', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n');
      assert.equal(r.status, 201);
      assert.deepEqual(r.json.data, { k: 'v' });
      assert.deepEqual(owners(r), ['alice/Apply: {"f:data":{"f:k":{}}}']);
      assert.ok(r.json.metadata.uid);
      const again = await apply(`${CM}/from-yaml`, 'alice', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v2\n');
      assert.equal(again.status, 200);
      assert.equal(again.json.data.k, 'v2');
    });

    it('requires a fieldManager (422 on PatchOptions, as upstream)', async () => {
      const r = await apply(`${CM}/no-manager`, undefined, configMap('no-manager', {}));
      assert.equal(r.status, 422);
      assert.equal(r.json.message, 'PatchOptions.meta.orch.io "" is invalid: fieldManager: Required value: is required for apply patch');
      assert.deepEqual(r.json.details, {
        group: 'meta.orch.io',
        kind: 'PatchOptions',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }],
      });
    });

    it('refuses managedFields in the applied object (400)', async () => {
      const r = await apply(`${CM}/with-mf`, 'alice', configMap('with-mf', {}, { managedFields: [{ manager: 'x' }] }));
      assert.equal(r.status, 400);
      assert.equal(r.json.message, 'metadata.managedFields must be nil');
    });

    it('force is a boolean: other values are 400; force on another patch type is 422', async () => {
      const bad = await apply(`${CM}/force-bad`, 'alice', configMap('force-bad', {}), 'force=yes');
      assert.equal(bad.status, 400);
      assert.equal(bad.json.message, 'strconv.ParseBool: parsing "yes": invalid syntax');
      assert.equal((await apply(`${CM}/force-ok`, 'alice', configMap('force-ok', {}), 'force=1')).status, 201);
      const merge = await request(cluster, 'PATCH', `${CM}/force-ok?force=true`, { headers: { 'content-type': 'application/merge-patch+json' }, body: {} });
      assert.equal(merge.status, 422);
      assert.equal(merge.json.message, 'PatchOptions.meta.orch.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    });

    it('dryRun=All answers the result and stores nothing (create and update)', async () => {
      const created = await apply(`${CM}/dry`, 'alice', configMap('dry', { a: '1' }), 'dryRun=All');
      assert.equal(created.status, 201);
      assert.equal((await get(`${CM}/dry`)).status, 404);
      await apply(`${CM}/dry`, 'alice', configMap('dry', { a: '1' }));
      const updated = await apply(`${CM}/dry`, 'bob', configMap('dry', { b: '2' }), 'dryRun=All');
      assert.equal(updated.status, 200);
      assert.deepEqual(updated.json.data, { a: '1', b: '2' });
      const live = await get(`${CM}/dry`);
      assert.deepEqual(live.json.data, { a: '1' });
      assert.deepEqual(owners(live), ['alice/Apply: {"f:data":{"f:a":{}}}']);
    });

    it('refuses a body of another kind, a name that is not the URL one, and fields the type does not have', async () => {
      const kind = await apply(`${CM}/other`, 'alice', { ...configMap('other', {}), kind: 'Secret' });
      assert.deepEqual([kind.status, kind.json.message], [400, 'invalid object type: /v1, Kind=Secret']);
      const name = await apply(`${CM}/url-name`, 'alice', configMap('body-name', {}));
      assert.deepEqual([name.status, name.json.message], [400, 'the name of the object (body-name) does not match the name on the URL (url-name)']);
      const unknown = await apply(`${CM}/unknown`, 'alice', { ...configMap('unknown', {}), spec: { x: 1 } });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.json.message, 'failed to create typed patch object (/unknown; /v1, Kind=ConfigMap): .spec: field not declared in schema');
    });

    it('refuses a configuration its Go types cannot hold (a null label value), storing nothing', async () => {
      const res = await apply(`${CM}/null-label`, 'alice', { ...configMap('null-label', { a: '1' }), metadata: { name: 'null-label', labels: { app: null } } });
      assert.equal(res.status, 400);
      assert.match(res.json.message, /^ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal/);
      assert.equal((await get(`${CM}/null-label`)).status, 404);
    });

    it('the 415 for an unknown patch type lists the apply type', async () => {
      const r = await request(cluster, 'PATCH', `${CM}/x`, { headers: { 'content-type': 'text/plain' }, body: '{}' });
      assert.equal(r.status, 415);
      assert.match(r.json.message, /application\/apply-patch\+yaml$/);
    });
  });

  describe("upstream's other rules", () => {
    it('status writes are recorded with their subresource', async () => {
      await apply(`${DEPLOY}/with-status`, 'alice', deployment('with-status', { replicas: 1 }));
      const live = await get(`${DEPLOY}/with-status`);
      const r = await request(cluster, 'PUT', `${DEPLOY}/with-status/status?fieldManager=status-writer`, {
        body: { ...live.json, status: { replicas: 1, observedGeneration: 1 } },
      });
      assert.equal(r.status, 200);
      const status = entries(r).find((e) => e.subresource === 'status');
      assert.deepEqual(status && { manager: status.manager, operation: status.operation, fieldsV1: status.fieldsV1 }, {
        manager: 'status-writer',
        operation: 'Update',
        fieldsV1: { 'f:status': { 'f:observedGeneration': {}, 'f:replicas': {} } },
      });
      assert.equal((await get(`${DEPLOY}/with-status`)).json.metadata.managedFields.length, 2);
    });

    it('consecutive updates by one manager share one entry', async () => {
      await request(cluster, 'POST', `${CM}?fieldManager=ctl`, { body: configMap('consecutive', { a: '1' }) });
      await request(cluster, 'PATCH', `${CM}/consecutive?fieldManager=ctl`, {
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { data: { b: '2' } },
      });
      const r = await request(cluster, 'PATCH', `${CM}/consecutive?fieldManager=ctl`, {
        headers: { 'content-type': 'application/json-patch+json' },
        body: [{ op: 'add', path: '/data/c', value: '3' }],
      });
      assert.deepEqual(owners(r), ['ctl/Update: {"f:data":{".":{},"f:a":{},"f:b":{},"f:c":{}}}']);
    });

    it('past ten update managers the oldest are merged into ancient-changes', async () => {
      await request(cluster, 'POST', `${CM}?fieldManager=m0`, { body: configMap('many', { k0: 'v' }) });
      let r: RawResponse | undefined;
      for (let i = 1; i <= 10; i++) {
        r = await request(cluster, 'PATCH', `${CM}/many?fieldManager=m${i}`, {
          headers: { 'content-type': 'application/merge-patch+json' },
          body: { data: { [`k${i}`]: 'v' } },
        });
      }
      const managers = entries(r as RawResponse).map((e) => e.manager);
      assert.equal(managers.length, 10);
      assert.ok(managers.includes('ancient-changes'));
      const ancient = entries(r as RawResponse).find((e) => e.manager === 'ancient-changes') as Entry;
      assert.deepEqual(Object.keys(ancient.fieldsV1['f:data'] as object).sort(), ['.', 'f:k0', 'f:k1']);
    });

    it('managedFields: [{}] resets the records; the object is untracked until applied', async () => {
      await apply(`${CM}/reset`, 'alice', configMap('reset', { a: '1' }));
      const r = await request(cluster, 'PATCH', `${CM}/reset?fieldManager=bob`, {
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { metadata: { managedFields: [{}] }, data: { b: '2' } },
      });
      assert.equal(r.status, 200);
      assert.equal(r.json.metadata.managedFields, undefined);
      const later = await request(cluster, 'PATCH', `${CM}/reset?fieldManager=carol`, {
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { data: { c: '3' } },
      });
      assert.equal(later.json.metadata.managedFields, undefined);
      const applied = await apply(`${CM}/reset`, 'alice', configMap('reset', { a: '1' }));
      // What was there before goes to before-first-apply; the same value applied is shared.
      assert.deepEqual(owners(applied), ['alice/Apply: {"f:data":{"f:a":{}}}', 'before-first-apply/Update: {"f:data":{".":{},"f:a":{},"f:b":{},"f:c":{}}}']);
    });

    it('a write that sends stale managedFields has them taken as given; invalid ones keep the live records', async () => {
      const created = await apply(`${CM}/stale`, 'alice', configMap('stale', { a: '1' }));
      const invalid = await request(cluster, 'PUT', `${CM}/stale?fieldManager=bob`, {
        body: { ...configMap('stale', { a: '1', b: '2' }), metadata: { name: 'stale', managedFields: [{ manager: 'x', operation: 'Update' }] } },
      });
      assert.deepEqual(owners(invalid), ['alice/Apply: {"f:data":{"f:a":{}}}', 'bob/Update: {"f:data":{"f:b":{}}}']);
      const stale = await request(cluster, 'PUT', `${CM}/stale?fieldManager=bob`, {
        body: { ...configMap('stale', { a: '1', b: '2' }), metadata: { name: 'stale', managedFields: created.json.metadata.managedFields } },
      });
      assert.deepEqual(owners(stale), ['alice/Apply: {"f:data":{"f:a":{}}}']);
    });

    it('validates the fieldManager option on every write', async () => {
      const long = 'x'.repeat(129);
      const r = await request(cluster, 'POST', `${CM}?fieldManager=${long}`, { body: configMap('long', {}) });
      assert.equal(r.status, 422);
      assert.equal(r.json.message, 'CreateOptions.meta.orch.io "" is invalid: fieldManager: Too long: must have at most 128 bytes');
    });
  });
});

describe('--feature-gates=ServerSideApply=false', () => {
  let cluster: TestCluster;
  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory', featureGates: { ServerSideApply: false } });
  });
  after(() => cluster.close());

  it('answers the apply content type with 415, listing the other patch types', async () => {
    const r = await request(cluster, 'PATCH', `${CM}/x?fieldManager=a`, { headers: { 'content-type': APPLY }, body: JSON.stringify(configMap('x', {})) });
    assert.equal(r.status, 415);
    assert.equal(r.json.reason, 'UnsupportedMediaType');
    assert.doesNotMatch(r.json.message, /apply-patch/);
  });

  it('records no managedFields and clears those a client sends', async () => {
    const created = await request(cluster, 'POST', `${CM}?fieldManager=a`, { body: configMap('untracked', { a: '1' }) });
    assert.equal(created.status, 201);
    assert.equal(created.json.metadata.managedFields, undefined);
    const sent = [{ manager: 'x', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }];
    const put = await request(cluster, 'PUT', `${CM}/untracked`, {
      body: { ...configMap('untracked', { a: '2' }), metadata: { name: 'untracked', managedFields: sent } },
    });
    assert.equal(put.status, 200);
    assert.equal(put.json.metadata.managedFields, undefined);
  });
});
