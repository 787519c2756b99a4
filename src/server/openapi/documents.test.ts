import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { createSchemaLookup, type Definitions } from '../../api/schema/index.js';
import type { ResourceDefinition } from '../../api/types.js';
import { type Brand, KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import { resolveResource } from '../../registry/resource-info.js';
import { computeETag, OpenAPIDocuments } from './documents.js';
import { decodeSwagger } from './swagger-protobuf.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const ref = (name: string) => ({ $ref: `#/definitions/${name}` });

/** A few upstream definitions, enough to follow references from a Pod and an events/v1 Event. */
const DEFINITIONS: Definitions = {
  'io.k8s.api.core.v1.Pod': {
    type: 'object',
    description: 'Pod is a collection of containers that can run on a host.',
    properties: {
      metadata: ref(`${META}.ObjectMeta`),
      spec: { ...ref('io.k8s.api.core.v1.PodSpec'), description: 'Specification of the desired behavior of the pod.' },
    },
    'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Pod' }],
  },
  'io.k8s.api.core.v1.PodList': {
    type: 'object',
    properties: { items: { type: 'array', items: ref('io.k8s.api.core.v1.Pod') }, metadata: ref(`${META}.ListMeta`) },
    required: ['items'],
    'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'PodList' }],
  },
  'io.k8s.api.core.v1.PodSpec': {
    type: 'object',
    properties: {
      containers: {
        type: 'array',
        items: ref('io.k8s.api.core.v1.Container'),
        description: 'List of containers belonging to the pod.',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'name',
      },
      nodeSelector: { type: 'object', additionalProperties: { type: 'string' } },
    },
    required: ['containers'],
  },
  'io.k8s.api.core.v1.Container': {
    type: 'object',
    properties: { name: { type: 'string', description: 'Name of the container.' }, image: { type: 'string' } },
    required: ['name'],
  },
  'io.k8s.api.events.v1.Event': {
    type: 'object',
    properties: { metadata: ref(`${META}.ObjectMeta`), note: { type: 'string' } },
    'x-kubernetes-group-version-kind': [{ group: 'events.k8s.io', version: 'v1', kind: 'Event' }],
  },
  'io.k8s.api.events.v1.EventList': {
    type: 'object',
    properties: { items: { type: 'array', items: ref('io.k8s.api.events.v1.Event') } },
    'x-kubernetes-group-version-kind': [{ group: 'events.k8s.io', version: 'v1', kind: 'EventList' }],
  },
  [`${META}.ObjectMeta`]: { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } },
  [`${META}.ListMeta`]: { type: 'object', properties: { resourceVersion: { type: 'string' } } },
  [`${META}.Status`]: { type: 'object', properties: { message: { type: 'string' } } },
  [`${META}.DeleteOptions`]: { type: 'object', properties: { dryRun: { type: 'array', items: { type: 'string' } } } },
  [`${META}.Patch`]: { type: 'object', description: 'Patch, as the type schemas define it.' },
};

const base = { singular: '', nameRule: 'subdomain' } as const;
const DEFS: ResourceDefinition[] = [
  { ...base, groupStem: '', branded: false, version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true, subresources: { status: true } },
  { ...base, groupStem: 'events', branded: true, version: 'v1', kind: 'Event', plural: 'events', namespaced: true },
];

function documents(brand: Brand): OpenAPIDocuments {
  const resources = DEFS.map((d) => resolveResource(d, brand));
  const groups = [
    { group: '', versions: ['v1'] },
    { group: brand.group('events', true), versions: ['v1'] },
  ];
  return new OpenAPIDocuments({ registry: { resources, groups }, brand, version: 'v1.25.0-test', schemas: createSchemaLookup(DEFINITIONS) });
}

type Json = any;

