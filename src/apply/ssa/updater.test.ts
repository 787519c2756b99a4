// structured-merge-diff's merge tests (leaf, set, multiple appliers), run on the Updater.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApplyConflicts } from './conflict.js';
import type { VersionedSet } from './managed-fields.js';
import { fieldElement, pathString } from './path-element.js';
import { FieldSet, setOf } from './field-set.js';
import { fullCompare, next, randomRoot, rngOf } from './random-objects.test.js';
import { toFieldSet } from './typed/to-field-set.js';
import type { Atom } from './typed-schema.js';
import { typeOf } from './test-schemas.test.js';
import { type Managers, Updater } from './updater.js';

/** A little state machine like upstream's fixture: an object and its managers. */
class State {
  object: unknown = undefined;
  managers: Managers = new Map();
  constructor(private readonly updater: Updater) {}

  apply(manager: string, config: unknown, force = false): void {
    const { object, managers } = this.updater.apply(this.object, config, 'v1', this.managers, manager, force);
    if (object !== undefined) this.object = object;
    this.managers = managers;
  }

  update(manager: string, object: unknown): void {
    this.managers = this.updater.updateOwnership(this.object, object, 'v1', this.managers, manager);
    this.object = object;
  }

  owned(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [m, vs] of [...this.managers].sort(([a], [b]) => (a < b ? -1 : 1))) out[m] = (vs as VersionedSet).set.paths().map(pathString);
    return out;
  }
}

function conflicts(fn: () => void): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApplyConflicts) return e.conflicts.map((c) => `${c.manager} ${pathString(c.path)}`);
    throw e;
  }
  return [];
}

const leaf = () => new State(new Updater(typeOf('Leaf')));
const sets = () => new State(new Updater(typeOf('Sets')));

describe('leaf fields (merge/leaf_test.go)', () => {
  it('apply_twice', () => {
    const s = leaf();
    s.apply('default', { numeric: 1, string: 'string' });
    s.apply('default', { numeric: 2, string: 'string', bool: false });
    assert.deepEqual(s.object, { numeric: 2, string: 'string', bool: false });
    assert.deepEqual(s.owned(), { default: ['.bool', '.numeric', '.string'] });
  });

  it('apply_update_apply_no_conflict', () => {
    const s = leaf();
    s.apply('default', { numeric: 1, string: 'string' });
    s.update('controller', { numeric: 1, string: 'string', bool: true });
    s.apply('default', { numeric: 2, string: 'string' });
    assert.deepEqual(s.object, { numeric: 2, string: 'string', bool: true });
    assert.deepEqual(s.owned(), { controller: ['.bool'], default: ['.numeric', '.string'] });
  });

  it('apply_update_apply_with_conflict, then force', () => {
    const s = leaf();
    s.apply('default', { numeric: 1, string: 'string' });
    s.update('controller', { numeric: 1, string: 'controller string', bool: true });
    assert.deepEqual(
      conflicts(() => s.apply('default', { numeric: 2, string: 'user string' })),
      ['controller .string'],
    );
    s.apply('default', { numeric: 2, string: 'user string' }, true);
    assert.deepEqual(s.object, { numeric: 2, string: 'user string', bool: true });
    assert.deepEqual(s.owned(), { controller: ['.bool'], default: ['.numeric', '.string'] });
  });

  it('apply_twice_remove', () => {
    const s = leaf();
    s.apply('default', { numeric: 1, string: 'string', bool: false });
    s.apply('default', { string: 'new string' });
    assert.deepEqual(s.object, { string: 'new string' });
    assert.deepEqual(s.owned(), { default: ['.string'] });
  });

  it('update_apply_omits: a field another manager took stays', () => {
    const s = leaf();
    s.apply('default', { numeric: 2 });
    s.update('controller', { numeric: 1 });
    s.apply('default', {});
    assert.deepEqual(s.object, { numeric: 1 });
    assert.deepEqual(s.owned(), { controller: ['.numeric'] });
  });

  it('update_remove_empty_set: a manager left with nothing is dropped', () => {
    const s = leaf();
    s.apply('default', { string: 'string' });
    s.update('controller', { string: 'new string' });
    assert.deepEqual(s.owned(), { controller: ['.string'] });
  });

  it('apply_remove_empty_set', () => {
    const s = leaf();
    s.apply('default', { string: 'string' });
    s.apply('default', {});
    assert.deepEqual(s.object, {});
    assert.deepEqual(s.owned(), {});
  });

  it('shared: the same value applied by two managers, then one stops applying it', () => {
    const s = leaf();
    s.apply('a', { numeric: 1 });
    s.apply('b', { numeric: 1 });
    assert.deepEqual(s.owned(), { a: ['.numeric'], b: ['.numeric'] });
    assert.deepEqual(
      conflicts(() => s.apply('a', { numeric: 2 })),
      ['b .numeric'],
    );
    s.apply('a', {});
    assert.deepEqual(s.object, { numeric: 1 });
    assert.deepEqual(s.owned(), { b: ['.numeric'] });
  });
});

