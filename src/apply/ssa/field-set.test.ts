import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldSet, setOf } from './field-set.js';
import { fieldElement as f, indexElement as i, keyElement as k, parsePathElement, pathString, valueElement as v } from './path-element.js';

describe('path elements', () => {
  it('spell FieldsV1 keys as upstream: f:, k: with keys sorted by name, v:, i:', () => {
    assert.equal(f('spec').id, 'f:spec');
    assert.equal(
      k([
        ['protocol', 'TCP'],
        ['containerPort', 80],
      ]).id,
      'k:{"containerPort":80,"protocol":"TCP"}',
    );
    assert.equal(v('a').id, 'v:"a"');
    assert.equal(v(true).id, 'v:true');
    assert.equal(i(3).id, 'i:3');
  });

  it('escape values as encoding/json does (HTML-safe)', () => {
    assert.equal(v('<a&b>').id, 'v:"\\u003ca\\u0026b\\u003e"');
    assert.equal(k([['name', 'x"y']]).id, 'k:{"name":"x\\"y"}');
  });

  it('print paths as conflict messages do', () => {
    assert.equal(pathString([f('spec'), f('replicas')]), '.spec.replicas');
    assert.equal(pathString([f('spec'), f('containers'), k([['name', 'nginx']]), f('image')]), '.spec.containers[name="nginx"].image');
    assert.equal(pathString([f('finalizers'), v('a')]), '.finalizers[="a"]');
    assert.equal(pathString([f('args'), i(0)]), '.args[0]');
    assert.equal(
      pathString([
        f('ports'),
        k([
          ['containerPort', 80],
          ['protocol', 'TCP'],
        ]),
      ]),
      '.ports[containerPort=80,protocol="TCP"]',
    );
  });

  it('parse FieldsV1 keys, keys re-sorted; an unknown prefix is skipped', () => {
    assert.equal(parsePathElement('k:{"protocol":"TCP","containerPort":80}')?.id, 'k:{"containerPort":80,"protocol":"TCP"}');
    assert.equal(parsePathElement('x:whatever'), undefined);
    assert.throws(() => parsePathElement('f'));
    assert.throws(() => parsePathElement('fx'));
  });
});

describe('FieldSet', () => {
  const a = setOf([f('a')], [f('b'), f('c')], [f('b'), f('d')]);
  const b = setOf([f('b'), f('c')], [f('e')]);

  it('union, intersection, difference', () => {
    assert.deepEqual(a.union(b).paths().map(pathString), ['.a', '.e', '.b.c', '.b.d']);
    assert.deepEqual(a.intersection(b).paths().map(pathString), ['.b.c']);
    assert.deepEqual(a.difference(b).paths().map(pathString), ['.a', '.b.d']);
  });

  it('a member of the other set removes its subtree only in recursiveDifference', () => {
    const owner = setOf([f('status'), f('replicas')], [f('spec'), f('x')]);
    const reset = setOf([f('status')]);
    assert.deepEqual(owner.difference(reset).paths().map(pathString), ['.spec.x', '.status.replicas']);
    assert.deepEqual(owner.recursiveDifference(reset).paths().map(pathString), ['.spec.x']);
  });

  it('is empty when no path is a member', () => {
    assert.equal(new FieldSet().empty(), true);
    assert.equal(
      setOf([f('a'), f('b')])
        .difference(setOf([f('a'), f('b')]))
        .empty(),
      true,
    );
    assert.equal(setOf([f('a'), f('b')]).has([f('a')]), false);
    assert.equal(setOf([f('a'), f('b')]).has([f('a'), f('b')]), true);
  });

  it('encodes FieldsV1 sorted, with `.` for a member that has children', () => {
    const s = setOf(
      [f('spec'), f('replicas')],
      [f('metadata'), f('labels'), f('app')],
      [f('spec'), f('containers'), k([['name', 'b']])],
      [f('spec'), f('containers'), k([['name', 'b']]), f('image')],
      [f('spec'), f('containers'), k([['name', 'a']]), f('image')],
      [f('metadata'), f('finalizers'), v('x')],
    );
    const json = JSON.stringify(s.toFieldsV1());
    assert.equal(
      json,
      '{"f:metadata":{"f:finalizers":{"v:\\"x\\"":{}},"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{"f:image":{}},"k:{\\"name\\":\\"b\\"}":{".":{},"f:image":{}}},"f:replicas":{}}}',
    );
    assert.ok(FieldSet.fromFieldsV1(JSON.parse(json)).equals(s));
  });

  it('orders fields before keys before values before indexes, as PathElement.Compare', () => {
    const s = setOf([i(0)], [v('z')], [k([['name', 'a']])], [f('x')]);
    assert.deepEqual(Object.keys(s.toFieldsV1()), ['f:x', 'k:{"name":"a"}', 'v:"z"', 'i:0']);
  });

  it('decodes `{}` as a member, `.` as a member with children, else a prefix', () => {
    const s = FieldSet.fromFieldsV1({ 'f:a': {}, 'f:b': { '.': {}, 'f:c': {} }, 'f:d': { 'f:e': {} } });
    assert.deepEqual(s.paths().map(pathString), ['.a', '.b', '.b.c', '.d.e']);
    assert.throws(() => FieldSet.fromFieldsV1({ 'f:a': 'x' }));
    assert.throws(() => FieldSet.fromFieldsV1({ 'k:{bad': {} }));
  });
});
