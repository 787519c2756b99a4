/**
 * YAML built to expand or recurse: alias bombs (go-yaml refuses excessive aliasing with 400),
 * self-referencing anchors, block sequences nested past 10,000 levels, large `!!binary`
 * scalars, and every kind of tag, sent as YAML creates, updates and applies.
 */
import { APPLY_TYPE, YAML_TYPE } from './bodies.js';
import type { Expect, Family, HostileCase, LaneContext } from './hostile-case.js';
import type { Rng } from './prng.js';
import { UPSTREAM_MAX_DEPTH } from './nesting.js';
import { freshName } from './writes.js';

/** A ConfigMap in YAML with `extra` (top-level YAML lines) before it and `value` as an unknown field. */
function document(name: string, ns: string, extra: string, dataValue = '"1"'): string {
  return `${extra}apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\ndata:\n  a: ${dataValue}\n`;
}

/** Billion laughs: `levels` anchors each referring `fanout` times to the one before. */
function aliasBomb(levels: number, fanout: number): string {
  let out = `l0: &l0 [${Array(fanout).fill('"lol"').join(',')}]\n`;
  for (let i = 1; i < levels; i++)
    out += `l${i}: &l${i} [${Array(fanout)
      .fill(`*l${i - 1}`)
      .join(',')}]\n`;
  return out;
}

/** Base64 of n pseudo-random bytes, cached per size (building 2 MiB per case would dominate). */
const binaryCache = new Map<number, string>();
function binary(rng: Rng, n: number): string {
  let b = binaryCache.get(n);
  if (b === undefined) binaryCache.set(n, (b = rng.bytes(n).toString('base64')));
  return b;
}

export const yaml: Family = {
  name: 'yaml',
  owner: 'decode limits (YAML depth/aliases) and event-loop work',
  weight: 9,
  generate(rng: Rng, ctx: LaneContext): HostileCase {
    const verb = rng.pick(['create', 'update', 'apply'] as const);
    const name = verb === 'create' ? freshName(rng) : 'cm';
    const kind = rng.pick(['bomb', 'bomb', 'self', 'deep-block', 'deep-flow', 'binary', 'tag', 'tag', 'documents', 'keys'] as const);
    let extra = '';
    let dataValue = '"1"';
    let expect: Expect = 'any';
    let variant: string;
    switch (kind) {
      case 'bomb': {
        const levels = rng.pick([3, 5, 7, 9]);
        const fanout = 9;
        extra = aliasBomb(levels, fanout);
        if (rng.chance(0.3)) extra += `merged:\n  <<: [*l${levels - 1}]\n`;
        // go-yaml's alias budget stops documents that expand to millions of nodes.
        expect = fanout ** levels >= 9 ** 6 ? 'refuse' : 'any';
        variant = `alias bomb ${fanout}^${levels}`;
        break;
      }
      case 'self': {
        extra = rng.pick(['a: &a [*a]\n', 'a: &a {b: *a}\n', 'a: &a\n  b: *a\n']);
        expect = 'refuse';
        variant = 'self-referencing anchor';
        break;
      }
      case 'deep-block': {
        const depth = rng.pick([100, 5000, UPSTREAM_MAX_DEPTH + 1, 100_000, 1_000_000]);
        extra = `xHostile:\n${'- '.repeat(depth)}x\n`;
        expect = depth > UPSTREAM_MAX_DEPTH ? 'refuse' : 'any';
        variant = `block sequences nested ${depth} deep`;
        break;
      }
      case 'deep-flow': {
        const depth = rng.pick([100, 5000, UPSTREAM_MAX_DEPTH + 1, 200_000]);
        extra = `xHostile: ${'{a: '.repeat(depth)}1${'}'.repeat(depth)}\n`;
        expect = depth > UPSTREAM_MAX_DEPTH ? 'refuse' : 'any';
        variant = `flow mappings nested ${depth} deep`;
        break;
      }
      case 'binary': {
        const n = rng.pick([16, 1024, 512 * 1024, 2 * 1024 * 1024]);
        dataValue = `!!binary ${binary(rng, n)}`;
        // Upstream decodes the bytes into the string value; past 1 MiB the ConfigMap is invalid.
        expect = n > 1024 * 1024 ? 'refuse' : 'any';
        variant = `!!binary data value of ${n} bytes`;
        break;
      }
      case 'tag': {
        const tagged = rng.pick([
          '!!js/function "function(){}"',
          '!!python/object:os.system "ls"',
          '!!int notanumber',
          '!!float .inf',
          '!!bool maybe',
          '!!map x',
          '!!seq x',
          '!!set {a, b}',
          '!!omap [a: 1]',
          '!!timestamp 2001-12-14t21:59:43.10-05:00',
          '!!timestamp 99999-99-99',
          '!custom value',
          '!<tag:yaml.org,2002:str> 1',
          '!!null ~',
          '!!str 12',
        ]);
        // Tags on a string field: a string result is fine, anything else a decode error; never a 500.
        dataValue = tagged;
        variant = `tag ${tagged.split(' ')[0]} on a data value`;
        break;
      }
      case 'documents': {
        extra = rng.pick(['', '---\n', '%YAML 1.1\n---\n', '%TAG ! tag:evil:\n---\n']);
        const tail = rng.pick(['---\n- a\n', '...\n---\nkind: Secret\n', '---\n', '--- !!binary AAAA\n']);
        const body = document(name, ctx.ns, extra) + tail;
        return finish(verb, name, ctx, body, `multi-document ${JSON.stringify(extra + tail).slice(0, 40)}`, 'any');
      }
      case 'keys': {
        extra = rng.pick([
          '? [a, b]\n: c\n',
          '? {a: 1}\n: c\n',
          '1: x\n',
          'null: x\n',
          '~: x\n',
          'true: x\n',
          '<<: {metadata: {name: evil}}\n',
          'kind: Secret\n',
        ]);
        // Non-string keys do not convert to JSON objects (400); a duplicate kind is a duplicate key.
        expect = extra.startsWith('?') ? 'refuse' : 'any';
        variant = `odd key ${JSON.stringify(extra).slice(0, 30)}`;
        break;
      }
    }
    return finish(verb, name, ctx, document(name, ctx.ns, extra, dataValue), variant, expect);
  },
};

function finish(verb: 'create' | 'update' | 'apply', name: string, ctx: LaneContext, body: string, variant: string, expect: Expect): HostileCase {
  const family = 'yaml';
  const v = `${verb} ${variant}`;
  if (verb === 'create')
    return { family, variant: v, method: 'POST', path: ctx.cms, headers: { 'content-type': YAML_TYPE }, body, expect, creates: `${ctx.cms}/${name}` };
  if (verb === 'update') return { family, variant: v, method: 'PUT', path: ctx.cm, headers: { 'content-type': YAML_TYPE }, body, expect, target: ctx.cm };
  return {
    family,
    variant: v,
    method: 'PATCH',
    path: `${ctx.cm}?fieldManager=hostile&force=true`,
    headers: { 'content-type': APPLY_TYPE },
    body,
    expect,
    target: ctx.cm,
  };
}
