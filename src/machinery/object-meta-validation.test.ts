import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KUBERNETES_BRAND, ORCH_BRAND } from './brand.js';
import type { ObjectMeta } from './object.js';
import { standardFinalizers, validateObjectMeta, validateObjectMetaUpdate } from './object-meta-validation.js';
import { fieldErrorBody, invalidObject } from './status.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const ns = { namespaced: true, nameRule: 'subdomain' } as const;
const cluster = { namespaced: false, nameRule: 'subdomain' } as const;

test('a valid object has no errors', () => {
  assert.deepEqual(
    validateObjectMeta(
      {
        name: 'web-1',
        namespace: 'default',
        labels: { app: 'web', 'example.com/tier': 'front' },
        annotations: { 'Example.com/Note': 'any text at all' },
        finalizers: ['example.com/cleanup', 'orphan'],
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true }],
        generation: 1,
      },
      { ...ns, standardFinalizers: standardFinalizers(ORCH_BRAND) },
    ),
    [],
  );
});

test('name is required unless generateName; generateName masks a trailing dash', () => {
  assert.deepEqual(validateObjectMeta({ namespace: 'default' }, ns), [
    { type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' },
  ]);
  // After generation the name is set; a prefix ending in '-' is fine.
  assert.deepEqual(validateObjectMeta({ generateName: 'web-', name: 'web-x7k2p', namespace: 'default' }, ns), []);
  assert.deepEqual(validateObjectMeta({ generateName: 'Web-', name: 'web-x7k2p', namespace: 'default' }, ns), [
    { type: 'FieldValueInvalid', field: 'metadata.generateName', value: 'Web-', detail: SUBDOMAIN_MSG },
  ]);
  assert.deepEqual(validateObjectMeta({ name: 'Web', namespace: 'default' }, ns), [
    { type: 'FieldValueInvalid', field: 'metadata.name', value: 'Web', detail: SUBDOMAIN_MSG },
  ]);
});

test('name rules', () => {
  assert.deepEqual(validateObjectMeta({ name: 'a.b' }, { namespaced: false, nameRule: 'label' }), [
    { type: 'FieldValueInvalid', field: 'metadata.name', value: 'a.b', detail: LABEL_MSG },
  ]);
  assert.equal(validateObjectMeta({ name: '1svc', namespace: 'd' }, { namespaced: true, nameRule: 'dns1035' }).length, 1);
  assert.deepEqual(validateObjectMeta({ name: 'system:node:Foo' }, { namespaced: false, nameRule: 'path-segment' }), []);
  assert.deepEqual(validateObjectMeta({ name: '..' }, { namespaced: false, nameRule: 'path-segment' }), [
    { type: 'FieldValueInvalid', field: 'metadata.name', value: '..', detail: "may not be '..'" },
  ]);
  assert.deepEqual(validateObjectMeta({ name: 'ANY' }, { namespaced: false, nameRule: () => [] }), []);
});

test('namespace required for namespaced, forbidden for cluster-scoped', () => {
  assert.deepEqual(validateObjectMeta({ name: 'a' }, ns), [{ type: 'FieldValueRequired', field: 'metadata.namespace', detail: undefined }]);
  assert.deepEqual(validateObjectMeta({ name: 'a', namespace: 'Bad' }, ns), [
    { type: 'FieldValueInvalid', field: 'metadata.namespace', value: 'Bad', detail: LABEL_MSG },
  ]);
  const errs = validateObjectMeta({ name: 'a', namespace: 'default' }, cluster);
  assert.deepEqual(errs, [{ type: 'FieldValueForbidden', field: 'metadata.namespace', detail: 'not allowed on this type' }]);
  assert.equal(fieldErrorBody(errs[0]), 'Forbidden: not allowed on this type');
});

test('generation, labels and annotations', () => {
  const errs = validateObjectMeta({ name: 'a', generation: -1, labels: { 'a/b/c': 'x' }, annotations: { 'bad key': 'v' } }, cluster);
  assert.deepEqual(
    errs.map((e) => [e.field, fieldErrorBody(e)]),
    [
      ['metadata.generation', 'Invalid value: -1: must be greater than or equal to 0'],
      [
        'metadata.labels',
        `Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
      ['metadata.annotations', `Invalid value: "bad key": ${NAME_PART_MSG}`],
    ],
  );
});

test('annotations are limited to 256 KiB in total', () => {
  const fits = { a: 'x'.repeat(262144 - 1) };
  assert.deepEqual(validateObjectMeta({ name: 'a', annotations: fits }, cluster), []);
  const big = { a: 'x'.repeat(262144) };
  const errs = validateObjectMeta({ name: 'a', annotations: big }, cluster);
  assert.deepEqual(errs, [{ type: 'FieldValueTooLong', field: 'metadata.annotations', value: '', detail: 'must have at most 262144 bytes' }]);
  assert.equal(fieldErrorBody(errs[0]), 'Too long: must have at most 262144 bytes');
  // Bytes, not characters: 2-byte characters reach the limit at half the length.
  assert.equal(validateObjectMeta({ name: 'a', annotations: { a: 'é'.repeat(131072) } }, cluster).length, 1);
});

test('finalizers', () => {
  const errs = validateObjectMeta(
    { name: 'a', finalizers: ['orphan', 'foregroundDeletion', 'my-finalizer', 'example.com/ok', '-bad'] },
    { ...cluster, standardFinalizers: standardFinalizers(KUBERNETES_BRAND) },
  );
  assert.deepEqual(
    errs.map((e) => [e.field, fieldErrorBody(e)]),
    [
      ['metadata.finalizers', `Invalid value: "-bad": ${NAME_PART_MSG}`],
      [
        'metadata.finalizers',
        'Invalid value: ["orphan","foregroundDeletion","my-finalizer","example.com/ok","-bad"]: finalizer orphan and foregroundDeletion cannot be both set',
      ],
      ['metadata.finalizers[2]', 'Invalid value: "my-finalizer": name is neither a standard finalizer name nor is it fully qualified'],
      ['metadata.finalizers[4]', 'Invalid value: "-bad": name is neither a standard finalizer name nor is it fully qualified'],
    ],
  );
  // Custom resources (no standardFinalizers) accept any qualified name.
  assert.deepEqual(validateObjectMeta({ name: 'a', finalizers: ['my-finalizer'] }, cluster), []);
  assert.ok(standardFinalizers(KUBERNETES_BRAND).has('kubernetes'));
  assert.ok(standardFinalizers(ORCH_BRAND).has(ORCH_BRAND.namespaceFinalizer));
});

test('owner references', () => {
  const errs = validateObjectMeta(
    {
      name: 'a',
      ownerReferences: [
        { apiVersion: '', kind: '', name: '', uid: '' },
        { apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u', controller: true },
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u2', controller: true },
      ],
    },
    cluster,
  );
  assert.deepEqual(
    errs.map((e) => [e.field, e.detail]),
    [
      ['metadata.ownerReferences.apiVersion', 'version must not be empty'],
      ['metadata.ownerReferences.kind', 'kind must not be empty'],
      ['metadata.ownerReferences.name', 'name must not be empty'],
      ['metadata.ownerReferences.uid', 'uid must not be empty'],
      ['metadata.ownerReferences', '/v1, Kind=Event is disallowed from being an owner'],
      ['metadata.ownerReferences', 'Only one reference can have Controller set to true. Found "true" in references for e and d'],
    ],
  );
});

test('managed fields', () => {
  const errs = validateObjectMeta(
    {
      name: 'a',
      managedFields: [
        { manager: 'ok', operation: 'Apply', fieldsType: 'FieldsV1' },
        { manager: 'a\tb', operation: 'Patch', fieldsType: 'X' },
      ],
    },
    cluster,
  );
  assert.deepEqual(
    errs.map((e) => [e.field, e.detail]),
    [
      ['metadata.managedFields[1].operation', 'must be `Apply` or `Update`'],
      ['metadata.managedFields[1].fieldsType', 'must be `FieldsV1`'],
      ['metadata.managedFields[1].manager', 'invalid character U+0009 (at position 1)'],
    ],
  );
});

const old: ObjectMeta = {
  name: 'a',
  namespace: 'default',
  uid: 'u1',
  resourceVersion: '5',
  generation: 2,
  creationTimestamp: '2024-01-01T00:00:00Z',
};

test('update: unchanged metadata is valid', () => {
  assert.deepEqual(validateObjectMetaUpdate({ ...old, labels: { x: 'y' }, generateName: 'changed-' }, old), []);
  // The same instant spelled differently is the same time.
  assert.deepEqual(validateObjectMetaUpdate({ ...old, creationTimestamp: '2024-01-01T00:00:00.000Z' }, old), []);
});

test('update: immutable fields, resourceVersion and generation', () => {
  const errs = validateObjectMetaUpdate(
    {
      name: 'b',
      namespace: 'other',
      uid: 'u2',
      generation: 1,
      creationTimestamp: '2025-01-01T00:00:00Z',
      deletionTimestamp: '2025-01-01T00:00:00Z',
      deletionGracePeriodSeconds: 30,
    },
    old,
  );
  assert.deepEqual(
    errs.map((e) => [e.field, fieldErrorBody(e)]),
    [
      ['metadata.resourceVersion', 'Invalid value: "": must be specified for an update'],
      ['metadata.generation', 'Invalid value: 1: must not be decremented'],
      ['metadata.name', 'Invalid value: "b": field is immutable'],
      ['metadata.namespace', 'Invalid value: "other": field is immutable'],
      ['metadata.uid', 'Invalid value: "u2": field is immutable'],
      ['metadata.creationTimestamp', 'Invalid value: "2025-01-01T00:00:00Z": field is immutable'],
      ['metadata.deletionTimestamp', 'Invalid value: "2025-01-01T00:00:00Z": field is immutable'],
      ['metadata.deletionGracePeriodSeconds', 'Invalid value: 30: field is immutable'],
    ],
  );
  const e = invalidObject('ConfigMap', '', 'a', errs.slice(2, 3));
  assert.equal(e.message, 'ConfigMap "a" is invalid: metadata.name: Invalid value: "b": field is immutable');
});

test('update: no new finalizers while deleting; core finalizer names', () => {
  const deleting = { ...old, deletionTimestamp: '2024-02-01T00:00:00Z', finalizers: ['example.com/a'] };
  assert.deepEqual(validateObjectMetaUpdate({ ...deleting, finalizers: [] }, deleting), []);
  assert.deepEqual(validateObjectMetaUpdate({ ...deleting, finalizers: ['example.com/a', 'example.com/c', 'example.com/b'] }, deleting), [
    {
      type: 'FieldValueForbidden',
      field: 'metadata.finalizers',
      detail: 'no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b", "example.com/c"}',
    },
  ]);
  assert.deepEqual(
    validateObjectMetaUpdate({ ...old, finalizers: ['custom'] }, old, { standardFinalizers: standardFinalizers(ORCH_BRAND) }).map((x) => x.field),
    ['metadata.finalizers[0]'],
  );
});
