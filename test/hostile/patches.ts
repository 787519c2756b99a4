/**
 * Patches built to amplify or confuse: JSON patch copy chains (upstream caps the accumulated
 * copy size at 3 MiB and answers 422), more than 10,000 operations (413), impossible moves and
 * pointers, strategic merge patches with huge lists and every directive, merge patches that are
 * not objects, apply without a field manager.
 */
import { APPLY_TYPE, JSON_PATCH_TYPE, MERGE_TYPE, SMP_TYPE } from './bodies.js';
import type { Expect, Family, HostileCase, LaneContext } from './hostile-case.js';
import type { Rng } from './prng.js';
import { PROTOTYPE_NAMES } from './values.js';

/** Upstream's maximum number of operations in one JSON patch. */
const MAX_JSON_PATCH_OPERATIONS = 10_000;

function jsonPatch(ctx: LaneContext, variant: string, ops: unknown[] | string, expect: Expect, target = ctx.cm): HostileCase {
  return {
    family: 'patches',
    variant,
    method: 'PATCH',
    path: target,
    headers: { 'content-type': JSON_PATCH_TYPE },
    body: typeof ops === 'string' ? ops : JSON.stringify(ops),
    expect,
    target,
  };
}

function smp(ctx: LaneContext, variant: string, patch: unknown, expect: Expect, type = SMP_TYPE, target = ctx.deploy): HostileCase {
  return { family: 'patches', variant, method: 'PATCH', path: target, headers: { 'content-type': type }, body: JSON.stringify(patch), expect, target };
}

function rawPatch(variant: string, type: string, body: string, expect: Expect, target: string): HostileCase {
  return { family: 'patches', variant, method: 'PATCH', path: target, headers: { 'content-type': type }, body, expect, target };
}

