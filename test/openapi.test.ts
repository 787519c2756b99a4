// /openapi/v2 and /openapi/v3 served by a real orch server: representations, caching headers,
// and the facts kubectl looks up in them (group-version-kinds, fieldValidation on PATCH).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { request, startTestCluster, type RawResponse, type TestCluster } from './helpers/cluster.js';
import { decodeSwagger } from '../src/server/openapi/swagger-protobuf.js';

type Json = any;

/** A GET with the admin certificate; the body's bytes are in `body` (protobuf, gzip). */
const get = (cluster: TestCluster, path: string, headers: Record<string, string> = {}): Promise<RawResponse> => request(cluster, 'GET', path, { headers });

const getJson = async (cluster: TestCluster, path: string): Promise<Json> =>
  JSON.parse((await get(cluster, path, { accept: 'application/json' })).body.toString());

interface GVK {
  group: string;
  version: string;
  kind: string;
}

/** Every kind the server lets clients patch, from discovery. */
async function patchableKinds(cluster: TestCluster): Promise<GVK[]> {
  const out: GVK[] = [];
  const lists: { group: string; version: string; path: string }[] = [{ group: '', version: 'v1', path: '/api/v1' }];
  for (const g of (await getJson(cluster, '/apis')).groups) {
    for (const v of g.versions) lists.push({ group: g.name, version: v.version, path: `/apis/${g.name}/${v.version}` });
  }
  for (const l of lists) {
    for (const r of (await getJson(cluster, l.path)).resources) {
      if (!r.name.includes('/') && r.verbs.includes('patch')) out.push({ group: l.group, version: l.version, kind: r.kind });
    }
  }
  return out;
}

const sameGVK = (ext: Json, gvk: GVK) => ext && ext.group === gvk.group && ext.version === gvk.version && ext.kind === gvk.kind;

/** kubectl's QueryParamVerifier over /openapi/v2: the first path whose PATCH carries the GVK must list the parameter. */
function v2Supports(doc: Json, gvk: GVK, param: string): boolean {
  for (const item of Object.values<Json>(doc.paths)) {
    if (!sameGVK(item.patch?.['x-kubernetes-group-version-kind'], gvk)) continue;
    return (item.patch.parameters ?? []).some((p: Json) => p.in === 'query' && p.name === param);
  }
  return false;
}

/** kubectl's QueryParamVerifierV3 over a group-version's /openapi/v3 document. */
function v3Supports(doc: Json, gvk: GVK, param: string): boolean {
  for (const item of Object.values<Json>(doc.paths)) {
    if (!item.patch || !sameGVK(item.patch['x-kubernetes-group-version-kind'], gvk)) continue;
    return (item.patch.parameters ?? []).some((p: Json) => p.name === param);
  }
  return false;
}

/** `$ref`s of schemas (not of properties that happen to be named `$ref`). */
function schemaRefs(s: Json, into: string[]): void {
  if (!s || typeof s !== 'object') return;
  if (typeof s.$ref === 'string') into.push(s.$ref);
  schemaRefs(s.items, into);
  schemaRefs(s.additionalProperties, into);
  for (const p of Object.values(s.properties ?? {})) schemaRefs(p, into);
}

