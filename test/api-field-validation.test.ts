/**
 * fieldValidation on writes: unknown fields are dropped in every mode; Warn (the default) says
 * so in Warning headers, Strict refuses with upstream's strict decoding error, and a value of the
 * wrong type is refused whatever the mode.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;
const CM = '/api/v1/namespaces/default/configmaps';

before(async () => {
  cluster = await startTestCluster();
});
after(() => cluster?.close());

function cm(name: string, extra: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' }, ...extra };
}

describe('fieldValidation', () => {
  it('Warn (default) drops an unknown field and answers a Warning header naming its path', async () => {
    const res = await request(cluster, 'POST', CM, { body: cm('warn', { spec: { foo: 1 } }) });
    assert.equal(res.status, 201);
    assert.equal(res.json.spec, undefined);
    assert.match(String(res.headers.warning), /299 - "unknown field \\"spec\\""/);
  });

  it('Strict refuses unknown fields with 400 and the strict decoding error, storing nothing', async () => {
    const body = { ...cm('strict'), metadata: { name: 'strict', bogus: true }, extra: 'x' };
    const res = await request(cluster, 'POST', `${CM}?fieldValidation=Strict`, { body });
    assert.equal(res.status, 400);
    assert.equal(res.json.reason, 'BadRequest');
    assert.equal(
      res.json.message,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.bogus", unknown field "extra"',
    );
    assert.equal((await request(cluster, 'GET', `${CM}/strict`)).status, 404);
  });

  it('Strict reports a key given twice', async () => {
    const raw = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"a":"1"},"data":{"b":"2"}}';
    const res = await request(cluster, 'POST', `${CM}?fieldValidation=Strict`, { body: raw, headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    assert.match(res.json.message, /strict decoding error: duplicate field "data"$/);
  });

  it('Ignore drops unknown fields silently', async () => {
    const res = await request(cluster, 'POST', `${CM}?fieldValidation=Ignore`, { body: cm('ignore', { spec: {} }) });
    assert.equal(res.status, 201);
    assert.equal(res.headers.warning, undefined);
    assert.equal(res.json.spec, undefined);
  });

  it('an unknown directive is 422 on the options kind', async () => {
    const res = await request(cluster, 'POST', `${CM}?fieldValidation=Loud`, { body: cm('loud') });
    assert.equal(res.status, 422);
    assert.equal(
      res.json.message,
      'CreateOptions.meta.orch.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });

  it('a value of the wrong type is 400 with Go decoding error text, in any mode', async () => {
    const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 'three' } };
    const res = await request(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Ignore', { body });
    assert.equal(res.status, 400);
    assert.equal(
      res.json.message,
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
  });

  it('a strict merge patch adding an unknown field is 422 on field patch, quoting the patch', async () => {
    assert.equal((await request(cluster, 'POST', CM, { body: cm('patched') })).status, 201);
    const raw = '{"data":{"b":"2"},"nope":1}';
    const res = await request(cluster, 'PATCH', `${CM}/patched?fieldValidation=Strict`, {
      body: raw,
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(res.status, 422);
    assert.equal(res.json.message, ` "" is invalid: patch: Invalid value: "${raw.replace(/"/g, '\\"')}": strict decoding error: unknown field "nope"`);
    assert.deepEqual((await request(cluster, 'GET', `${CM}/patched`)).json.data, { a: '1' });
  });
});