function containers(n: number, prefix = 'c'): { name: string; image: string }[] {
  return Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}`, image: 'busybox' }));
}

export const patches: Family = {
  name: 'patches',
  owner: 'JSON patch amplification and decode limits; strategic merge linearity',
  weight: 12,
  generate(rng: Rng, ctx: LaneContext): HostileCase {
    const kind = rng.pick([
      'copy-doubling',
      'copy-doubling',
      'copy-fanout',
      'op-count',
      'bad-ops',
      'move-into-self',
      'smp-many',
      'smp-directives',
      'not-an-object',
      'apply-misuse',
      'merge-nulls',
    ] as const);
    switch (kind) {
      case 'copy-doubling': {
        // The reproduction: each copy doubles the annotations map.
        const n = rng.pick([3, 7, 12, 20, 40]);
        const size = rng.pick([1024, 64 * 1024]);
        const ops: unknown[] = [{ op: 'add', path: '/metadata/annotations', value: { x: 'y'.repeat(size) } }];
        for (let i = 0; i < n; i++) ops.push({ op: 'copy', from: '/metadata/annotations', path: `/metadata/annotations/c${i}` });
        // Past 256 KiB the annotations are invalid (422); past 3 MiB of copies upstream stops at once (422).
        const total = size * 2 ** n;
        return jsonPatch(ctx, `copy chain x${n} of ${size} B`, ops, total > 200 * 1024 ? 'refuse' : 'any');
      }
      case 'copy-fanout': {
        const n = rng.pick([100, 5000, 9999]);
        const ops: unknown[] = [{ op: 'add', path: '/data/big', value: 'z'.repeat(1024) }];
        for (let i = 0; i < n; i++) ops.push({ op: 'copy', from: '/data/big', path: `/data/c${i}` });
        return jsonPatch(ctx, `copy fan-out x${n} of 1 KiB`, ops, n * 1024 > 1024 * 1024 ? 'refuse' : 'any');
      }
      case 'op-count': {
        const n = rng.pick([MAX_JSON_PATCH_OPERATIONS, MAX_JSON_PATCH_OPERATIONS + 1, 50_000]);
        const ops = Array.from({ length: n }, () => ({ op: 'test', path: '/kind', value: 'ConfigMap' }));
        return jsonPatch(ctx, `${n} test operations`, ops, n > MAX_JSON_PATCH_OPERATIONS ? [413] : 'any');
      }
      case 'bad-ops': {
        const bad = rng.pick([
          '{"op":"add","path":"/x","value":1}',
          '[{"op":"bogus","path":"/data/a"}]',
          '[{"op":"add","value":1}]',
          '[{"op":"add","path":"data/a","value":"1"}]',
          '[{"op":"remove","path":"/spec/template/spec/containers/99999999999999999999"}]',
          '[{"op":"add","path":"/spec/template/spec/containers/-1","value":{}}]',
          '[{"op":"add","path":"/data/-","value":"1"}]',
          '[{"op":"copy","from":"/nowhere","path":"/data/a"}]',
          '[{"op":"replace","path":"","value":null}]',
          '[{"op":"replace","path":"","value":[]}]',
          '[{"op":"remove","path":"/metadata"}]',
          '[{"op":"remove","path":"/metadata/name"}]',
          '[{"op":"test","path":"/metadata/toString","value":null}]',
          '[{"op":"move","from":"/metadata/constructor","path":"/data/x"}]',
          `[{"op":"add","path":"/metadata/labels/${rng.pick(PROTOTYPE_NAMES)}~2","value":"x"}]`,
          '[null]',
          '[1,2,3]',
          '[]',
          '',
        ]);
        const target = bad.includes('/spec/') ? ctx.deploy : ctx.cm;
        // An empty patch is a no-op (200); `/data/-` names a key "-" (valid); removing metadata
        // or its name is refused later or not at all depending on the object check (either is fine);
        // everything else here cannot apply (4xx).
        const lenient = [
          '[]',
          '[{"op":"add","path":"/data/-","value":"1"}]',
          '[{"op":"remove","path":"/metadata"}]',
          '[{"op":"remove","path":"/metadata/name"}]',
        ];
        return jsonPatch(ctx, `bad operation ${bad.slice(0, 50)}`, bad, lenient.includes(bad) ? 'any' : 'refuse', target);
      }
      case 'move-into-self':
        return jsonPatch(ctx, 'move an object into its own child', [{ op: 'move', from: '/metadata', path: '/metadata/labels/x' }], 'refuse');
      case 'smp-many': {
        // 20,000 containers once blocked the event loop for 8 s (quadratic merge by name).
        const n = rng.pick([100, 2000, 5000, 20_000]);
        const shape = rng.pick(['containers', 'order', 'delete-list', 'env'] as const);
        const spec: Record<string, unknown> =
          shape === 'containers'
            ? { containers: containers(n) }
            : shape === 'order'
              ? { '$setElementOrder/containers': containers(n).map(({ name }) => ({ name })), containers: [{ name: 'c', image: 'busybox:2' }] }
              : shape === 'env'
                ? { containers: [{ name: 'c', env: Array.from({ length: n }, (_, i) => ({ name: `E${i}`, value: 'v' })) }] }
                : { containers: containers(n, 'gone').map(({ name }) => ({ name, $patch: 'delete' })) };
        return smp(ctx, `strategic merge with ${n} list entries (${shape})`, { spec: { template: { spec } } }, 'any');
      }
      case 'smp-directives': {
        const patch = rng.pick<unknown>([
          { $patch: 'replace' },
          { $patch: 'delete' },
          { $patch: 'bogus' },
          { spec: { $patch: 'replace', replicas: 2 } },
          { spec: { template: { spec: { containers: [{ $patch: 'delete' }] } } } },
          { spec: { template: { spec: { containers: [{ name: 'c', $patch: 'replace' }] } } } },
          { spec: { template: { spec: { containers: { name: 'c' } } } } },
          { spec: { $retainKeys: ['__proto__', 'constructor', 'replicas'] } },
          { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } } },
          { metadata: { '$deleteFromPrimitiveList/finalizers': ['a', 'b'] } },
          { metadata: { '$setElementOrder/finalizers': [1, { a: 1 }] } },
          { metadata: { '$setElementOrder/constructor': [] } },
          { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'missing' }] } } } },
          { spec: { template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 'x' }] }] } } } },
          { spec: { replicas: '1e400' } },
        ]);
        if (rng.chance(0.15)) {
          // Numbers JSON.stringify cannot write: out of float64 range, or past int32/int64.
          const n = rng.pick(['1e400', '-1e400', '12345678901234567890123', '2147483648', '1.0000000000000000001', '-0']);
          return rawPatch(`replicas ${n}`, rng.pick([SMP_TYPE, MERGE_TYPE]), `{"spec":{"replicas":${n}}}`, 'any', ctx.deploy);
        }
        return smp(ctx, `strategic directive ${JSON.stringify(patch).slice(0, 60)}`, patch, 'any');
      }
      case 'not-an-object': {
        const body = rng.pick(['[]', '[1]', '"x"', '1', 'null', 'true', '{', '{"a":1}{"b":2}']);
        const type = rng.pick([MERGE_TYPE, SMP_TYPE]);
        // `{"a":1}{"b":2}` is trailing data; the rest cannot be a patch of an object, except that a
        // strategic `null` decodes to an empty patch upstream (a no-op).
        const expect: Expect = type === SMP_TYPE && body === 'null' ? 'any' : 'refuse';
        return rawPatch(`${type === MERGE_TYPE ? 'merge' : 'strategic'} patch ${body}`, type, body, expect, ctx.cm);
      }
      case 'apply-misuse': {
        const which = rng.pick(['no manager', 'json patch body', 'list body', 'wrong kind', 'no apiVersion', 'force on merge'] as const);
        const body =
          which === 'json patch body'
            ? '[{"op":"add","path":"/data/x","value":"1"}]'
            : which === 'list body'
              ? '- a\n- b\n'
              : which === 'wrong kind'
                ? `apiVersion: v1\nkind: Secret\nmetadata:\n  name: cm\n  namespace: ${ctx.ns}\n`
                : which === 'no apiVersion'
                  ? `kind: ConfigMap\nmetadata:\n  name: cm\n`
                  : '{"data":{"x":"1"}}';
        const path = which === 'no manager' ? ctx.cm : which === 'force on merge' ? `${ctx.cm}?force=true` : `${ctx.cm}?fieldManager=hostile`;
        const type = which === 'force on merge' ? MERGE_TYPE : APPLY_TYPE;
        return {
          family: 'patches',
          variant: `apply misuse: ${which}`,
          method: 'PATCH',
          path,
          headers: { 'content-type': type },
          body: which === 'no manager' ? `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n` : body,
          expect: 'refuse',
          target: ctx.cm,
        };
      }
      case 'merge-nulls': {
        const depth = rng.pick([10, 500, 5000]);
        const body = `{"metadata":{"labels":null,"annotations":${'{"a":'.repeat(depth)}null${'}'.repeat(depth)}},"data":null}`;
        return rawPatch(`merge patch of nested nulls depth ${depth}`, rng.pick([MERGE_TYPE, SMP_TYPE]), body, 'any', ctx.cm);
      }
    }
  },
};
