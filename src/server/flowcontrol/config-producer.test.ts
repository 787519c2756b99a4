import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Obj } from '../../machinery/object.js';
import { desiredUpdate, shouldUpdateSpec } from './config-producer.js';

const KEY = 'apf.orch.io/autoupdate-spec';
const bootstrap: Obj = { metadata: { name: 'system', annotations: { [KEY]: 'true' } }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 30 } } };
const stored = (annotations: Record<string, string> | undefined, shares: number, generation = 2): Obj => ({
  metadata: { name: 'system', generation, ...(annotations ? { annotations } : {}) },
  spec: { type: 'Limited', limited: { assuredConcurrencyShares: shares } },
});

test('an object as suggested needs no write', () => {
  assert.equal(desiredUpdate(stored({ [KEY]: 'true' }, 30), bootstrap, false, KEY), undefined);
});

test('suggested objects: the spec is restored while the annotation says true, and left alone when it says false', () => {
  const restored = desiredUpdate(stored({ [KEY]: 'true' }, 99), bootstrap, false, KEY);
  assert.deepEqual(restored?.spec, bootstrap.spec);
  assert.equal(desiredUpdate(stored({ [KEY]: 'false' }, 99), bootstrap, false, KEY), undefined);
  // Go's ParseBool spellings.
  assert.equal(desiredUpdate(stored({ [KEY]: 'F' }, 99), bootstrap, false, KEY), undefined);
});

test('without a readable annotation, only an object never edited (generation 1) is updated, and the annotation is written either way', () => {
  assert.equal(shouldUpdateSpec(stored(undefined, 99, 1), KEY), true);
  assert.equal(shouldUpdateSpec(stored({ [KEY]: 'maybe' }, 99, 2), KEY), false);
  const edited = desiredUpdate(stored(undefined, 99, 2), bootstrap, false, KEY);
  assert.equal(edited?.metadata?.annotations?.[KEY], 'false');
  assert.deepEqual(edited?.spec, { type: 'Limited', limited: { assuredConcurrencyShares: 99 } });
  const fresh = desiredUpdate(stored(undefined, 99, 1), bootstrap, false, KEY);
  assert.equal(fresh?.metadata?.annotations?.[KEY], 'true');
  assert.deepEqual(fresh?.spec, bootstrap.spec);
});

test('mandatory objects are always restored and re-annotated true', () => {
  const restored = desiredUpdate(stored({ [KEY]: 'false' }, 99), bootstrap, true, KEY);
  assert.equal(restored?.metadata?.annotations?.[KEY], 'true');
  assert.deepEqual(restored?.spec, bootstrap.spec);
});
