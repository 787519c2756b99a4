/**
 * Comparison of two values of one type (structured-merge-diff's TypedValue.Compare, which walks
 * them with the merging walker): the leaves added, modified and removed, and every non-leaf
 * node (a struct, a granular map, a list item) that appeared or disappeared as a whole.
 */
import { deepEqual } from '../../../machinery/deep-equal.js';
import { FieldSet } from '../field-set.js';
import type { Atom } from '../typed-schema.js';
import { endWalk, type MergeRules, mergeWalk, mergeWalkIn, type WalkNode } from './merge-walk.js';
import type { Due } from '../../../machinery/pace.js';
import { Done, type Steps, stepped } from '../../work.js';

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
  const c = emptyComparison();
  mergeWalk(lhs, rhs, atom, comparing(c));
  return c;
}

/** compareTyped in pieces (../../work.ts), pausing between them when due. */
export function compareTypedSteps(lhs: unknown, rhs: unknown, atom: Atom, due: Due): Steps<Comparison> {
  const c = emptyComparison();
  return stepped(
    (w) => mergeWalkIn(lhs, rhs, atom, comparing(c), w),
    due,
    (walk) => {
      endWalk(walk);
      return c;
    },
  );
}

function emptyComparison(): Comparison {
  return { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
}

function comparing(c: Comparison): MergeRules {
  return {
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
    // Nothing below equal lists or maps is added, modified or removed: one comparison instead
    // of the typed walk (most of an update is unchanged).
    skipEqual: true,
  };
}

/** True when nothing changed. */
export function isSame(c: Comparison): boolean {
  return c.added.empty() && c.modified.empty() && c.removed.empty();
}

/** Comparison.ExcludeFields: the changes outside the fields a strategy resets, in pieces (../../work.ts). */
export function excludeFields(c: Comparison, fields: FieldSet | undefined, due: Due): Steps<Comparison> {
  if (fields === undefined || fields.empty()) return new Done(c);
  return stepped(
    (w) => ({
      added: c.added.recursiveDifference(fields, w),
      modified: c.modified.recursiveDifference(fields, w),
      removed: c.removed.recursiveDifference(fields, w),
    }),
    due,
  );
}
