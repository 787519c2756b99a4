import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { createSchemaLookup, type Definitions } from '../api/schema/schema.js';
import { StatusError } from '../machinery/status.js';
import { CREATE_CASES, CUSTOM_CASES, MERGE_ITEM_DEFINITIONS, RAW_CASES } from './fixtures/strategic-upstream-cases.js';
import { PatchSchema, strategicMergePatch } from './strategic-merge-patch.js';

type JsonMap = Record<string, unknown>;

interface UpstreamCase {
  description: string;
  original?: JsonMap;
  twoWay?: JsonMap;
  modified?: JsonMap;
  twoWayResult?: JsonMap;
  current?: JsonMap;
  threeWay?: JsonMap;
  result?: JsonMap;
  expectedError?: string;
}

const mergeItem = PatchSchema.forDefinition(createSchemaLookup(MERGE_ITEM_DEFINITIONS), 'mergeItem');

function apply(original: JsonMap, patch: JsonMap, schema = mergeItem): JsonMap {
  return strategicMergePatch(original, patch, schema);
}

/** Asserts applying patch throws a Status with this code and message. */
function assertRefused(original: JsonMap, patch: JsonMap, code: number, message: string, schema = mergeItem): void {
  assert.throws(
    () => apply(original, patch, schema),
    (e: unknown) => {
      assert.ok(e instanceof StatusError, String(e));
      assert.equal(e.code, code);
      assert.equal(e.message, message);
      return true;
    },
  );
}

for (const [name, yaml] of [
  ['upstream custom cases', CUSTOM_CASES],
  ['upstream create cases', CREATE_CASES],
  ['upstream raw cases', RAW_CASES],
] as const) {
  describe(`strategic merge patch: ${name}`, () => {
    for (const c of parse(yaml) as UpstreamCase[]) {
      it(c.description, () => {
        if (c.twoWay !== undefined) {
          const twoWay = c.twoWay;
          if (c.expectedError !== undefined) {
            const wanted = c.expectedError;
            assert.throws(
              () => apply(c.original ?? {}, twoWay),
              (e: unknown) => e instanceof StatusError && e.message.includes(wanted),
            );
          } else {
            assert.deepEqual(apply(c.original ?? {}, twoWay), c.twoWayResult ?? c.modified);
          }
        }
        if (c.threeWay !== undefined && c.result !== undefined) {
          assert.deepEqual(apply(c.current ?? {}, c.threeWay), c.result);
        }
      });
    }
  });
}

describe('strategic merge patch: directives', () => {
  it('$patch: replace on a map field makes the patch the whole value', () => {
    const original = { retainKeysMap: { name: 'a', value: 'b', simpleMap: { x: '1' } } };
    assert.deepEqual(apply(original, { retainKeysMap: { $patch: 'replace', other: 'c' } }), { retainKeysMap: { other: 'c' } });
  });

  it('$patch: delete on a nested map leaves an empty map', () => {
    assert.deepEqual(apply({ simpleMap: { a: '1' }, name: 'n' }, { simpleMap: { $patch: 'delete' } }), { simpleMap: {}, name: 'n' });
  });

  it('$patch: replace in a merging list makes the other items the list', () => {
    const original = { mergingList: [{ name: 'a', value: '1' }, { name: 'b' }] };
    const patch = { mergingList: [{ name: 'c' }, { $patch: 'replace' }, { name: 'a' }] };
    assert.deepEqual(apply(original, patch), { mergingList: [{ name: 'c' }, { name: 'a' }] });
  });

  it('$deleteFromPrimitiveList removes every copy of each value and keeps the order', () => {
    const original = { mergingIntList: [5, 1, 3, 1, 2] };
    assert.deepEqual(apply(original, { '$deleteFromPrimitiveList/mergingIntList': [1, 9] }), { mergingIntList: [5, 3, 2] });
  });

  it('$deleteFromPrimitiveList of a missing field changes nothing', () => {
    assert.deepEqual(apply({ name: 'n' }, { '$deleteFromPrimitiveList/mergingIntList': [1] }), { name: 'n' });
  });

  it('a merging list of primitives is a union in the patch order, live-only items where the live list had them', () => {
    assert.deepEqual(apply({ mergingIntList: [3, 1] }, { mergingIntList: [2, 1] }), { mergingIntList: [2, 3, 1] });
  });

  it('a list without merge strategy is replaced, directives and all', () => {
    const patch = { nonMergingList: [{ name: 'x', $patch: 'delete' }] };
    assert.deepEqual(apply({ nonMergingList: [{ name: 'a' }] }, patch), patch);
  });

  it('$setElementOrder orders a list the patch does not otherwise touch; a server-only item stays before what followed it', () => {
    const original = { mergingList: [{ name: 'a' }, { name: 's' }, { name: 'b', value: 'v' }] };
    assert.deepEqual(apply(original, { '$setElementOrder/mergingList': [{ name: 'b' }, { name: 'a' }] }), {
      mergingList: [{ name: 's' }, { name: 'b', value: 'v' }, { name: 'a' }],
    });
  });

  it('$setElementOrder sorts long lists as Go sorts them (more than one insertion-sort block)', () => {
    const names = Array.from({ length: 45 }, (_, i) => `n${String(i).padStart(2, '0')}`);
    const original = { mergingList: names.map((name) => ({ name })) };
    const order = [...names].reverse().map((name) => ({ name }));
    assert.deepEqual(apply(original, { '$setElementOrder/mergingList': order }), { mergingList: order });
  });

  it('$retainKeys clears the fields it does not name, in a field of any strategy', () => {
    const original = { simpleMap: { a: '1', b: '2', c: '3' } };
    assert.deepEqual(apply(original, { simpleMap: { $retainKeys: ['a', 'd'], d: '4' } }), { simpleMap: { a: '1', d: '4' } });
  });
});

