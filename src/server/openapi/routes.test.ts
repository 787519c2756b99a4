import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDefinition } from '../../api/types.js';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import { resolveResource } from '../../registry/resource-info.js';
import { discoveryRoutes, resourceRoutes, type Route, type RouteDefinitions } from './routes.js';

const base = { singular: '', nameRule: 'subdomain' } as const;
const pods: ResourceDefinition = {
  ...base,
  groupStem: '',
  branded: false,
  version: 'v1',
  kind: 'Pod',
  plural: 'pods',
  namespaced: true,
  subresources: { status: true },
};
const nodes: ResourceDefinition = {
  ...base,
  groupStem: '',
  branded: false,
  version: 'v1',
  kind: 'Node',
  plural: 'nodes',
  namespaced: false,
  subresources: { status: true },
};
const namespaces: ResourceDefinition = {
  ...base,
  groupStem: '',
  branded: false,
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  namespaced: false,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: { status: true, finalize: true },
};
const events: ResourceDefinition = { ...base, groupStem: 'events', branded: true, version: 'v1', kind: 'Event', plural: 'events', namespaced: true };
const tokenReviews: ResourceDefinition = {
  ...base,
  groupStem: 'authentication',
  branded: true,
  version: 'v1',
  kind: 'TokenReview',
  plural: 'tokenreviews',
  namespaced: false,
  verbs: ['create'],
  virtual: true,
};

/** Definitions named after the kind, and every meta definition present. */
const defs: RouteDefinitions = { kind: (info, kind) => `def.${info.group}.${kind}`, meta: (name) => name };

const byId = (routes: Route[]) => new Map(routes.map((r) => [r.operationId, r]));

