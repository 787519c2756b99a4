import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorBody } from '../../machinery/status.js';
import { structuralErrors } from '../../api/apiextensions/structural.js';
import { findAll, parseJsonPath } from '../../printers/custom-columns.js';
import { acceptNames, usedNamesOf } from './names.js';
import { namesOf } from './definitions.js';
import { applyDefaults, prune } from './prune-default.js';
import { goFloat, SchemaValidator } from './schema-validator.js';
import { embeddedErrors } from './embedded.js';
import { listTypeErrors } from './list-types.js';

const SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 3, minLength: 2 },
        when: { type: 'string', format: 'date-time' },
        count: { type: 'integer', format: 'int32' },
        port: { 'x-kubernetes-int-or-string': true },
        tags: { type: 'array', maxItems: 1, items: { type: 'string' } },
        note: { type: 'string', nullable: true },
        mode: { type: 'string', default: 'fast' },
        limits: { type: 'object', additionalProperties: { type: 'integer', default: 1 } },
        raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
      },
    },
  },
};

function messages(obj: object): string[] {
  return new SchemaValidator(SCHEMA).validate(obj as never).map((e) => `${e.field}: ${fieldErrorBody(e)}`);
}

describe('custom resource schemas', () => {
  it('reports value errors with kube-openapi messages as field errors', () => {
    assert.deepEqual(messages({ spec: { name: 'long', tags: ['a', 'b'], note: null } }), [
      'spec.name: Too long: may not be longer than 3',
      'spec.tags: Too many: 2: must have at most 1 items',
    ]);
    assert.deepEqual(messages({ spec: { name: 'x' } }), ['spec.name: Invalid value: "x": spec.name in body should be at least 2 chars long']);
    assert.deepEqual(messages({ spec: { port: 80 } }), []);
    assert.deepEqual(messages({ spec: { when: '2024-01-02T03:04:05Z', count: 5 } }), []);
    assert.deepEqual(messages({ spec: { when: 'yesterday' } }), [
      'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
    ]);
    assert.deepEqual(messages({ spec: { port: '80' } }), []);
    assert.ok(messages({ spec: { port: true } }).includes('spec.port: Invalid value: "": spec.port in body must validate at least one schema (anyOf)'));
    assert.deepEqual(messages({ spec: { mode: null } }), ['spec.mode: Invalid value: "null": spec.mode in body must be of type string: "null"']);
  });

  it('formats bounds as Go prints a float64', () => {
    assert.equal(goFloat(10), '10');
    assert.equal(goFloat(1.5), '1.5');
    assert.equal(goFloat(100000), '100000');
    assert.equal(goFloat(1000000), '1e+06');
    assert.equal(goFloat(1234567), '1.234567e+06');
    assert.equal(goFloat(0.00001), '1e-05');
  });

  it('prunes what the schema does not specify, keeping metadata, preserved and embedded identity fields', () => {
    const obj = {
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'a', labels: { k: 'v' } },
      other: 1,
      spec: { name: 'ab', bogus: true, raw: { any: { thing: 1 } }, embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {}, junk: 1 } },
    };
    assert.deepEqual(prune(obj, SCHEMA), ['other', 'spec.bogus', 'spec.embedded.junk']);
    assert.deepEqual(obj, {
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'a', labels: { k: 'v' } },
      spec: { name: 'ab', raw: { any: { thing: 1 } }, embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } },
    });
  });

  it('defaults absent fields and nulls of fields that are not nullable', () => {
    const obj: Record<string, any> = { spec: { mode: null, limits: { cpu: 2 } } };
    applyDefaults(obj, SCHEMA);
    assert.equal(obj.spec.mode, 'fast');
    assert.deepEqual(obj.spec.limits, { cpu: 2 });
    const empty: Record<string, any> = {};
    applyDefaults(empty, SCHEMA);
    assert.deepEqual(empty, {});
  });

  it('finds structural errors with upstream paths and messages', () => {
    const errs = structuralErrors(
      {
        type: 'object',
        additionalProperties: { type: 'string' },
        properties: {
          a: {},
          b: { type: 'array' },
          metadata: { type: 'object', properties: { labels: { type: 'object' } } },
          c: { type: 'string', anyOf: [{ type: 'string' }] },
        },
      },
      's',
    ).map((e) => `${e.field}: ${fieldErrorBody(e)}`);
    assert.ok(errs.includes('s.properties[a].type: Required value: must not be empty for specified object fields'), errs.join('\n'));
    assert.ok(errs.includes('s.properties[b].items: Required value: must be specified'));
    assert.ok(errs.includes('s.additionalProperties: Forbidden: must not be used at the root'));
    assert.ok(
      errs.includes('s.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified'),
    );
    assert.ok(errs.includes('s.properties[c].anyOf[0].type: Forbidden: must be empty to be structural'));
    assert.deepEqual(
      structuralErrors(
        { type: 'object', properties: { p: { 'x-kubernetes-int-or-string': true }, q: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
        's',
      ),
      [],
    );
  });

  it('accepts names not held by another CRD of the group, keeping those it holds', () => {
    const held = namesOf({ plural: 'as', kind: 'A', shortNames: ['x'] });
    const used = usedNamesOf([held]);
    const fresh = acceptNames(namesOf({ plural: 'bs', kind: 'B' }), namesOf({}), used);
    assert.deepEqual(fresh.namesAccepted, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    const clash = acceptNames(namesOf({ plural: 'cs', kind: 'C', shortNames: ['x', 'as'] }), namesOf({}), used);
    assert.equal(clash.namesAccepted.reason, 'ShortNamesConflict');
    assert.equal(clash.namesAccepted.message, '["x" is already in use, "as" is already in use]');
    assert.deepEqual(clash.names.shortNames, []);
    assert.equal(clash.names.plural, 'cs');
  });

  it('evaluates printer column JSONPaths', () => {
    const obj = {
      status: {
        conditions: [
          { type: 'Synced', status: 'False' },
          { type: 'Ready', status: 'True' },
        ],
      },
      spec: { 'a.b': 1, list: [1, 2] },
    };
    assert.deepEqual(findAll(obj, parseJsonPath('.status.conditions[?(@.type=="Ready")].status')), ['True']);
    assert.deepEqual(findAll(obj, parseJsonPath("{.spec['a.b']}")), [1]);
    assert.deepEqual(findAll(obj, parseJsonPath('.spec.list[*]')), [1, 2]);
    assert.deepEqual(findAll(obj, parseJsonPath('.spec.list[-1]')), [2]);
    assert.deepEqual(findAll(obj, parseJsonPath('.spec.missing')), []);
    assert.throws(() => parseJsonPath('spec'));
  });

  it('requires apiVersion and kind of embedded resources', () => {
    const errs = embeddedErrors({ spec: { embedded: { kind: 'not_a_kind', metadata: {} } } }, SCHEMA).map((e) => `${e.field}: ${fieldErrorBody(e)}`);
    assert.equal(errs[0], 'spec.embedded.apiVersion: Required value: must not be empty');
    assert.match(errs[1], /^spec.embedded.kind: Invalid value: "not_a_kind": may have mixed case, but should otherwise match: /);
    assert.deepEqual(embeddedErrors({ spec: { embedded: { apiVersion: 'v1', kind: 'Pod' } } }, SCHEMA), []);
  });

  it('refuses repeated items of set lists and repeated keys of map lists', () => {
    const schema = {
      type: 'object',
      properties: {
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port', 'protocol'], items: { type: 'object' } },
      },
    };
    const errs = listTypeErrors(
      {
        tags: ['a', 'b', 'a'],
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 80, protocol: 'UDP' },
          { port: 80, protocol: 'TCP', name: 'x' },
        ],
      },
      schema,
    );
    assert.deepEqual(
      errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`),
      ['tags[2]: Duplicate value: "a"', 'ports[2]: Duplicate value: map[string]interface {}{"port":80, "protocol":"TCP"}'],
    );
  });
});