for (const compat of [false, true]) {
  const domain = compat ? 'k8s.io' : 'orch.io';
  describe(`OpenAPI documents (${compat ? '--kubernetes-compat' : 'orch names'})`, () => {
    let cluster: TestCluster;
    let v2: RawResponse;
    let doc: Json;

    before(async () => {
      cluster = await startTestCluster({ kubernetesCompat: compat });
      v2 = await get(cluster, '/openapi/v2', { accept: 'application/json' });
      doc = JSON.parse(v2.body.toString());
    });
    after(() => cluster.close());

    it('serves /openapi/v2 as JSON with upstream’s ETag and Vary', () => {
      assert.equal(v2.status, 200);
      assert.equal(v2.headers['content-type'], 'application/json');
      assert.match(String(v2.headers.etag), /^"[0-9A-F]{128}"$/);
      assert.ok(v2.headers['last-modified']);
      assert.match(String(v2.headers.vary), /Accept/);
      assert.equal(doc.swagger, '2.0');
      assert.match(doc.info.version, /^v1\.25\./);
    });

    it('describes every resource’s operations, with fieldValidation on PATCH for each patchable kind', async () => {
      const pods = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}'];
      assert.equal(pods.patch.operationId, 'patchCoreV1NamespacedPod');
      assert.deepEqual(pods.patch.consumes, [
        'application/json-patch+json',
        'application/merge-patch+json',
        'application/strategic-merge-patch+json',
        'application/apply-patch+yaml',
      ]);
      assert.equal(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch.operationId, 'patchAppsV1NamespacedDeployment');
      assert.equal(doc.paths['/api/v1/namespaces/{namespace}/pods'].get.operationId, 'listCoreV1NamespacedPod');
      assert.ok(doc.paths[`/apis/events.${domain}/v1/namespaces/{namespace}/events`]);
      const kinds = await patchableKinds(cluster);
      assert.ok(kinds.length > 40, `only ${kinds.length} patchable kinds`);
      for (const gvk of kinds) assert.ok(v2Supports(doc, gvk, 'fieldValidation'), `v2: ${JSON.stringify(gvk)} lacks fieldValidation on PATCH`);
    });

    it('has a definition, with its group-version-kind spelled by brand, for every served kind', async () => {
      const kinds = await patchableKinds(cluster);
      const byGVK = new Set<string>();
      for (const def of Object.values<Json>(doc.definitions)) {
        for (const g of def['x-kubernetes-group-version-kind'] ?? []) {
          byGVK.add(`${g.group}/${g.version}/${g.kind}`);
          assert.ok(!g.group.endsWith(compat ? '.orch.io' : '.k8s.io'), `group ${g.group} not spelled by brand`);
        }
      }
      for (const k of kinds) assert.ok(byGVK.has(`${k.group}/${k.version}/${k.kind}`), `no definition for ${JSON.stringify(k)}`);
      assert.ok(byGVK.has(`events.${domain}/v1/Event`));
    });

    it('refers only to definitions it has (kubectl’s parser rejects a dangling reference)', () => {
      const refs: string[] = [];
      for (const def of Object.values<Json>(doc.definitions)) schemaRefs(def, refs);
      for (const item of Object.values<Json>(doc.paths)) {
        for (const [key, op] of Object.entries<Json>(item)) {
          if (key === 'parameters') continue;
          for (const p of op.parameters ?? []) schemaRefs(p.schema, refs);
          for (const r of Object.values<Json>(op.responses)) schemaRefs(r.schema, refs);
        }
      }
      const missing = [...new Set(refs)].filter((r) => !r.startsWith('#/definitions/') || !doc.definitions[r.slice('#/definitions/'.length)]);
      assert.deepEqual(missing, []);
    });

    it('answers If-None-Match with the current ETag with 304 and no body', async () => {
      const again = await get(cluster, '/openapi/v2', { accept: 'application/json', 'if-none-match': String(v2.headers.etag) });
      assert.equal(again.status, 304);
      assert.equal(again.body.length, 0);
      assert.equal(again.headers.etag, v2.headers.etag);
      const stale = await get(cluster, '/openapi/v2', { accept: 'application/json', 'if-none-match': '"0000"' });
      assert.equal(stale.status, 200);
    });

    it('serves the gnostic Protocol Buffers form kubectl asks for', async () => {
      const pb = await get(cluster, '/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
      assert.equal(pb.status, 200);
      assert.equal(pb.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
      assert.equal(pb.headers.etag, v2.headers.etag);
      const msg = decodeSwagger(pb.body) as Json;
      assert.equal(msg.paths.path.length, Object.keys(doc.paths).length);
      assert.equal(msg.definitions.additional_properties.length, Object.keys(doc.definitions).length);
      const patch = msg.paths.path.find((p: Json) => p.name === '/api/v1/namespaces/{namespace}/pods/{name}').value.patch;
      const gvk = parseYaml(patch.vendor_extension.find((e: Json) => e.name === 'x-kubernetes-group-version-kind').value.yaml);
      assert.deepEqual(gvk, { group: '', kind: 'Pod', version: 'v1' });
      assert.ok(patch.parameters.some((p: Json) => p.parameter?.non_body_parameter?.query_parameter_sub_schema?.name === 'fieldValidation'));
    });

    it('compresses /openapi/v2 when the client accepts gzip', async () => {
      const gz = await get(cluster, '/openapi/v2', { accept: 'application/json', 'accept-encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.ok(gunzipSync(gz.body).equals(v2.body));
    });

    it('answers 406 when no offered media type is acceptable', async () => {
      assert.equal((await get(cluster, '/openapi/v2', { accept: 'text/plain' })).status, 406);
    });

    it('indexes /openapi/v3 by group-version, each document served under its hash as immutable', async () => {
      const res = await get(cluster, '/openapi/v3', { accept: 'application/json' });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/json');
      assert.match(String(res.headers.etag), /^"[0-9A-F]{128}"$/);
      const index = JSON.parse(res.body.toString());
      for (const key of ['api/v1', 'apis/apps/v1', `apis/events.${domain}/v1`, `apis/rbac.authorization.${domain}/v1`, 'apis/batch/v1']) {
        assert.match(index.paths[key]?.serverRelativeURL ?? '', new RegExp(`^/openapi/v3/${key.replace(/\./g, '\\.')}\\?hash=[0-9A-F]{128}$`));
      }
      const url = index.paths['apis/apps/v1'].serverRelativeURL;
      const apps = await get(cluster, url, { accept: 'application/json' });
      assert.equal(apps.status, 200);
      assert.equal(apps.headers['cache-control'], 'public, immutable');
      assert.ok(apps.headers.expires);
      assert.equal(apps.headers.etag, `"${url.split('hash=')[1]}"`);
      const unhashed = await get(cluster, '/openapi/v3/apis/apps/v1', { accept: 'application/json' });
      assert.equal(unhashed.status, 200);
      assert.equal(unhashed.headers['cache-control'], undefined);
      const moved = await get(cluster, '/openapi/v3/apis/apps/v1?hash=ABC', { accept: 'application/json' });
      assert.equal(moved.status, 301);
      assert.equal(moved.headers.location, url);
      assert.equal((await get(cluster, '/openapi/v3/apis/nope/v1', { accept: 'application/json' })).status, 404);
    });

    it('lets kubectl’s QueryParamVerifierV3 find fieldValidation for every patchable kind', async () => {
      const index = (await getJson(cluster, '/openapi/v3')).paths;
      const docs = new Map<string, Json>();
      for (const gvk of await patchableKinds(cluster)) {
        const key = gvk.group === '' ? `api/${gvk.version}` : `apis/${gvk.group}/${gvk.version}`;
        if (!docs.has(key)) docs.set(key, await getJson(cluster, index[key].serverRelativeURL));
        assert.ok(v3Supports(docs.get(key), gvk, 'fieldValidation'), `v3: ${JSON.stringify(gvk)} lacks fieldValidation on PATCH`);
      }
    });

    it('gives each v3 document the schemas its paths reach, referenced under components', async () => {
      const core = await getJson(cluster, '/openapi/v3/api/v1');
      assert.equal(core.openapi, '3.0.0');
      const schemas = core.components.schemas;
      const containers = schemas['io.k8s.api.core.v1.PodSpec'].properties.containers;
      assert.equal(containers.items.$ref, '#/components/schemas/io.k8s.api.core.v1.Container');
      assert.equal(containers['x-kubernetes-patch-merge-key'], 'name');
      assert.ok(schemas['io.k8s.api.core.v1.Container'].properties.image.description);
      assert.deepEqual(schemas['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind'], [{ group: '', version: 'v1', kind: 'Pod' }]);
      const refs: string[] = [];
      for (const s of Object.values(schemas)) schemaRefs(s, refs);
      const missing = [...new Set(refs)].filter((r) => !schemas[r.replace('#/components/schemas/', '')]);
      assert.deepEqual(missing, []);
      const patch = core.paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch;
      assert.ok(patch.requestBody.content['application/strategic-merge-patch+json'], 'kubectl apply needs strategic-merge-patch+json on PATCH');
    });
  });
}
