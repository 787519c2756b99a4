/**
 * Merge of an applied configuration into the live object (structured-merge-diff's
 * TypedValue.Merge): at every leaf the configuration's value wins; granular maps merge key by
 * key; associative lists merge item by item, in the configuration's order for the items both
 * have, the live object's other items keeping their place.
 */
import type { Atom } from '../typed-schema.js';
import { mergeWalk } from './merge-walk.js';

/** The merged value (undefined when both are absent); throws TypedError on duplicate keys. */
export function mergeTyped(live: unknown, config: unknown, atom: Atom): unknown {
  return mergeWalk(live, config, atom, {
    output: true,
    leaf: (n) => (n.rhs !== undefined ? n.rhs : n.lhs),
  });
}
