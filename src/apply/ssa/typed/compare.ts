/**
 * Comparison of two values of one type (structured-merge-diff's TypedValue.Compare, which walks
 * them with the merging walker): the leaves added, modified and removed, and every non-leaf
 * node (a struct, a granular map, a list item) that appeared or disappeared as a whole.
 */
import { deepEqual } from '../../../machinery/deep-equal.js';
import { FieldSet } from '../field-set.js';
import type { Atom } from '../typed-schema.js';
import { mergeWalk, type WalkNode } from './merge-walk.js';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * What changed from lhs to rhs; throws TypedError when either side has duplicate keys where the
 * sides differ (every caller validates both sides first, which reports them anywhere).
 */
export function compareTyped(lhs: unknown, rhs: unknown, atom: Atom): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  mergeWalk(lhs, rhs, atom, {
    output: false,
    leaf(n: WalkNode) {
      if (n.lhs === undefined) c.added.insert(n.path);
      else if (n.rhs === undefined) c.removed.insert(n.path);
      else if (!deepEqual(n.lhs, n.rhs)) c.modified.insert(n.path);
      return undefined;
    },
    postItem(n: WalkNode) {
      if (n.lhs === undefined) c.added.insert(n.path);
      else if (n.rhs === undefined) c.removed.insert(n.path);
    },
    // Nothing below equal lists or maps is added, modified or removed: one deepEqual instead of
    // the typed walk (most of an update is unchanged).
    skip: (n: WalkNode) => typeof n.lhs === 'object' && n.lhs !== null && typeof n.rhs === 'object' && n.rhs !== null && deepEqual(n.lhs, n.rhs),
  });
  return c;
}

/** True when nothing changed. */
export function isSame(c: Comparison): boolean {
  return c.added.empty() && c.modified.empty() && c.removed.empty();
}

/** Comparison.ExcludeFields: the changes outside the fields a strategy resets. */
export function excludeFields(c: Comparison, fields: FieldSet | undefined): Comparison {
  if (fields === undefined || fields.empty()) return c;
  return { added: c.added.recursiveDifference(fields), modified: c.modified.recursiveDifference(fields), removed: c.removed.recursiveDifference(fields) };
}