describe('resourceRoutes', () => {
  it('registers the namespaced routes of upstream’s installer', () => {
    const routes = resourceRoutes(resolveResource(pods, ORCH_BRAND), ORCH_BRAND, defs);
    const got = routes.map((r) => `${r.method.toUpperCase()} ${r.path} ${r.operationId} ${r.action}`).sort();
    assert.deepEqual(got, [
      'DELETE /api/v1/namespaces/{namespace}/pods deleteCoreV1CollectionNamespacedPod deletecollection',
      'DELETE /api/v1/namespaces/{namespace}/pods/{name} deleteCoreV1NamespacedPod delete',
      'GET /api/v1/namespaces/{namespace}/pods listCoreV1NamespacedPod list',
      'GET /api/v1/namespaces/{namespace}/pods/{name} readCoreV1NamespacedPod get',
      'GET /api/v1/namespaces/{namespace}/pods/{name}/status readCoreV1NamespacedPodStatus get',
      'GET /api/v1/pods listCoreV1PodForAllNamespaces list',
      'GET /api/v1/watch/namespaces/{namespace}/pods watchCoreV1NamespacedPodList watchlist',
      'GET /api/v1/watch/namespaces/{namespace}/pods/{name} watchCoreV1NamespacedPod watch',
      'GET /api/v1/watch/pods watchCoreV1PodListForAllNamespaces watchlist',
      'PATCH /api/v1/namespaces/{namespace}/pods/{name} patchCoreV1NamespacedPod patch',
      'PATCH /api/v1/namespaces/{namespace}/pods/{name}/status patchCoreV1NamespacedPodStatus patch',
      'POST /api/v1/namespaces/{namespace}/pods createCoreV1NamespacedPod post',
      'PUT /api/v1/namespaces/{namespace}/pods/{name} replaceCoreV1NamespacedPod put',
      'PUT /api/v1/namespaces/{namespace}/pods/{name}/status replaceCoreV1NamespacedPodStatus put',
    ]);
    for (const r of routes) {
      assert.deepEqual(r.gvk, { group: '', kind: 'Pod', version: 'v1' });
      assert.equal(r.tag, 'core_v1');
      assert.equal(r.document, 'api/v1');
    }
  });

  it('gives PATCH the patch types, the patch options (fieldValidation for kubectl) and the Patch body', () => {
    const patch = byId(resourceRoutes(resolveResource(pods, ORCH_BRAND), ORCH_BRAND, defs)).get('patchCoreV1NamespacedPod') as Route;
    assert.deepEqual(patch.consumes, [
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    assert.deepEqual(patch.parameters.map((p) => `${p.in}:${p.name}`).sort(), [
      'body:body',
      'path:name',
      'path:namespace',
      'query:dryRun',
      'query:fieldManager',
      'query:fieldValidation',
      'query:force',
      'query:pretty',
    ]);
    assert.equal(patch.parameters.find((p) => p.in === 'body')?.schemaRef, 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch');
    assert.match(patch.parameters.find((p) => p.name === 'fieldManager')?.description ?? '', /required for apply requests/);
    assert.equal(patch.description, 'partially update the specified Pod');
    assert.deepEqual(
      patch.responses.map((r) => `${r.code} ${r.definition}`),
      ['200 def..Pod', '201 def..Pod'],
    );
  });

  it('documents list, create, delete and deletecollection parameters and responses as upstream', () => {
    const routes = byId(resourceRoutes(resolveResource(pods, ORCH_BRAND), ORCH_BRAND, defs));
    const names = (id: string) => (routes.get(id) as Route).parameters.map((p) => p.name).sort();
    assert.deepEqual(names('listCoreV1NamespacedPod'), [
      'allowWatchBookmarks',
      'continue',
      'fieldSelector',
      'labelSelector',
      'limit',
      'namespace',
      'pretty',
      'resourceVersion',
      'resourceVersionMatch',
      'timeoutSeconds',
      'watch',
    ]);
    assert.deepEqual(names('createCoreV1NamespacedPod'), ['body', 'dryRun', 'fieldManager', 'fieldValidation', 'namespace', 'pretty']);
    assert.deepEqual(names('deleteCoreV1NamespacedPod'), [
      'body',
      'dryRun',
      'gracePeriodSeconds',
      'name',
      'namespace',
      'orphanDependents',
      'pretty',
      'propagationPolicy',
    ]);
    // deletecollection takes ListOptions without watch and allowWatchBookmarks.
    assert.deepEqual(names('deleteCoreV1CollectionNamespacedPod'), [
      'body',
      'continue',
      'dryRun',
      'fieldSelector',
      'gracePeriodSeconds',
      'labelSelector',
      'limit',
      'namespace',
      'orphanDependents',
      'pretty',
      'propagationPolicy',
      'resourceVersion',
      'resourceVersionMatch',
      'timeoutSeconds',
    ]);
    const del = routes.get('deleteCoreV1NamespacedPod') as Route;
    assert.equal(del.parameters.find((p) => p.in === 'body')?.required, undefined);
    assert.equal(del.description, 'delete a Pod');
    assert.equal((routes.get('createCoreV1NamespacedPod') as Route).description, 'create a Pod');
    assert.equal((routes.get('listCoreV1NamespacedPod') as Route).description, 'list or watch objects of kind Pod');
    assert.equal((routes.get('readCoreV1NamespacedPodStatus') as Route).description, 'read status of the specified Pod');
    assert.deepEqual((routes.get('listCoreV1NamespacedPod') as Route).produces, [
      'application/json',
      'application/yaml',
      'application/vnd.orch.protobuf',
      'application/json;stream=watch',
      'application/vnd.orch.protobuf;stream=watch',
    ]);
    assert.deepEqual(
      (routes.get('watchCoreV1NamespacedPod') as Route).responses.map((r) => r.definition),
      ['io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent'],
    );
  });

  it('registers cluster-scoped routes without namespaces, and finalize as a PUT', () => {
    const ids = resourceRoutes(resolveResource(nodes, ORCH_BRAND), ORCH_BRAND, defs).map((r) => `${r.path} ${r.operationId}`);
    assert.ok(ids.includes('/api/v1/nodes listCoreV1Node'));
    assert.ok(ids.includes('/api/v1/watch/nodes watchCoreV1NodeList'));
    assert.ok(ids.includes('/api/v1/nodes/{name}/status patchCoreV1NodeStatus'));
    assert.ok(!ids.some((id) => id.includes('ForAllNamespaces')));
    const ns = resourceRoutes(resolveResource(namespaces, ORCH_BRAND), ORCH_BRAND, defs);
    assert.ok(!ns.some((r) => r.action === 'deletecollection'));
    const finalize = ns.filter((r) => r.path === '/api/v1/namespaces/{name}/finalize');
    assert.deepEqual(
      finalize.map((r) => `${r.method} ${r.operationId} ${r.description}`),
      ['put replaceCoreV1NamespaceFinalize replace finalize of the specified Namespace'],
    );
  });

  it('registers pods/binding as a POST taking and answering a Binding', () => {
    const withBinding: ResourceDefinition = { ...pods, subresources: { status: true, binding: true } };
    const binding = resourceRoutes(resolveResource(withBinding, KUBERNETES_BRAND), KUBERNETES_BRAND, defs).filter((r) => r.path.endsWith('/binding'));
    assert.equal(binding.length, 1);
    const [r] = binding;
    assert.equal(`${r.method} ${r.path} ${r.operationId}`, 'post /api/v1/namespaces/{namespace}/pods/{name}/binding createCoreV1NamespacedPodBinding');
    assert.equal(r.description, 'create binding of a Pod');
    assert.deepEqual(r.gvk, { group: '', kind: 'Binding', version: 'v1' });
    assert.equal(r.parameters.find((p) => p.name === 'name')?.description, 'name of the Binding');
    assert.equal(r.parameters.find((p) => p.in === 'body')?.schemaRef, 'def..Binding');
    assert.deepEqual(r.parameters.map((p) => p.name).sort(), ['body', 'dryRun', 'fieldManager', 'fieldValidation', 'name', 'namespace', 'pretty']);
  });

  it('spells branded groups by brand in paths and group-version-kinds', () => {
    for (const brand of [ORCH_BRAND, KUBERNETES_BRAND]) {
      const routes = resourceRoutes(resolveResource(events, brand), brand, defs);
      const patch = routes.find((r) => r.operationId === 'patchEventsV1NamespacedEvent') as Route;
      assert.equal(patch.path, `/apis/events.${brand.domain}/v1/namespaces/{namespace}/events/{name}`);
      assert.deepEqual(patch.gvk, { group: `events.${brand.domain}`, kind: 'Event', version: 'v1' });
      assert.equal(patch.document, `apis/events.${brand.domain}/v1`);
      assert.equal(patch.produces[2], brand.protobufMediaType);
    }
  });

  it('gives a create-only resource one POST route', () => {
    const routes = resourceRoutes(resolveResource(tokenReviews, KUBERNETES_BRAND), KUBERNETES_BRAND, defs);
    assert.deepEqual(
      routes.map((r) => `${r.method} ${r.path} ${r.operationId}`),
      ['post /apis/authentication.k8s.io/v1/tokenreviews createAuthenticationV1TokenReview'],
    );
  });

  it('leaves out response schemas the definitions lack', () => {
    const none: RouteDefinitions = { kind: () => undefined, meta: () => undefined };
    const routes = resourceRoutes(resolveResource(pods, ORCH_BRAND), ORCH_BRAND, none);
    assert.ok(routes.every((r) => r.responses.every((x) => x.definition === undefined)));
    assert.ok(routes.every((r) => r.parameters.every((p) => p.in !== 'body')));
  });
});

describe('discoveryRoutes', () => {
  it('describes /api, /apis, each group and group-version, and /version', () => {
    const routes = discoveryRoutes(
      [
        { group: '', versions: ['v1'] },
        { group: 'apps', versions: ['v1'] },
      ],
      ORCH_BRAND,
      defs,
    );
    assert.deepEqual(
      routes.map((r) => `${r.path} ${r.operationId} ${r.tag} ${r.document}`),
      [
        '/api/ getCoreAPIVersions core api',
        '/api/v1/ getCoreV1APIResources core_v1 api/v1',
        '/apis/apps/ getAppsAPIGroup apps apis/apps',
        '/apis/apps/v1/ getAppsV1APIResources apps_v1 apis/apps/v1',
        '/apis/ getAPIVersions apis apis',
        '/version/ getCodeVersion version version',
      ],
    );
  });
});