/** kubectl's QueryParamVerifier (v2): the first path whose PATCH carries the GVK decides. */
function v2Supports(doc: Json, gvk: { group: string; version: string; kind: string }, param: string): boolean | undefined {
  for (const item of Object.values<Json>(doc.paths)) {
    const ext = item.patch?.['x-kubernetes-group-version-kind'];
    if (!ext || ext.group !== gvk.group || ext.version !== gvk.version || ext.kind !== gvk.kind) continue;
    return (item.patch.parameters ?? []).some((p: Json) => p.in === 'query' && p.name === param);
  }
  return undefined;
}

describe('OpenAPI v2 document', () => {
  const doc = JSON.parse(documents(ORCH_BRAND).v2Json().bytes.toString());

  it('is Swagger 2.0 with the server version and the BearerToken scheme', () => {
    assert.equal(doc.swagger, '2.0');
    assert.deepEqual(doc.info, { title: 'Kubernetes', version: 'v1.25.0-test' });
    assert.deepEqual(doc.securityDefinitions.BearerToken, { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' });
    assert.deepEqual(doc.security, [{ BearerToken: [] }]);
  });

  it('moves the parameters every operation of a path shares up to the path, sorted', () => {
    const item = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}'];
    assert.deepEqual(
      item.parameters.map((p: Json) => p.name),
      ['name', 'namespace', 'pretty'],
    );
    assert.deepEqual(item.parameters[0], { description: 'name of the Pod', in: 'path', name: 'name', required: true, type: 'string', uniqueItems: true });
    assert.deepEqual(
      item.patch.parameters.map((p: Json) => p.name),
      ['body', 'dryRun', 'fieldManager', 'fieldValidation', 'force'],
    );
    assert.deepEqual(item.patch.parameters[0], { in: 'body', name: 'body', required: true, schema: { $ref: `#/definitions/${META}.Patch` } });
    assert.equal(item.get.parameters, undefined);
    // A path with one operation has every non-body parameter at the path.
    const watch = doc.paths['/api/v1/watch/pods'];
    assert.equal(watch.get.parameters, undefined);
    assert.ok(watch.parameters.some((p: Json) => p.name === 'watch'));
  });

  it('carries the action, the group-version-kind, schemes, tags and responses on each operation', () => {
    const patch = doc.paths['/apis/events.orch.io/v1/namespaces/{namespace}/events/{name}'].patch;
    assert.equal(patch.operationId, 'patchEventsV1NamespacedEvent');
    assert.equal(patch['x-kubernetes-action'], 'patch');
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'events.orch.io', kind: 'Event', version: 'v1' });
    assert.deepEqual(patch.schemes, ['https']);
    assert.deepEqual(patch.tags, ['events_v1']);
    assert.deepEqual(patch.responses, {
      200: { description: 'OK', schema: { $ref: '#/definitions/io.k8s.api.events.v1.Event' } },
      201: { description: 'Created', schema: { $ref: '#/definitions/io.k8s.api.events.v1.Event' } },
      401: { description: 'Unauthorized' },
    });
  });

  it('spells definition group-version-kinds by brand and keeps upstream definition names', () => {
    assert.deepEqual(doc.definitions['io.k8s.api.events.v1.Event']['x-kubernetes-group-version-kind'], [
      { group: 'events.orch.io', version: 'v1', kind: 'Event' },
    ]);
    const compat = JSON.parse(documents(KUBERNETES_BRAND).v2Json().bytes.toString());
    assert.deepEqual(compat.definitions['io.k8s.api.events.v1.Event']['x-kubernetes-group-version-kind'], [
      { group: 'events.k8s.io', version: 'v1', kind: 'Event' },
    ]);
    assert.ok(compat.paths['/apis/events.k8s.io/v1/namespaces/{namespace}/events']);
    // The input definitions are not modified.
    assert.equal(DEFINITIONS['io.k8s.api.events.v1.Event']['x-kubernetes-group-version-kind']?.[0].group, 'events.k8s.io');
  });

  it('lets kubectl’s QueryParamVerifier find fieldValidation for every kind', () => {
    assert.equal(v2Supports(doc, { group: '', version: 'v1', kind: 'Pod' }, 'fieldValidation'), true);
    assert.equal(v2Supports(doc, { group: 'events.orch.io', version: 'v1', kind: 'Event' }, 'fieldValidation'), true);
    assert.equal(v2Supports(doc, { group: '', version: 'v1', kind: 'Node' }, 'fieldValidation'), undefined);
  });

  it('has its ETag as the SHA-512 of its JSON', () => {
    const rep = documents(ORCH_BRAND).v2Json();
    assert.equal(rep.etag, computeETag(rep.bytes));
    assert.match(rep.etag, /^[0-9A-F]{128}$/);
  });
});

