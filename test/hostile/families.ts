/** Every family of hostile cases, and the pick of one for a case index. */
import { encodings } from './encodings.js';
import type { Family } from './hostile-case.js';
import { nesting } from './nesting.js';
import { params } from './params.js';
import { patches } from './patches.js';
import { paths } from './paths.js';
import type { Rng } from './prng.js';
import { protobufFamily } from './protobuf.js';
import { prototypeKeys } from './prototype-keys.js';
import { sizes } from './sizes.js';
import { yaml } from './yaml.js';

export const FAMILIES: readonly Family[] = [nesting, sizes, encodings, prototypeKeys, patches, yaml, protobufFamily, params, paths];

/** One family, by weight. */
export function pickFamily(rng: Rng, families: readonly Family[] = FAMILIES): Family {
  return rng.weighted(families.map((f) => [f.weight, f] as const));
}
