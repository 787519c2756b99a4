/**
 * The patch functions and the typed reading of an object treat every Object.prototype member
 * name as an ordinary key: merged, added, replaced and removed as any key is, `__proto__` stored
 * as a key (the result's prototype never changes), and an unknown field so named reported.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSchemas } from '../api/schema/index.js';
import { readTypedFields } from '../codec/typed-fields.js';
import { applyJsonPatch } from './json-patch.js';
import { mergePatch } from './merge-patch.js';
import { PatchSchema, strategicMergePatch } from './strategic-merge-patch.js';

const NAMES = Object.getOwnPropertyNames(Object.prototype);
const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;

/** Every object in v has Object.prototype as its prototype (none was replaced by a `__proto__` write). */
function prototypesIntact(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (Array.isArray(v)) return v.every(prototypesIntact);
  return Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(prototypesIntact);
}

const configMapSchema = () => PatchSchema.forDefinition(apiSchemas(), 'io.k8s.api.core.v1.ConfigMap');

describe('Object.prototype names as keys', () => {
  for (const key of NAMES) {
    const q = JSON.stringify(key);
    it(`${key}: merge patch adds, merges and deletes it as a key`, () => {
      const added = mergePatch(parse('{"data":{"a":"1"}}'), parse(`{"data":{${q}:"v"},${q}:{"polluted":"yes"}}`));
      assert.equal(JSON.stringify(added), `{"data":{"a":"1",${q}:"v"},${q}:{"polluted":"yes"}}`);
      assert.ok(prototypesIntact(added));
      const merged = mergePatch(added, parse(`{${q}:{"more":1}}`));
      assert.equal(JSON.stringify((merged as Record<string, unknown>)[key]), '{"polluted":"yes","more":1}');
      assert.equal(JSON.stringify(mergePatch(added, parse(`{${q}:null,"data":{${q}:null}}`))), '{"data":{"a":"1"}}');
      // Absent, it is absent: merging into it starts from nothing, not from an inherited member.
      assert.equal(JSON.stringify(mergePatch({}, parse(`{${q}:{"x":1}}`))), `{${q}:{"x":1}}`);
    });

    it(`${key}: JSON patch adds, replaces, moves and removes it, and refuses it where absent`, () => {
      const doc = parse('{"data":{"a":"1"}}');
      const ptr = `/data/${key}`;
      const added = applyJsonPatch(doc, [{ op: 'add', path: ptr, value: { polluted: 'yes' } }]) as Record<string, Record<string, unknown>>;
      assert.ok(Object.hasOwn(added.data, key));
      assert.ok(prototypesIntact(added));
      const replaced = applyJsonPatch(added, [{ op: 'replace', path: ptr, value: 'v' }]);
      assert.equal(JSON.stringify(replaced), `{"data":{"a":"1",${q}:"v"}}`);
      assert.equal(JSON.stringify(applyJsonPatch(replaced, [{ op: 'move', from: ptr, path: '/data/b' }])), '{"data":{"a":"1","b":"v"}}');
      assert.equal(JSON.stringify(applyJsonPatch(replaced, [{ op: 'remove', path: ptr }])), '{"data":{"a":"1"}}');
      for (const op of [
        { op: 'remove', path: ptr },
        { op: 'replace', path: ptr, value: 1 },
        { op: 'copy', from: ptr, path: '/b' },
        { op: 'add', path: `${ptr}/x`, value: 1 },
      ]) {
        assert.throws(
          () => applyJsonPatch(doc, [op]),
          (e: { code?: number }) => e.code === 422,
          JSON.stringify(op),
        );
      }
    });

    it(`${key}: strategic merge patch adds and deletes it in a map`, () => {
      const added = strategicMergePatch(parse('{"data":{"a":"1"}}'), parse(`{"data":{${q}:"v"}}`), configMapSchema());
      assert.equal(JSON.stringify(added), `{"data":{"a":"1",${q}:"v"}}`);
      assert.ok(prototypesIntact(added));
      assert.equal(JSON.stringify(strategicMergePatch(added, parse(`{"data":{${q}:null}}`), configMapSchema())), '{"data":{"a":"1"}}');
    });

    it(`${key}: is an unknown field of a type, at the top, in metadata and in a list item; a map key stays`, () => {
      const pod = parse(
        `{"apiVersion":"v1","kind":"Pod",${q}:1,"metadata":{"name":"p",${q}:1,"labels":{${q}:"v"}},"spec":{"containers":[{"name":"c",${q}:{"polluted":"yes"}}]}}`,
      );
      const unknown = readTypedFields(pod, apiSchemas(), 'io.k8s.api.core.v1.Pod');
      assert.deepEqual(unknown, [key, `metadata.${key}`, `spec.containers[0].${key}`]);
      assert.equal(JSON.stringify(pod), `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{${q}:"v"}},"spec":{"containers":[{"name":"c"}]}}`);
    });
  }
});
