/**
 * Representations a client can ask for in Accept: Tables (v1 and v1beta1, lists, objects,
 * watches, includeObject), PartialObjectMetadata[List], YAML, gzip for large responses, and
 * 406 when nothing asked for can be produced.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { openWatch } from './helpers/watch-client.js';

let cluster: TestCluster;
const CM = '/api/v1/namespaces/default/configmaps';
const TABLE_V1 = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const TABLE_ORCH = 'application/json;as=Table;v=v1;g=meta.orch.io';
const TABLE_V1BETA1 = 'application/json;as=Table;v=v1beta1;g=meta.k8s.io';

before(async () => {
  cluster = await startTestCluster();
  for (const name of ['one', 'two']) {
    const res = await request(cluster, 'POST', CM, { body: { metadata: { name, labels: { app: 'x' } }, data: { a: '1', b: '2' } } });
    assert.equal(res.status, 201);
  }
});
after(() => cluster?.close());

function get(path: string, accept: string, headers: Record<string, string> = {}) {
  return request(cluster, 'GET', path, { headers: { accept, ...headers } });
}

describe('Table', () => {
  it('a list answers a Table with the type columns, one row per object and PartialObjectMetadata objects', async () => {
    const res = await get(CM, `${TABLE_V1}, application/json`);
    assert.equal(res.status, 200);
    const t = res.json;
    assert.equal(t.kind, 'Table');
    assert.equal(t.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(
      t.columnDefinitions.map((c: { name: string }) => c.name),
      ['Name', 'Data', 'Age'],
    );
    assert.deepEqual(
      t.rows.map((r: { cells: unknown[] }) => r.cells.slice(0, 2)),
      [
        ['one', 2],
        ['two', 2],
      ],
    );
    assert.equal(t.rows[0].object.kind, 'PartialObjectMetadata');
    assert.equal(t.rows[0].object.metadata.name, 'one');
    assert.ok(t.metadata.resourceVersion);
  });

  it('answers in the meta group the client named (the brand group too) and v1beta1', async () => {
    assert.equal((await get(CM, TABLE_ORCH)).json.apiVersion, 'meta.orch.io/v1');
    assert.equal((await get(CM, TABLE_V1BETA1)).json.apiVersion, 'meta.k8s.io/v1beta1');
  });

  it('one object is a Table of one row; includeObject=None and Object', async () => {
    const none = (await get(`${CM}/one?includeObject=None`, TABLE_V1)).json;
    assert.equal(none.rows.length, 1);
    assert.equal(none.rows[0].object, null);
    const full = (await get(`${CM}/one?includeObject=Object`, TABLE_V1)).json;
    assert.equal(full.rows[0].object.kind, 'ConfigMap');
    assert.deepEqual(full.rows[0].object.data, { a: '1', b: '2' });
  });

  it('a type without printer columns gets the default Name / Created At table', async () => {
    const res = await request(cluster, 'POST', '/apis/coordination.orch.io/v1/namespaces/default/leases', { body: { metadata: { name: 'l' }, spec: {} } });
    assert.equal(res.status, 201);
    const t = (await get('/apis/coordination.orch.io/v1/namespaces/default/leases', TABLE_V1)).json;
    assert.ok(t.columnDefinitions.length >= 2);
  });

  it('a watch streams Table events; only the first carries column definitions', async () => {
    const watch = await openWatch(cluster, `${CM}?watch=1&timeoutSeconds=1`, { accept: TABLE_V1 });
    await watch.waitUntil(() => watch.events.length >= 2, 5000, 'two events');
    watch.close();
    const lines = watch.events;
    assert.equal(lines[0].object.kind, 'Table');
    assert.ok(lines[0].object.columnDefinitions.length > 0);
    assert.equal(lines[1].object.kind, 'Table');
    assert.equal(lines[1].object.columnDefinitions, null);
    assert.equal(lines[1].object.rows.length, 1);
  });

  it('falls back to the next acceptable type when the first is a Table the endpoint cannot make', async () => {
    const res = await get(CM, 'application/json;as=Table;v=v2;g=meta.k8s.io, application/json');
    assert.equal(res.json.kind, 'ConfigMapList');
  });
});

describe('PartialObjectMetadata', () => {
  it('a list answers PartialObjectMetadataList, an object PartialObjectMetadata', async () => {
    const list = (await get(CM, 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1')).json;
    assert.equal(list.kind, 'PartialObjectMetadataList');
    assert.deepEqual(
      list.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ['one', 'two'],
    );
    assert.equal(list.items[0].data, undefined);
    const one = (await get(`${CM}/one`, 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1')).json;
    assert.equal(one.kind, 'PartialObjectMetadata');
    assert.deepEqual(one.metadata.labels, { app: 'x' });
  });

  it('PartialObjectMetadata for a list is not acceptable: 406 when nothing else is', async () => {
    const res = await get(CM, 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1');
    assert.equal(res.status, 406);
    assert.equal(res.json.reason, 'NotAcceptable');
  });
});

describe('encodings', () => {
  it('application/yaml answers YAML', async () => {
    const res = await get(`${CM}/one`, 'application/yaml');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /application\/yaml/);
    assert.match(res.text, /^apiVersion: v1\n/m);
  });

  it('406 lists the supported media types when nothing in Accept can be produced', async () => {
    const res = await get(CM, 'text/html');
    assert.equal(res.status, 406);
    assert.match(res.json.message, /application\/json/);
  });

  it('a large response is gzipped when the client accepts gzip, a small one is not', async () => {
    const big = 'x'.repeat(200 * 1024);
    assert.equal((await request(cluster, 'POST', CM, { body: { metadata: { name: 'big' }, data: { big } } })).status, 201);
    const zipped = await request(cluster, 'GET', `${CM}/big`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(JSON.parse(gunzipSync(zipped.body).toString()).data.big.length, big.length);
    const small = await request(cluster, 'GET', `${CM}/one`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(small.headers['content-encoding'], undefined);
  });
});