describe('strategic merge patch: values the patch adds', () => {
  it('drops objects carrying $patch and null fields from a value the original lacks', () => {
    const patch = {
      mergingList: [
        { name: 'a', value: null, $patch: 'delete' },
        { name: 'b', other: null, simpleMap: { $patch: 'replace', x: '1' } },
      ],
      retainKeysMap: { name: 'r', value: null },
    };
    assert.deepEqual(apply({}, patch), { mergingList: [{ name: 'b' }], retainKeysMap: { name: 'r' } });
  });

  it('a field whose value changes JSON type is replaced', () => {
    assert.deepEqual(apply({ mergingList: [{ name: 'a' }] }, { mergingList: { name: 'x' } }), { mergingList: { name: 'x' } });
    assert.deepEqual(apply({ simpleMap: { a: '1' } }, { simpleMap: ['a'] }), { simpleMap: ['a'] });
  });

  it('a new field whose whole value is a $patch object is not added', () => {
    assert.deepEqual(apply({ name: 'n' }, { simpleMap: { $patch: 'delete' } }), { name: 'n' });
  });

  it('leaves its inputs unmodified', () => {
    const original = { mergingList: [{ name: 'a', value: '1' }], simpleMap: { k: 'v' } };
    const patch = {
      mergingList: [
        { name: 'a', value: null },
        { name: 'b', $patch: 'delete' },
      ],
      simpleMap: { k: null },
    };
    const before = structuredClone({ original, patch });
    apply(original, patch);
    assert.deepEqual({ original, patch }, before);
  });

  it('stores a __proto__ key as a field, not as the prototype', () => {
    const patch = JSON.parse('{"simpleMap":{"__proto__":{"polluted":"yes"}}}') as JsonMap;
    const out = apply({ simpleMap: { a: '1' } }, patch);
    const simpleMap = out.simpleMap as JsonMap;
    assert.deepEqual(Object.keys(simpleMap).sort(), ['__proto__', 'a']);
    assert.equal(Object.getPrototypeOf(simpleMap), Object.prototype);
  });
});

