import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NAMESPACE_INDEX, namespaceIndexFunc, objectKey, Store, type IndexFunc, type KubeObject } from './store.js';

interface Obj extends KubeObject {
  spec?: { node?: string };
}

const o = (ns: string | undefined, name: string, node?: string): Obj => ({ metadata: { namespace: ns, name }, spec: { node } });
const byNode: IndexFunc<Obj> = (x) => (x.spec?.node ? [x.spec.node] : []);

describe('indexed store', () => {
  it('keys namespaced objects as namespace/name and cluster-scoped ones by name', () => {
    assert.equal(objectKey(o('a', 'x')), 'a/x');
    assert.equal(objectKey(o(undefined, 'n1')), 'n1');
  });

  it('keeps indexes in step with upserts and deletes', () => {
    const s = new Store<Obj>(
      new Map([
        [NAMESPACE_INDEX, namespaceIndexFunc],
        ['node', byNode],
      ]),
    );
    s.upsert(o('a', 'p1', 'n1'));
    s.upsert(o('a', 'p2', 'n2'));
    s.upsert(o('b', 'p1', 'n1'));
    assert.deepEqual(s.byIndex(NAMESPACE_INDEX, 'a').map(objectKey).sort(), ['a/p1', 'a/p2']);
    assert.deepEqual(s.byIndex('node', 'n1').map(objectKey).sort(), ['a/p1', 'b/p1']);
    // Moving a pod moves it between index values.
    const old = s.upsert(o('a', 'p1', 'n2'));
    assert.equal(old?.spec?.node, 'n1');
    assert.deepEqual(s.byIndex('node', 'n1').map(objectKey), ['b/p1']);
    assert.deepEqual(s.byIndex('node', 'n2').map(objectKey).sort(), ['a/p1', 'a/p2']);
    s.delete(o('b', 'p1'));
    assert.deepEqual(s.byIndex('node', 'n1'), []);
    assert.equal(s.get('p1', 'b'), undefined);
    assert.equal(s.get('p1', 'a')?.spec?.node, 'n2');
    assert.equal(s.size, 2);
  });

  it('shares one list snapshot until something changes', () => {
    const s = new Store<Obj>();
    s.upsert(o('a', 'x'));
    const first = s.list();
    assert.equal(s.list(), first);
    s.upsert(o('a', 'y'));
    assert.notEqual(s.list(), first);
    assert.equal(s.list().length, 2);
  });

  it('treats names like __proto__ as plain keys', () => {
    const s = new Store<Obj>(new Map([[NAMESPACE_INDEX, namespaceIndexFunc]]));
    s.upsert(o('__proto__', 'constructor'));
    assert.equal(s.get('constructor', '__proto__')?.metadata.name, 'constructor');
    assert.equal(s.byIndex(NAMESPACE_INDEX, '__proto__').length, 1);
    assert.deepEqual(s.byIndex(NAMESPACE_INDEX, 'toString'), []);
  });

  it('refuses an index it does not have', () => {
    assert.throws(() => new Store<Obj>().byIndex('nope', 'x'), /index nope does not exist/);
  });
});