describe('sets (merge/set_test.go)', () => {
  it('apply_twice', () => {
    const s = sets();
    s.apply('default', { list: ['a', 'c'] });
    s.apply('default', { list: ['a', 'b', 'c', 'd'] });
    assert.deepEqual(s.object, { list: ['a', 'b', 'c', 'd'] });
    assert.deepEqual(s.owned(), { default: ['.list[="a"]', '.list[="b"]', '.list[="c"]', '.list[="d"]'] });
  });

  it('apply_update_apply_no_overlap', () => {
    const s = sets();
    s.apply('default', { list: ['a', 'c'] });
    s.update('controller', { list: ['a', 'b', 'c', 'd'] });
    s.apply('default', { list: ['a', 'aprime', 'c', 'cprime'] });
    assert.deepEqual(s.object, { list: ['a', 'b', 'aprime', 'c', 'd', 'cprime'] });
    assert.deepEqual(s.owned(), {
      controller: ['.list[="b"]', '.list[="d"]'],
      default: ['.list[="a"]', '.list[="aprime"]', '.list[="c"]', '.list[="cprime"]'],
    });
  });

  it('apply_update_apply_with_overlap: the same item is shared', () => {
    const s = sets();
    s.apply('default', { list: ['a', 'c'] });
    s.update('controller', { list: ['a', 'b', 'c', 'd'] });
    s.apply('default', { list: ['a', 'b', 'c'] });
    assert.deepEqual(s.object, { list: ['a', 'b', 'c', 'd'] });
    assert.deepEqual(s.owned(), { controller: ['.list[="b"]', '.list[="d"]'], default: ['.list[="a"]', '.list[="b"]', '.list[="c"]'] });
  });

  it('apply_twice_reorder: a reorder alone is no change (1.25 keeps the live object when nothing changed)', () => {
    const s = sets();
    s.apply('default', { list: ['a', 'b', 'c', 'd'] });
    s.apply('default', { list: ['a', 'd', 'c', 'b'] });
    assert.deepEqual(s.object, { list: ['a', 'b', 'c', 'd'] });
    s.apply('default', { list: ['a', 'd', 'c', 'b', 'e'] });
    assert.deepEqual(s.object, { list: ['a', 'd', 'c', 'b', 'e'] });
  });

  it('apply_twice_remove: items the applier dropped go', () => {
    const s = sets();
    s.apply('default', { list: ['a', 'b', 'c', 'd'] });
    s.apply('default', { list: ['a', 'c'] });
    assert.deepEqual(s.object, { list: ['a', 'c'] });
    assert.deepEqual(s.owned(), { default: ['.list[="a"]', '.list[="c"]'] });
  });

  it('atomic lists are owned and replaced whole', () => {
    const s = sets();
    s.apply('default', { atomic: ['a', 'b'] });
    s.update('controller', { atomic: ['a', 'b', 'c'] });
    assert.deepEqual(s.owned(), { controller: ['.atomic'] });
    assert.deepEqual(
      conflicts(() => s.apply('default', { atomic: ['a'] })),
      ['controller .atomic'],
    );
  });
});

