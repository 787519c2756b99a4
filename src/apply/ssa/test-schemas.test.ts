// Hand-written definitions (upstream's OpenAPI form) for the unit tests of server-side apply,
// modelled on structured-merge-diff's test schemas; the module's own test checks the conversion.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSchemaLookup, type Definitions } from '../../api/schema/index.js';
import { DEDUCED, typeOfKind } from './typed-schema.js';

const gvk = (kind: string) => [{ group: 'test', version: 'v1', kind }];

export const TEST_DEFINITIONS: Definitions = {
  'test.Leaf': {
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('Leaf'),
    properties: { numeric: { type: 'integer' }, string: { type: 'string' }, bool: { type: 'boolean' } },
  },
  'test.Sets': {
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('Sets'),
    properties: {
      list: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      merged: { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'merge' },
      atomic: { type: 'array', items: { type: 'string' } },
    },
  },
  'test.Root': {
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('Root'),
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: '#/definitions/test.Meta' },
      spec: { $ref: '#/definitions/test.Spec' },
      status: { type: 'object', properties: { replicas: { type: 'integer' } } },
    },
  },
  'test.Meta': {
    type: 'object',
    properties: {
      name: { type: 'string' },
      namespace: { type: 'string' },
      uid: { type: 'string' },
      creationTimestamp: { type: 'string', format: 'date-time' },
      resourceVersion: { type: 'string' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
      finalizers: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' },
      managedFields: { type: 'array', items: { type: 'object', properties: { manager: { type: 'string' } } } },
    },
  },
  'test.Spec': {
    type: 'object',
    properties: {
      replicas: { type: 'integer' },
      selector: { type: 'object', properties: { app: { type: 'string' } }, 'x-kubernetes-map-type': 'atomic' },
      nodeSelector: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
      data: { type: 'object', additionalProperties: { type: 'string' } },
      containers: {
        type: 'array',
        items: { $ref: '#/definitions/test.Container' },
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'name',
      },
      args: { type: 'array', items: { type: 'string' } },
      raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      size: { type: 'string', format: 'int-or-string' },
    },
  },
  'test.Container': {
    type: 'object',
    properties: {
      name: { type: 'string' },
      image: { type: 'string' },
      ports: {
        type: 'array',
        items: { $ref: '#/definitions/test.Port' },
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      },
      env: {
        type: 'array',
        items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } } },
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
      },
    },
  },
  'test.Port': {
    type: 'object',
    properties: { containerPort: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } },
  },
};

export const LOOKUP = createSchemaLookup(TEST_DEFINITIONS);

/** The typed schema of a test kind. */
export const typeOf = (kind: string) => typeOfKind(LOOKUP, 'test', 'v1', kind).atom;

describe('typed schema conversion', () => {
  it('keyed lists from list-map keys or the patch merge key, sets, atomic lists', () => {
    const spec = typeOf('Root').map?.fields.get('spec')?.type.atom.map;
    assert.deepEqual(spec?.fields.get('containers')?.type.atom.list?.keys, ['name']);
    assert.equal(spec?.fields.get('args')?.type.atom.list?.relationship, 'atomic');
    const sets = typeOf('Sets').map;
    assert.equal(sets?.fields.get('list')?.type.atom.list?.relationship, 'associative');
    assert.equal(sets?.fields.get('merged')?.type.atom.list?.relationship, 'associative');
    assert.deepEqual(sets?.fields.get('merged')?.type.atom.list?.keys, []);
    const container = spec?.fields.get('containers')?.type.atom.list?.elementType.atom.map;
    assert.deepEqual(container?.fields.get('ports')?.type.atom.list?.keys, ['containerPort', 'protocol']);
  });

  it('atomic structs and maps, untyped int-or-string, deduced free-form values and unknown kinds', () => {
    const spec = typeOf('Root').map?.fields.get('spec')?.type.atom.map;
    assert.equal(spec?.fields.get('selector')?.type.atom.map?.relationship, 'atomic');
    assert.equal(spec?.fields.get('nodeSelector')?.type.atom.map?.relationship, 'atomic');
    assert.equal(spec?.fields.get('data')?.type.atom.map?.relationship, 'separable');
    assert.equal(spec?.fields.get('size')?.type.atom.scalar, 'untyped');
    const raw = spec?.fields.get('raw')?.type.atom;
    assert.equal(raw?.map?.relationship, 'separable');
    assert.equal(raw?.map?.elementType, DEDUCED);
    assert.equal(typeOfKind(LOOKUP, 'test', 'v1', 'Missing'), DEDUCED);
  });
});
