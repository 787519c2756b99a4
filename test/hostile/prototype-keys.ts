/**
 * Every Object.prototype member name (`__proto__`, `constructor`, `toString`...) as a key at
 * every depth and on every write path. Where no field of that name exists it is an unknown
 * field: dropped (400 under fieldValidation=Strict) and never stored. Where the key is user data
 * (ConfigMap data keys, label and annotation keys) it is an ordinary key: stored and read back
 * as its own property when valid, 422 when the name is not a valid key.
 */
import { APPLY_TYPE, configMap, deployment, JSON_PATCH_TYPE, JSON_TYPE, MERGE_TYPE, SMP_TYPE, YAML_TYPE } from './bodies.js';
import type { Family, HostileCase, LaneContext } from './hostile-case.js';
import type { Rng } from './prng.js';
import { PROTOTYPE_NAMES } from './values.js';
import { freshName } from './writes.js';

/** An object whose own property `key` is `value` (even for `__proto__`). */
function own(key: string, value: unknown): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  return o;
}

/** A chain of unknown fields, each named like a prototype member, `depth` deep, ending in a string. */
function chain(rng: Rng, depth: number): unknown {
  let v: unknown = rng.pick(['x', 1, true, null, [], {}]);
  for (let i = 0; i < depth; i++) v = own(rng.pick(PROTOTYPE_NAMES), v);
  return v;
}

/** Upstream's qualified-name rule for label and annotation keys (no prefix here). */
function isQualifiedName(s: string): boolean {
  return s.length <= 63 && /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(s);
}

/** Sets `value` at `at` under obj (creating objects on the way), `key` as an own property. */
function setAt(obj: Record<string, unknown>, at: readonly (string | number)[], key: string, value: unknown): void {
  let cur: any = obj;
  for (const k of at) {
    if (typeof cur[k] !== 'object' || cur[k] === null) cur[k] = {};
    cur = cur[k];
  }
  Object.defineProperty(cur, key, { value, enumerable: true, writable: true, configurable: true });
}

interface Spot {
  /** Where the key goes, from the top of the object. */
  at: readonly (string | number)[];
  /** Names that are real fields there (ObjectMeta's and Container's `name`): not prototype keys at that spot. */
  fields?: readonly string[];
  /** The key is user data there (stored when valid) rather than an unknown field. */
  data: 'data' | 'label' | false;
  kind: 'cm' | 'deploy';
}

const SPOTS: readonly Spot[] = [
  { at: [], data: false, kind: 'cm' },
  { at: ['metadata'], data: false, kind: 'cm', fields: ['name'] },
  { at: ['data'], data: 'data', kind: 'cm' },
  { at: ['metadata', 'labels'], data: 'label', kind: 'cm' },
  { at: ['metadata', 'annotations'], data: 'label', kind: 'cm' },
  { at: ['spec'], data: false, kind: 'deploy' },
  { at: ['spec', 'template', 'spec'], data: false, kind: 'deploy' },
  { at: ['spec', 'template', 'spec', 'containers', 0], data: false, kind: 'deploy', fields: ['name'] },
  { at: ['spec', 'template', 'metadata'], data: false, kind: 'deploy', fields: ['name'] },
  { at: ['spec', 'strategy'], data: false, kind: 'deploy' },
];

