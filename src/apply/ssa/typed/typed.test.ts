import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pathString } from '../path-element.js';
import { typeOf } from '../test-schemas.test.js';
import { typedErrorsMessage } from './atoms.js';
import { compareTyped } from './compare.js';
import { mergeTyped } from './merge.js';
import { removeItems } from './remove.js';
import { toFieldSet } from './to-field-set.js';
import { validateTyped } from './validate.js';
import { FieldSet } from '../field-set.js';
import { fullCompare, next, randomRoot, rngOf } from '../random-objects.test.js';

const paths = (s: FieldSet) => s.paths().map(pathString);

describe('merge (structured-merge-diff typed/merge_test cases)', () => {
  const sets = typeOf('Sets');
  const root = typeOf('Root');
  const cases: Array<[string, unknown, unknown, unknown, 'Sets' | 'Root' | 'Leaf']> = [
    ['scalar: rhs wins', { numeric: 1 }, { numeric: 2.5 }, { numeric: 2.5 }, 'Leaf'],
    ['disjoint fields merge', { string: 'aoeu' }, { bool: true }, { string: 'aoeu', bool: true }, 'Leaf'],
    ['set keeps lhs items', { list: ['a', 'b', 'c'] }, { list: ['a', 'b'] }, { list: ['a', 'b', 'c'] }, 'Sets'],
    ['set adds rhs items', { list: ['a', 'b'] }, { list: ['a', 'b', 'c'] }, { list: ['a', 'b', 'c'] }, 'Sets'],
    ['empty rhs set keeps lhs', { list: ['a', 'b', 'c'] }, { list: [] }, { list: ['a', 'b', 'c'] }, 'Sets'],
    ['empty lhs set takes rhs', { list: [] }, { list: ['a', 'b', 'c'] }, { list: ['a', 'b', 'c'] }, 'Sets'],
    // 1.25's ordering: shared items in rhs order, lhs-only items where they were.
    ['lhs-only items keep their place', { list: ['true-ish'] }, { list: ['false-ish'] }, { list: ['true-ish', 'false-ish'] }, 'Sets'],
    ['shared items take the rhs order', { list: ['a', 'b', 'c', 'd'] }, { list: ['a', 'd', 'c', 'b'] }, { list: ['a', 'd', 'c', 'b'] }, 'Sets'],
    ['atomic list is replaced', { atomic: ['a', 'b', 'c'] }, { atomic: [] }, { atomic: [] }, 'Sets'],
    ['atomic list null replaces', { atomic: ['a', 'a', 'a'] }, { atomic: null }, { atomic: null }, 'Sets'],
    ['empty/null distinction kept', {}, { atomic: null }, { atomic: null }, 'Sets'],
  ];
  for (const [name, lhs, rhs, out, kind] of cases) {
    it(name, () => assert.deepEqual(mergeTyped(lhs, rhs, kind === 'Sets' ? sets : kind === 'Root' ? root : typeOf('Leaf')), out));
  }

  it('keyed list items merge by key, new rhs items where the rhs puts them', () => {
    const lhs = { spec: { containers: [{ name: 'b', image: 'b1' }] } };
    const rhs = { spec: { containers: [{ name: 'a', image: 'a1' }, { name: 'b', image: 'b2' }, { name: 'c' }] } };
    assert.deepEqual(mergeTyped(lhs, rhs, root), {
      spec: { containers: [{ name: 'a', image: 'a1' }, { name: 'b', image: 'b2' }, { name: 'c' }] },
    });
  });

  it('atomic maps are replaced, granular maps merged key by key', () => {
    const lhs = { spec: { selector: { app: 'a' }, nodeSelector: { x: '1', y: '2' }, data: { x: '1', y: '2' } } };
    const rhs = { spec: { nodeSelector: { z: '3' }, data: { z: '3' } } };
    assert.deepEqual(mergeTyped(lhs, rhs, root), { spec: { selector: { app: 'a' }, nodeSelector: { z: '3' }, data: { x: '1', y: '2', z: '3' } } });
  });

  it('a key field missing from an item takes its default', () => {
    const lhs = { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] }] } };
    const rhs = { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80 }] }] } };
    assert.deepEqual(mergeTyped(lhs, rhs, root), lhs);
  });
});

