/**
 * Bodies just under, at and just over the 3 MiB request limit (413 RequestEntityTooLarge past
 * it, as upstream), and objects over the per-type size limits (ConfigMap data 1 MiB,
 * annotations 256 KiB: 422 Invalid).
 */
import { APPLY_TYPE, configMap, JSON_TYPE, MERGE_TYPE, SMP_TYPE, YAML_TYPE } from './bodies.js';
import type { Expect, Family, HostileCase, LaneContext } from './hostile-case.js';
import type { Rng } from './prng.js';
import { freshName } from './writes.js';

const LIMIT = 3 * 1024 * 1024;
const MiB = 1024 * 1024;

/** Pads JSON (or YAML) text with trailing whitespace to exactly `size` bytes. */
function padTo(text: string, size: number): string {
  return size > text.length ? text + ' '.repeat(size - text.length) : text;
}

export const sizes: Family = {
  name: 'sizes',
  owner: 'request limits (body size, storage request size)',
  weight: 2,
  generate(rng: Rng, ctx): HostileCase {
    const kind = rng.pick(['padded', 'padded', 'data', 'annotations', 'labels', 'number'] as const);
    const verb = rng.pick(['create', 'update', 'merge', 'strategic', 'apply', 'delete'] as const);
    const name = verb === 'create' ? freshName(rng) : 'cm';
    let obj = configMap(name, ctx.ns);
    let size = 0;
    let expect: Expect = 'any';
    let variant: string;
    switch (kind) {
      case 'padded': {
        size = rng.pick([LIMIT - 1, LIMIT, LIMIT + 1, LIMIT + 4096, 4 * MiB, 16 * MiB]);
        expect = size > LIMIT ? [413] : 'any';
        variant = `padded to ${size}`;
        break;
      }
      case 'data': {
        const bytes = rng.pick([MiB - 64, MiB + 1, 2 * MiB, LIMIT - 1024]);
        obj = { ...obj, data: { big: 'x'.repeat(bytes) } };
        // The body itself may pass 3 MiB with the envelope; then 413 wins.
        expect = bytes > MiB ? 'refuse' : 'any';
        variant = `data value of ${bytes}`;
        break;
      }
      case 'annotations': {
        const bytes = rng.pick([256 * 1024 - 64, 256 * 1024 + 1, 2 * MiB]);
        obj = { ...obj, metadata: { ...(obj.metadata as object), annotations: { big: 'y'.repeat(bytes) } } };
        expect = bytes > 256 * 1024 ? 'refuse' : 'any';
        variant = `annotation value of ${bytes}`;
        break;
      }
      case 'labels': {
        const count = rng.pick([1_000, 50_000, 120_000]);
        const labels: Record<string, string> = {};
        for (let i = 0; i < count; i++) labels[`k${i}`] = 'v';
        obj = { ...obj, metadata: { ...(obj.metadata as object), labels } };
        variant = `${count} labels`;
        break;
      }
      case 'number': {
        variant = 'a 1 MiB number as immutable';
        const text = JSON.stringify(obj).replace(/}$/, `,"immutable":${'9'.repeat(MiB)}}`);
        return finish(rng, ctx, verb, text, name, 'refuse', variant);
      }
    }
    let text = JSON.stringify(obj);
    if (kind === 'padded') text = padTo(text, size);
    return finish(rng, ctx, verb, text, name, expect, variant);
  },
};

/** The case for one sized body on one verb. */
function finish(rng: Rng, ctx: LaneContext, verb: string, text: string, name: string, expect: Expect, variant: string): HostileCase {
  const family = 'sizes';
  const v = `${verb} ${variant}`;
  switch (verb) {
    case 'create':
      return {
        family,
        variant: v,
        method: 'POST',
        path: ctx.cms,
        headers: { 'content-type': rng.pick([JSON_TYPE, YAML_TYPE]) },
        body: text,
        expect,
        creates: `${ctx.cms}/${name}`,
      };
    case 'update':
      return { family, variant: v, method: 'PUT', path: ctx.cm, headers: { 'content-type': JSON_TYPE }, body: text, expect, target: ctx.cm };
    case 'apply':
      return {
        family,
        variant: v,
        method: 'PATCH',
        path: `${ctx.cm}?fieldManager=hostile`,
        headers: { 'content-type': APPLY_TYPE },
        body: text,
        expect,
        target: ctx.cm,
      };
    case 'delete': {
      // A DeleteOptions body of the same size: the limit applies to every body.
      const options = padTo('{"apiVersion":"v1","kind":"DeleteOptions"}', text.length);
      return {
        family,
        variant: v,
        method: 'DELETE',
        path: ctx.cm,
        headers: { 'content-type': JSON_TYPE },
        body: options,
        expect: options.length > LIMIT ? [413] : 'any',
        target: ctx.cm,
      };
    }
    default:
      return {
        family,
        variant: v,
        method: 'PATCH',
        path: ctx.cm,
        headers: { 'content-type': verb === 'merge' ? MERGE_TYPE : SMP_TYPE },
        body: text,
        expect,
        target: ctx.cm,
      };
  }
}