describe('keyed lists and maps (merge/multiple_appliers_test.go)', () => {
  const root = () => new State(new Updater(typeOf('Root')));

  it('each applier owns its own items; removing one leaves the other', () => {
    const s = root();
    s.apply('apply-one', { spec: { containers: [{ name: 'a', image: 'a1' }] } });
    s.apply('apply-two', { spec: { containers: [{ name: 'b', image: 'b1' }] } });
    assert.deepEqual(s.object, {
      spec: {
        containers: [
          { name: 'a', image: 'a1' },
          { name: 'b', image: 'b1' },
        ],
      },
    });
    s.apply('apply-one', { spec: {} });
    assert.deepEqual(s.object, { spec: { containers: [{ name: 'b', image: 'b1' }] } });
    assert.deepEqual(s.owned(), {
      'apply-two': ['.spec.containers[name="b"]', '.spec.containers[name="b"].image', '.spec.containers[name="b"].name'],
    });
  });

  it('an item shared by two appliers stays until the last stops applying it', () => {
    const s = root();
    s.apply('one', { spec: { data: { k: 'v' } } });
    s.apply('two', { spec: { data: { k: 'v' } } });
    s.apply('one', { spec: {} });
    assert.deepEqual(s.object, { spec: { data: { k: 'v' } } });
    s.apply('two', { spec: {} });
    assert.deepEqual(s.object, {});
  });

  it('fields an updater set are not pruned by an applier that never owned them', () => {
    const s = root();
    s.apply('applier', { spec: { replicas: 1 } });
    s.update('controller', { spec: { replicas: 1, data: { x: 'y' } } });
    s.apply('applier', { spec: { replicas: 2 } });
    assert.deepEqual(s.object, { spec: { replicas: 2, data: { x: 'y' } } });
  });

  it('force takes the field from every other manager', () => {
    const s = root();
    s.apply('a', { spec: { replicas: 1 } });
    s.apply('b', { spec: { replicas: 1 } });
    assert.deepEqual(
      conflicts(() => s.apply('c', { spec: { replicas: 3 } })),
      ['a .spec.replicas', 'b .spec.replicas'],
    );
    s.apply('c', { spec: { replicas: 3 } }, true);
    assert.deepEqual(s.owned(), { c: ['.spec.replicas'] });
  });
});

describe('ignored (reset) fields', () => {
  it('are neither owned nor conflicting', () => {
    const type = typeOf('Root');
    const owners = new Updater(type).apply(undefined, { status: { replicas: 1 } }, 'v1', new Map(), 'x', false).managers;
    const u = new Updater(type, setOf([fieldElement('status')]));
    const r = u.apply({ status: { replicas: 1 } }, { spec: { replicas: 1 }, status: { replicas: 2 } }, 'v1', owners, 'y', false);
    assert.deepEqual((r.managers.get('y') as VersionedSet).set.paths().map(pathString), ['.spec.replicas']);
    assert.deepEqual((r.managers.get('x') as VersionedSet).set.paths().map(pathString), ['.status.replicas']);
  });
});

describe('update ownership (random writes)', () => {
  // Upstream's Updater.Update as a formula, walking everything (the oracle of the shortcuts:
  // equal subtrees not walked, a manager new to the object taking the changed fields as they are).
  function reference(atom: Atom, ignored: FieldSet | undefined, live: unknown, write: unknown, current: Managers, manager: string): Map<string, string[]> {
    const c = fullCompare(live, write, atom);
    const exclude = (s: FieldSet) => (ignored === undefined ? s : s.recursiveDifference(ignored));
    const [added, modified, removed] = [exclude(c.added), exclude(c.modified), exclude(c.removed)];
    const changed = modified.union(added);
    const out = new Map<string, string[]>();
    for (const [m, vs] of current) {
      if (m === manager) continue;
      const set = vs.set.difference(vs.set.intersection(changed)).difference(removed);
      if (!set.empty()) out.set(m, set.paths().map(pathString));
    }
    const own = exclude((current.get(manager)?.set ?? new FieldSet()).union(modified).union(added).difference(removed));
    if (!own.empty()) out.set(manager, own.paths().map(pathString));
    return out;
  }

  it('takes what the full formula takes, for a new manager and for one with fields', () => {
    const atom = typeOf('Root');
    const rng = rngOf(11);
    for (const ignored of [undefined, setOf([fieldElement('status')])]) {
      const updater = new Updater(atom, ignored);
      for (let i = 0; i < 300; i++) {
        const live = randomRoot(rng);
        const current: Managers = new Map();
        for (const m of ['a', 'b', 'm']) if (rng() < 0.6) current.set(m, { set: toFieldSet(randomRoot(rng), atom), apiVersion: 'v1', applied: m === 'a' });
        for (const write of [next(rng, live), structuredClone(live), randomRoot(rng)]) {
          const context = JSON.stringify({ live, write, managers: [...current.keys()] });
          for (const manager of ['m', 'new']) {
            const got = updater.updateOwnership(live, write, 'v1', current, manager);
            const paths = new Map([...got].map(([m, vs]) => [m, vs.set.paths().map(pathString)]));
            assert.deepEqual(paths, reference(atom, ignored, live, write, current, manager), context);
          }
        }
      }
    }
  });
});