describe('strategic merge patch: errors as upstream words them', () => {
  it('an unknown $patch value on a map', () => {
    assertRefused({ simpleMap: { a: '1' } }, { simpleMap: { $patch: 'remove', b: 2 } }, 400, 'unknown patch type: remove in map: map[$patch:remove b:2]');
  });

  it('an unknown $patch value in a merging list', () => {
    assertRefused(
      { mergingList: [{ name: 'a' }] },
      { mergingList: [{ name: 'a', $patch: true }] },
      400,
      'unknown patch type: %!s(bool=true) in map: map[$patch:true name:a]',
    );
  });

  it('$patch: merge in a merging list', () => {
    assertRefused({ mergingList: [{ name: 'a' }] }, { mergingList: [{ $patch: 'merge' }] }, 400, 'merging lists cannot yet be specified in the patch');
  });

  it('a deletion without the merge key', () => {
    assertRefused(
      { mergingList: [{ name: 'a' }] },
      { mergingList: [{ $patch: 'delete', value: 'x' }] },
      400,
      'map: map[$patch:delete value:x] does not contain declared merge key: name',
    );
  });

  it('a malformed $deleteFromPrimitiveList key', () => {
    assertRefused({ mergingIntList: [1] }, { $deleteFromPrimitiveListmergingIntList: [1] }, 400, 'invalid patch format of primitive list');
  });

  it('a malformed $setElementOrder key or value', () => {
    assertRefused({ mergingIntList: [1] }, { $setElementOrder: [1] }, 400, 'invalid patch format of setElementOrder list');
    assertRefused({ mergingIntList: [1] }, { '$setElementOrder/mergingIntList': 'x' }, 400, 'expected a []interface {}, but received a string');
  });

  it('a $setElementOrder the patch list does not follow', () => {
    assertRefused(
      { mergingIntList: [1, 2] },
      { '$setElementOrder/mergingIntList': [1, 2], mergingIntList: [2, 1] },
      400,
      "The order in patch list:\n[2 1]\n doesn't match $setElementOrder list:\n[1 2]\n",
    );
  });

  it('a $retainKeys that is not a list, or omits a field the patch sets', () => {
    assertRefused({ retainKeysMap: { name: 'a' } }, { retainKeysMap: { $retainKeys: 'name' } }, 400, 'invalid patch format of retainKeys');
    assertRefused({ retainKeysMap: { name: 'a' } }, { retainKeysMap: { $retainKeys: ['name'], value: 'v' } }, 400, 'invalid patch format of retainKeys');
  });

  it('lists of lists are 422 as upstream answers them', () => {
    assert.throws(
      () => apply({ mergingIntList: [[1]] }, { mergingIntList: [[2]] }),
      (e: unknown) => {
        assert.ok(e instanceof StatusError);
        assert.deepEqual(e.toStatus(), {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'the server rejected our request due to an error in our request',
          reason: 'Invalid',
          details: { causes: [{ reason: 'UnexpectedServerResponse', message: 'lists of lists are not supported' }] },
          code: 422,
        });
        return true;
      },
    );
  });

  it('a merging list mixing element types', () => {
    assertRefused({ mergingIntList: [1, 2] }, { mergingIntList: ['a'] }, 400, 'list element types are not identical: [[1 2] [a]]');
  });

  it('a merge key that is missing from an item to merge', () => {
    assertRefused({ mergingList: [{ name: 'a' }] }, { mergingList: [{ value: 'b' }] }, 400, 'map: map[value:b] does not contain declared merge key: name');
  });
});

describe('strategic merge patch: fields the schema does not have', () => {
  const definitions: Definitions = {
    'io.k8s.api.example.v1.Thing': {
      type: 'object',
      properties: {
        data: { $ref: '#/definitions/io.k8s.apimachinery.pkg.runtime.RawExtension' },
        items: { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'merge' },
      },
    },
    'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
  };
  const thing = PatchSchema.forDefinition(createSchemaLookup(definitions), 'io.k8s.api.example.v1.Thing');

  it('an unknown field present on both sides merges as plain maps, lists replaced', () => {
    const original = { extra: { a: '1', list: [1, 2], nested: { x: 1 } } };
    const patch = { extra: { b: '2', list: [3], nested: { y: 2 } } };
    assert.deepEqual(apply(original, patch, thing), { extra: { a: '1', b: '2', list: [3], nested: { x: 1, y: 2 } } });
  });

  it('$setElementOrder of an unknown field is upstream lookup error', () => {
    assertRefused({}, { '$setElementOrder/extra': [1] }, 400, 'unable to find api field in struct Thing for the json field "extra"', thing);
  });

  it('merging into free-form content (RawExtension) is upstream lookup error', () => {
    assertRefused({ data: { a: { b: 1 } } }, { data: { a: { c: 2 } } }, 400, 'unable to find api field in struct RawExtension for the json field "a"', thing);
  });

  it('free-form content still takes new keys and replaced values', () => {
    assert.deepEqual(apply({ data: { a: 1 } }, { data: { b: [1], a: 2 } }, thing), { data: { a: 2, b: [1] } });
  });

  it('a merging list of primitives declared in the schema', () => {
    assert.deepEqual(apply({ items: ['a'] }, { items: ['b', 'a'] }, thing), { items: ['b', 'a'] });
  });
});
