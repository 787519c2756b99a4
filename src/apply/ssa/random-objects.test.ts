// Random objects of the test Root type (test-schemas.test.ts) for the tests that check a
// shortcut of the field manager against the general computation: keyed lists (containers by
// name, ports by containerPort and a defaulted protocol, env by name), a set (finalizers),
// atomic maps and structs, atomic lists, free-form values, nulls and empty lists and maps.
// `next` derives a write from an object: each part kept, changed or dropped at random, so
// that pairs share most of their subtrees as real writes do. `fullCompare` is the comparison
// the shortcuts are checked against.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { deepEqual } from '../../machinery/deep-equal.js';
import { FieldSet } from './field-set.js';
import { typeOf } from './test-schemas.test.js';
import type { Comparison } from './typed/compare.js';
import { mergeWalk } from './typed/merge-walk.js';
import { validateTyped } from './typed/validate.js';
import type { Atom } from './typed-schema.js';

type Rng = () => number;
type Value = Record<string, unknown>;

/** A deterministic generator (SHA-256 of a counter), so that a failure can be replayed. */
export function rngOf(seed: number): Rng {
  let n = 0;
  return () => createHash('sha256').update(`${seed}:${n++}`).digest().readUInt32BE(0) / 2 ** 32;
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
const some = <T>(rng: Rng, max: number, make: (i: number) => T): T[] => Array.from({ length: Math.floor(rng() * (max + 1)) }, (_, i) => make(i));

// Each field: absent, null, empty or a value (a generator per field, so `next` can redo one).
function field(rng: Rng, make: () => unknown, empty?: unknown): unknown {
  const r = rng();
  if (r < 0.25) return undefined;
  if (r < 0.32) return null;
  if (r < 0.4 && empty !== undefined) return structuredClone(empty);
  return make();
}

function stringMap(rng: Rng, prefix: string): Value {
  return Object.fromEntries(some(rng, 3, () => [`${prefix}${Math.floor(rng() * 4)}`, pick(rng, ['a', 'b', '<&>', ''])]));
}

// The first item of each key: keyed lists never repeat a key.
function distinct<T>(items: T[], key: (t: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const t of items) if (!byKey.has(key(t))) byKey.set(key(t), t);
  return [...byKey.values()];
}

function port(rng: Rng): Value {
  const p: Value = { containerPort: pick(rng, [80, 443, 8080]) };
  // protocol is a key with a default: absent means TCP.
  const protocol = pick(rng, [undefined, 'TCP', 'UDP']);
  if (protocol !== undefined) p.protocol = protocol;
  if (rng() < 0.3) p.name = pick(rng, ['http', 'https']);
  return p;
}

const portKey = (p: Value) => `${p.containerPort}/${p.protocol ?? 'TCP'}`;

function container(rng: Rng, name: string): Value {
  const c: Value = { name };
  const image = field(rng, () => pick(rng, ['nginx', 'nginx:1', 'busybox']));
  if (image !== undefined) c.image = image;
  const ports = field(
    rng,
    () =>
      distinct(
        some(rng, 3, () => port(rng)),
        portKey,
      ),
    [],
  );
  if (ports !== undefined) c.ports = ports;
  const env = field(
    rng,
    () =>
      distinct(
        some(rng, 3, () => ({ name: pick(rng, ['A', 'B', 'C']), value: pick(rng, ['1', '2']) })),
        (e) => String(e.name),
      ),
    [],
  );
  if (env !== undefined) c.env = env;
  return c;
}

const GENERATORS: Record<string, Record<string, (rng: Rng) => unknown>> = {
  metadata: {
    name: () => 'x',
    labels: (rng) => field(rng, () => stringMap(rng, 'l'), {}),
    annotations: (rng) => field(rng, () => stringMap(rng, 'a'), {}),
    finalizers: (rng) => field(rng, () => [...new Set(some(rng, 3, () => pick(rng, ['f1', 'f2', 'f3', 'f4'])))], []),
  },
  spec: {
    replicas: (rng) => field(rng, () => pick(rng, [0, 1, 3])),
    selector: (rng) => field(rng, () => (rng() < 0.5 ? { app: pick(rng, ['a', 'b']) } : {}), {}),
    nodeSelector: (rng) => field(rng, () => stringMap(rng, 'n'), {}),
    data: (rng) => field(rng, () => stringMap(rng, 'd'), {}),
    containers: (rng) => field(rng, () => some(rng, 3, (i) => container(rng, `c${i}`)), []),
    args: (rng) => field(rng, () => some(rng, 3, () => pick(rng, ['-v', '--x'])), []),
    raw: (rng) => field(rng, () => ({ free: pick(rng, [1, 'one', [1, 2], { deep: { er: true } }]) }), {}),
    size: (rng) => field(rng, () => pick(rng, [1, '10%'])),
  },
  status: {
    replicas: (rng) => field(rng, () => pick(rng, [0, 2])),
  },
};

// A struct of the given part: each field kept from prev (when there is one) or made anew.
function struct(rng: Rng, part: string, prev: unknown): Value {
  const from = typeof prev === 'object' && prev !== null ? (prev as Value) : undefined;
  const out: Value = {};
  for (const [name, make] of Object.entries(GENERATORS[part])) {
    const keep = from !== undefined && rng() < 0.75;
    let v = keep ? structuredClone(from[name]) : make(rng);
    if (name === 'containers' && keep && Array.isArray(v) && rng() < 0.5) v = changeContainers(rng, v as Value[]);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

// Items changed in place, dropped, added or moved: a keyed list's usual edits.
function changeContainers(rng: Rng, items: Value[]): Value[] {
  const out = items.filter(() => rng() < 0.85).map((c) => (rng() < 0.4 ? container(rng, String(c.name)) : c));
  if (rng() < 0.4) out.push(container(rng, `c${3 + Math.floor(rng() * 2)}`));
  if (rng() < 0.3) out.reverse();
  return distinct(out, (c) => String(c.name));
}

/** A random Root object. */
export function randomRoot(rng: Rng): Value {
  return next(rng, undefined);
}

/** A write derived from prev (a new random object when prev is undefined). */
export function next(rng: Rng, prev: Value | undefined): Value {
  const out: Value = { apiVersion: 'test/v1', kind: 'Root' };
  for (const part of ['metadata', 'spec', 'status']) {
    if (part !== 'metadata' && rng() < 0.1) continue;
    out[part] = struct(rng, part, prev?.[part]);
  }
  return out;
}

/** compareTyped walking everything: no shortcut over equal lists and maps. */
export function fullCompare(lhs: unknown, rhs: unknown, atom: Atom): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  mergeWalk(lhs, rhs, atom, {
    output: false,
    leaf(n) {
      if (n.lhs === undefined) c.added.insert(n.path);
      else if (n.rhs === undefined) c.removed.insert(n.path);
      else if (!deepEqual(n.lhs, n.rhs)) c.modified.insert(n.path);
      return undefined;
    },
    postItem(n) {
      if (n.lhs === undefined) c.added.insert(n.path);
      else if (n.rhs === undefined) c.removed.insert(n.path);
    },
  });
  return c;
}

describe('random Root objects', () => {
  it('conform to the Root type, so the tests built on them compare real ownership', () => {
    const rng = rngOf(1);
    for (let i = 0; i < 200; i++) {
      const a = randomRoot(rng);
      assert.deepEqual(validateTyped(a, typeOf('Root')), [], JSON.stringify(a));
      assert.deepEqual(validateTyped(next(rng, a), typeOf('Root')), []);
    }
  });
});