describe('toFieldSet', () => {
  it('owns scalars, list items, map keys and atomic values; declared structs through their fields', () => {
    const obj = {
      metadata: { name: 'x', labels: { app: 'a' }, finalizers: ['f'] },
      spec: { replicas: 1, selector: { app: 'a' }, args: ['x'], containers: [{ name: 'c', ports: [{ containerPort: 80 }] }], raw: { a: { b: [1] } } },
    };
    assert.deepEqual(paths(toFieldSet(obj, typeOf('Root'))), [
      '.metadata.name',
      '.metadata.finalizers[="f"]',
      '.metadata.labels.app',
      '.spec.args',
      '.spec.replicas',
      '.spec.selector',
      '.spec.containers[name="c"]',
      '.spec.containers[name="c"].name',
      '.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"]',
      '.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].containerPort',
      '.spec.raw.a',
      '.spec.raw.a.b',
    ]);
  });
});

describe('compare', () => {
  it('leaves added, modified, removed, and whole nodes that appeared or went', () => {
    const root = typeOf('Root');
    const c = compareTyped(
      { metadata: { labels: { a: '1', b: '2' } }, spec: { replicas: 1, containers: [{ name: 'x', image: 'i' }] } },
      { metadata: { labels: { a: '9' } }, spec: { replicas: 1, data: { k: 'v' }, containers: [{ name: 'y', image: 'i' }] } },
      root,
    );
    assert.deepEqual(paths(c.added), [
      '.spec.data',
      '.spec.containers[name="y"]',
      '.spec.containers[name="y"].image',
      '.spec.containers[name="y"].name',
      '.spec.data.k',
    ]);
    assert.deepEqual(paths(c.modified), ['.metadata.labels.a']);
    assert.deepEqual(paths(c.removed), [
      '.metadata.labels.b',
      '.spec.containers[name="x"]',
      '.spec.containers[name="x"].image',
      '.spec.containers[name="x"].name',
    ]);
  });
});

describe('removeItems', () => {
  it('removes members with their subtree and drops what is left empty', () => {
    const root = typeOf('Root');
    const obj = { spec: { replicas: 2, data: { a: '1' }, containers: [{ name: 'x', image: 'i' }, { name: 'y' }] } };
    const doomed = new FieldSet();
    for (const p of toFieldSet({ spec: { data: { a: '1' }, containers: [{ name: 'x', image: 'i' }] } }, root).paths()) doomed.insert(p);
    assert.deepEqual(removeItems(obj, doomed, root), { spec: { replicas: 2, containers: [{ name: 'y' }] } });
  });
});

describe('validate (AsTyped)', () => {
  const root = typeOf('Root');
  const message = (v: unknown) => typedErrorsMessage(validateTyped(v, root));

  it('accepts a conforming object', () => assert.deepEqual(validateTyped({ spec: { replicas: 1, size: '50%' } }, root), []));

  it('refuses an undeclared field', () => assert.equal(message({ spec: { foo: 1 } }), '.spec.foo: field not declared in schema'));

  it('refuses duplicate keys and items without their key', () => {
    assert.equal(message({ spec: { containers: [{ name: 'a' }, { name: 'a' }] } }), '.spec.containers: duplicate entries for key [name="a"]');
    assert.equal(
      message({ spec: { containers: [{ image: 'x' }] } }),
      '.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    );
  });

  it('refuses values of the wrong type, several errors listed', () => {
    assert.equal(
      message({ spec: { replicas: 'x', args: 'y' } }),
      'errors:\n  .spec.replicas: expected numeric (int or float), got string\n  .spec.args: expected list, got &{y}',
    );
  });
});

describe('compare of writes (random objects)', () => {
  it('finds what the full walk finds, skipping equal lists and maps', () => {
    const root = typeOf('Root');
    const rng = rngOf(7);
    for (let i = 0; i < 300; i++) {
      const live = randomRoot(rng);
      for (const write of [next(rng, live), structuredClone(live), randomRoot(rng)]) {
        const fast = compareTyped(live, write, root);
        const full = fullCompare(live, write, root);
        const context = JSON.stringify({ live, write });
        assert.deepEqual(paths(fast.added), paths(full.added), context);
        assert.deepEqual(paths(fast.modified), paths(full.modified), context);
        assert.deepEqual(paths(fast.removed), paths(full.removed), context);
      }
    }
  });
});
