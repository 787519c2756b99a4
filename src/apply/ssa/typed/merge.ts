/**
 * Merge of an applied configuration into the live object (structured-merge-diff's
 * TypedValue.Merge): at every leaf the configuration's value wins; granular maps merge key by
 * key; associative lists merge item by item, in the configuration's order for the items both
 * have, the live object's other items keeping their place.
 */
import type { Due } from '../../../machinery/pace.js';
import type { Steps } from '../../work.js';
import type { Atom } from '../typed-schema.js';
import { type MergeRules, mergeWalk, mergeWalkSteps } from './merge-walk.js';

const MERGING: MergeRules = {
  output: true,
  leaf: (n) => (n.rhs !== undefined ? n.rhs : n.lhs),
};

/** The merged value (undefined when both are absent); throws TypedError on duplicate keys. */
export function mergeTyped(live: unknown, config: unknown, atom: Atom): unknown {
  return mergeWalk(live, config, atom, MERGING);
}

/** mergeTyped in pieces (../../work.ts), pausing between them when due. */
export function mergeTypedSteps(live: unknown, config: unknown, atom: Atom, due: Due): Steps<unknown> {
  return mergeWalkSteps(live, config, atom, MERGING, due);
}