describe('OpenAPI v2 Protocol Buffers form', () => {
  const docs = documents(ORCH_BRAND);
  const json = JSON.parse(docs.v2Json().bytes.toString());
  const pb = decodeSwagger(docs.v2Protobuf().bytes) as Json;

  it('holds every path and definition of the JSON form', () => {
    assert.equal(pb.swagger, '2.0');
    assert.deepEqual(
      pb.paths.path.map((p: Json) => p.name),
      Object.keys(json.paths),
    );
    assert.deepEqual(
      pb.definitions.additional_properties.map((d: Json) => d.name),
      Object.keys(json.definitions),
    );
    assert.equal(docs.v2Protobuf().etag, docs.v2Json().etag);
  });

  it('encodes vendor extensions as YAML, as gnostic does and kubectl reads them', () => {
    const item = pb.paths.path.find((p: Json) => p.name === '/apis/events.orch.io/v1/namespaces/{namespace}/events/{name}').value;
    const ext = Object.fromEntries(item.patch.vendor_extension.map((e: Json) => [e.name, parseYaml(e.value.yaml)]));
    assert.deepEqual(ext, { 'x-kubernetes-action': 'patch', 'x-kubernetes-group-version-kind': { group: 'events.orch.io', kind: 'Event', version: 'v1' } });
    const names = item.patch.parameters.map((p: Json) => p.parameter.body_parameter?.name ?? p.parameter.non_body_parameter.query_parameter_sub_schema.name);
    assert.deepEqual(names, ['body', 'dryRun', 'fieldManager', 'fieldValidation', 'force']);
    assert.equal(item.parameters[0].parameter.non_body_parameter.path_parameter_sub_schema.name, 'name');
  });

  it('encodes schemas with gnostic’s type, items, additionalProperties and properties', () => {
    const spec = pb.definitions.additional_properties.find((d: Json) => d.name === 'io.k8s.api.core.v1.PodSpec').value;
    assert.deepEqual(spec.type, { value: ['object'] });
    assert.deepEqual(spec.required, ['containers']);
    const props = Object.fromEntries(spec.properties.additional_properties.map((p: Json) => [p.name, p.value]));
    assert.equal(props.containers.items.schema[0]._ref, '#/definitions/io.k8s.api.core.v1.Container');
    assert.deepEqual(
      props.containers.vendor_extension.map((e: Json) => [e.name, parseYaml(e.value.yaml)]),
      [
        ['x-kubernetes-patch-strategy', 'merge'],
        ['x-kubernetes-patch-merge-key', 'name'],
      ],
    );
    assert.deepEqual(props.nodeSelector.additional_properties.schema.type, { value: ['string'] });
    const pod = pb.definitions.additional_properties.find((d: Json) => d.name === 'io.k8s.api.core.v1.Pod').value;
    const gvk = parseYaml(pod.vendor_extension[0].value.yaml);
    assert.deepEqual(gvk, [{ group: '', version: 'v1', kind: 'Pod' }]);
  });
});

