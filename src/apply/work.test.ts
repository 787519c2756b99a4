import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldManager } from './field-manager.js';
import { mergePatch } from './merge-patch.js';
import { FieldSet, setOf } from './ssa/field-set.js';
import { fieldElement } from './ssa/path-element.js';
import { next, randomRoot, rngOf } from './ssa/random-objects.test.js';
import { LOOKUP, typeOf } from './ssa/test-schemas.test.js';
import { compareTyped } from './ssa/typed/compare.js';
import { mergeTyped } from './ssa/typed/merge.js';
import { removeItems } from './ssa/typed/remove.js';
import { toFieldSet, toFieldSetSteps } from './ssa/typed/to-field-set.js';
import { validateTyped } from './ssa/typed/validate.js';
import { typeOfKind } from './ssa/typed-schema.js';
import { atOnce, PIECE, sortThen, withPieceSize } from './work.js';
import type { Obj } from '../machinery/object.js';

const root = typeOf('Root');
const fields = (s: FieldSet) => JSON.stringify(s.toFieldsV1());

// Every result of the walks over a pair of objects, as data.
function results(a: Record<string, unknown>, b: Record<string, unknown>) {
  const c = compareTyped(a, b, root);
  const sa = toFieldSet(a, root);
  const sb = toFieldSet(b, root);
  return {
    validate: validateTyped({ ...b, spec: { replicas: 'x', bogus: 1 } }, root).map((e) => e.message),
    compare: [c.added, c.modified, c.removed].map(fields),
    merged: JSON.stringify(mergeTyped(a, b, root)),
    sets: [sa, sa.union(sb), sa.intersection(sb), sa.difference(sb), sa.recursiveDifference(sb)].map(fields),
    read: fields(FieldSet.fromFieldsV1(sa.toFieldsV1())),
    removed: JSON.stringify(removeItems(a, sb, root) ?? null),
    patched: JSON.stringify(mergePatch(a, b)),
  };
}

describe('work in pieces', () => {
  it('walks, field sets and patches give the same results when every loop is cut into pieces of one or three entries', () => {
    const rng = rngOf(21);
    for (let i = 0; i < 150; i++) {
      const a = randomRoot(rng);
      const b = rng() < 0.5 ? next(rng, a) : randomRoot(rng);
      const whole = results(a, b);
      for (const n of [1, 3])
        assert.deepEqual(
          withPieceSize(n, () => results(a, b)),
          whole,
          JSON.stringify({ a, b, n }),
        );
    }
  });

  it('records ownership and merges applies the same when the field manager goes in pieces and pauses at each', async () => {
    const type = typeOfKind(LOOKUP, 'test', 'v1', 'Root');
    let clock = Date.parse('2024-01-01T00:00:00Z');
    const fm = new FieldManager({
      type,
      apiVersion: 'test/v1',
      kind: 'Root',
      subresource: '',
      resetFields: setOf([fieldElement('status')]),
      now: () => new Date(clock),
    });
    const rng = rngOf(5);
    // A pace that is always due: every piece is its own turn.
    const pace = { due: () => true, yield: () => new Promise<void>((r) => setImmediate(r)) } as never;
    for (let i = 0; i < 60; i++) {
      clock += 1000;
      const live = { ...fm.update(undefined, randomRoot(rng) as Obj, 'create') } as Obj;
      (live.metadata as Record<string, unknown>).uid = 'u1';
      const write = next(rng, live) as Obj;
      const config = next(rng, undefined) as Obj;
      const expected = [fm.update(live, structuredClone(write), 'edit'), fm.apply(live, structuredClone(config), 'kubectl', true)];
      const pieces = await withPieceSize(2, async () => [
        await fm.updatePaced(live, structuredClone(write), 'edit', pace),
        await fm.applyPaced(live, structuredClone(config), 'kubectl', true, pace),
      ]);
      assert.deepEqual(pieces, expected, JSON.stringify({ live, write, config }));
    }
  });

  it('sorts a large list in pieces as at once', () => {
    const rng = rngOf(3);
    for (const n of [0, 1, 5, 17, 100, 1000]) {
      const items = Array.from({ length: n }, () => Math.floor(rng() * 50));
      const sorted = withPieceSize(4, () =>
        atOnce((w) => {
          let out: number[] = [];
          sortThen(
            [...items],
            (x, y) => x - y,
            w,
            (s) => {
              out = s;
            },
          );
          return () => out;
        }),
      )();
      assert.deepEqual(
        sorted,
        [...items].sort((x, y) => x - y),
      );
    }
  });

  it('pauses between pieces only: a map of many labels is walked in steps of a piece each', () => {
    const labels: Record<string, string> = {};
    for (let i = 0; i < 10 * PIECE; i++) labels[`k${i}`] = 'v';
    const value = { apiVersion: 'test/v1', kind: 'Root', metadata: { labels } };
    let pauses = 0;
    const steps = toFieldSetSteps(value, root, () => true);
    let r = steps.next();
    for (; !r.done; r = steps.next()) pauses++;
    assert.ok(pauses >= 10, `${pauses} pauses`);
    assert.equal(fields(r.value), fields(toFieldSet(value, root)));
  });
});
