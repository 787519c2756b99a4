/**
 * Deep nesting in JSON and YAML bodies on every write verb, from harmless to far past the
 * decoders' limits. Upstream's JSON and YAML decoders refuse nesting past 10,000 levels with
 * 400 ("exceeded max depth"); anything shallower may be accepted (an unknown field is dropped)
 * but never a 5xx, and never a held event loop.
 */
import type { Family } from './hostile-case.js';
import type { Rng } from './prng.js';
import { placeWrite } from './writes.js';

/** Upstream's nesting limit for JSON and YAML decoding. */
export const UPSTREAM_MAX_DEPTH = 10_000;

const DEPTHS = [1, 10, 100, 500, 999, 1000, 1001, 3000, 9999, 10_000, 10_001, 20_000, 100_000, 500_000];

/** Raw JSON text nesting `depth` containers of the given shape. */
export function nested(shape: 'array' | 'object' | 'mixed', depth: number): string {
  if (shape === 'array') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
  if (shape === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  // At least one level: a bare null would be a merge patch's deletion of an absent field (accepted upstream).
  const half = Math.max(1, Math.floor(depth / 2));
  return `${'[{"a":'.repeat(half)}null${'}]'.repeat(half)}`;
}

export const nesting: Family = {
  name: 'nesting',
  owner: 'decode depth limits (JSON patch amplification / decode depth helper)',
  weight: 10,
  generate(rng: Rng, ctx) {
    const depth = rng.pick(DEPTHS);
    const shape = rng.pick(['array', 'object', 'mixed'] as const);
    const w = placeWrite(rng, ctx, { fragment: nested(shape, depth), inMetadata: rng.chance(0.3) });
    const tooDeep = depth > UPSTREAM_MAX_DEPTH;
    return {
      ...w,
      family: 'nesting',
      variant: `${w.variant} ${shape} depth ${depth}`,
      expect: tooDeep || w.strictUnknown ? 'refuse' : 'any',
    };
  },
};