describe('OpenAPI v3 documents', () => {
  const docs = documents(ORCH_BRAND);
  const index = JSON.parse(docs.v3Index().bytes.toString());

  it('lists one document per group-version, group, api, apis and version, each with its hash', () => {
    assert.deepEqual(Object.keys(index.paths), ['api', 'api/v1', 'apis', 'apis/events.orch.io', 'apis/events.orch.io/v1', 'version']);
    const etag = docs.v3('api/v1')?.etag;
    assert.deepEqual(index.paths['api/v1'], { serverRelativeURL: `/openapi/v3/api/v1?hash=${etag}` });
  });

  it('holds the group-version’s paths and the definitions they reach under components.schemas', () => {
    const core = JSON.parse(docs.v3('api/v1')?.bytes.toString() ?? '');
    assert.equal(core.openapi, '3.0.0');
    assert.ok(Object.keys(core.paths).every((p) => p.startsWith('/api/v1/')));
    assert.deepEqual(Object.keys(core.components.schemas), [
      'io.k8s.api.core.v1.Container',
      'io.k8s.api.core.v1.Pod',
      'io.k8s.api.core.v1.PodList',
      'io.k8s.api.core.v1.PodSpec',
      `${META}.APIResource`,
      `${META}.APIResourceList`,
      `${META}.DeleteOptions`,
      `${META}.ListMeta`,
      `${META}.ObjectMeta`,
      `${META}.Patch`,
      `${META}.Status`,
      `${META}.WatchEvent`,
    ]);
    assert.equal(core.components.schemas['io.k8s.api.core.v1.PodSpec'].properties.containers.items.$ref, '#/components/schemas/io.k8s.api.core.v1.Container');
    assert.deepEqual(core.components.securitySchemes.BearerToken, {
      description: 'Bearer Token authentication',
      in: 'header',
      name: 'authorization',
      type: 'apiKey',
    });
  });

  it('describes PATCH with a request body per patch type and fieldValidation among its parameters', () => {
    const events = JSON.parse(docs.v3('apis/events.orch.io/v1')?.bytes.toString() ?? '');
    const patch = events.paths['/apis/events.orch.io/v1/namespaces/{namespace}/events/{name}'].patch;
    assert.deepEqual(Object.keys(patch.requestBody.content), [
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    assert.equal(patch.requestBody.required, true);
    assert.deepEqual(patch.requestBody.content['application/apply-patch+yaml'].schema, { $ref: `#/components/schemas/${META}.Patch` });
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'events.orch.io', kind: 'Event', version: 'v1' });
    assert.ok(patch.parameters.some((p: Json) => p.name === 'fieldValidation' && p.in === 'query' && p.schema.type === 'string'));
    assert.deepEqual(Object.keys(patch.responses['200'].content), ['application/json', 'application/yaml', 'application/vnd.orch.protobuf']);
    assert.deepEqual(events.components.schemas['io.k8s.api.events.v1.Event']['x-kubernetes-group-version-kind'], [
      { group: 'events.orch.io', version: 'v1', kind: 'Event' },
    ]);
    const create = events.paths['/apis/events.orch.io/v1/namespaces/{namespace}/events'].post;
    assert.deepEqual(create.requestBody, { content: { '*/*': { schema: { $ref: '#/components/schemas/io.k8s.api.events.v1.Event' } } }, required: true });
  });

  it('completes the type schemas with the envelope definitions: PATCH body, watch event, discovery', () => {
    const apis = JSON.parse(docs.v3('apis')?.bytes.toString() ?? '');
    assert.equal(apis.paths['/apis/'].get.responses['200'].content['application/json'].schema.$ref, `#/components/schemas/${META}.APIGroupList`);
    const watch = JSON.parse(docs.v3('apis/events.orch.io/v1')?.bytes.toString() ?? '').components.schemas[`${META}.WatchEvent`];
    assert.deepEqual(watch['x-kubernetes-group-version-kind'], [
      { group: '', version: 'v1', kind: 'WatchEvent' },
      { group: 'events.orch.io', version: 'v1', kind: 'WatchEvent' },
    ]);
    // A definition the type schemas have wins over the envelope's.
    assert.equal(
      JSON.parse(docs.v3('api/v1')?.bytes.toString() ?? '').components.schemas[`${META}.Patch`].description,
      DEFINITIONS[`${META}.Patch`].description,
    );
  });

  it('answers undefined for a document it does not have', () => {
    assert.equal(docs.v3('apis/nope/v1'), undefined);
  });
});