export const prototypeKeys: Family = {
  name: 'prototype-keys',
  owner: 'prototype-key safety (prototype-key / Warning header helper)',
  weight: 14,
  generate(rng: Rng, ctx: LaneContext): HostileCase {
    const spot = rng.pick(SPOTS);
    const key = rng.pick(PROTOTYPE_NAMES.filter((k) => !spot.fields?.includes(k)));
    const verb = rng.pick(['create', 'update', 'merge', 'strategic', 'json-patch', 'apply', 'apply-twice'] as const);
    const validation = rng.pick([undefined, 'Strict', 'Warn', 'Ignore']);
    const deep = spot.data === false && rng.chance(0.5);
    const value: unknown = spot.data ? 'x' : deep ? chain(rng, rng.int(1, 6)) : rng.pick(['x', 1, {}, []]);
    const name = verb === 'create' ? freshName(rng) : spot.kind === 'cm' ? 'cm' : 'deploy';
    const obj = spot.kind === 'cm' ? configMap(name, ctx.ns) : deployment(name, ctx.ns);
    setAt(obj, spot.at, key, value);
    const collection = spot.kind === 'cm' ? ctx.cms : ctx.deploys;
    const path = `${collection}/${name}`;
    const params: string[] = validation ? [`fieldValidation=${validation}`] : [];
    const valid = spot.data === 'data' || (spot.data === 'label' && isQualifiedName(key));
    const strPath = spot.at.map(String);
    let expect: HostileCase['expect'] = 'any';
    if (spot.data === false && validation === 'Strict') expect = 'refuse';
    else if (spot.data && !valid) expect = 'refuse';
    else if (spot.data && valid) expect = 'accept';
    const checks: Partial<HostileCase> =
      spot.data === false
        ? { neverStored: [[...strPath, key]] }
        : valid
          ? { presentAfter: { at: [...strPath, key], value: 'x' } }
          : { neverStored: [[...strPath, key]] };
    const family = 'prototype-keys';
    // The key itself is in the body; variants group by verb and place so the report stays short.
    const variant = `${verb} at ${strPath.join('.') || 'top'}${spot.data && !valid ? ' (invalid key)' : ''}${validation === 'Strict' ? ' Strict' : ''}`;
    const q = (extra: string[] = []) => {
      const all = [...params, ...extra];
      return all.length ? `?${all.join('&')}` : '';
    };
    switch (verb) {
      case 'create':
        return {
          family,
          variant,
          method: 'POST',
          path: collection + q(),
          headers: { 'content-type': rng.pick([JSON_TYPE, YAML_TYPE]) },
          body: JSON.stringify(obj),
          expect,
          creates: path,
          ...checks,
        };
      case 'update':
        return {
          family,
          variant,
          method: 'PUT',
          path: path + q(),
          headers: { 'content-type': rng.pick([JSON_TYPE, YAML_TYPE]) },
          body: JSON.stringify(obj),
          expect,
          target: path,
          ...checks,
        };
      case 'merge':
      case 'strategic': {
        const patch: Record<string, unknown> = {};
        setAt(patch, spot.at, key, value);
        return {
          family,
          variant,
          method: 'PATCH',
          path: path + q(),
          headers: { 'content-type': verb === 'merge' ? MERGE_TYPE : SMP_TYPE },
          body: JSON.stringify(patch),
          expect,
          target: path,
          ...checks,
        };
      }
      case 'json-patch': {
        const pointer = `/${[...strPath, key].map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
        // The parent may be missing (no annotations yet): add it first, as kubectl would.
        const ops: unknown[] = [];
        if (strPath.length > 0 && ['annotations', 'labels', 'strategy', 'data'].includes(strPath.at(-1) ?? '')) {
          ops.push({ op: 'add', path: `/${strPath.join('/')}`, value: {} });
        }
        ops.push({ op: rng.pick(['add', 'add', 'replace', 'test', 'remove']), path: pointer, value });
        return {
          family,
          variant: `${variant} ${(ops.at(-1) as { op: string }).op}`,
          method: 'PATCH',
          path: path + q(),
          headers: { 'content-type': JSON_PATCH_TYPE },
          body: JSON.stringify(ops),
          expect: (ops.at(-1) as { op: string }).op === 'add' ? expect : 'any',
          target: path,
          ...((ops.at(-1) as { op: string }).op === 'add' ? checks : {}),
        };
      }
      case 'apply':
      case 'apply-twice': {
        // A second manager applying the same object makes the server compare field sets holding the key.
        const manager = verb === 'apply' ? rng.pick(['hostile', ...PROTOTYPE_NAMES]) : 'second';
        return {
          family,
          variant,
          method: 'PATCH',
          path: path + q([`fieldManager=${encodeURIComponent(manager)}`, ...(rng.chance(0.5) ? ['force=true'] : [])]),
          headers: { 'content-type': APPLY_TYPE },
          body: JSON.stringify(obj),
          expect: expect === 'accept' ? 'any' : expect,
          target: path,
          ...checks,
        };
      }
    }
  },
};
