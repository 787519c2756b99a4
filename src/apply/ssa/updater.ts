/**
 * structured-merge-diff's merge.Updater (v4): how each write moves field ownership.
 *
 * - update (every non-apply write): the writer takes every field it added or changed; a
 *   field it changed is taken from every other manager; removed fields leave everyone.
 * - apply: the configuration is merged into the live object; fields the applier applied last
 *   time and no longer applies are removed unless another manager owns them; changing a field
 *   another manager owns is a conflict unless forced, which takes it from them.
 *
 * `ignored` holds the fields the write's strategy resets (status on the main resource, all but
 * status on the status subresource): they are neither owned nor compared. Every manager is
 * read at the request's own version: the served types have one schema per kind.
 */
import { FieldSet } from './field-set.js';
import type { VersionedSet } from './managed-fields.js';
import { ApplyConflicts, conflictsFromManagers } from './conflict.js';
import { type Comparison, compareTypedSteps, excludeFields, isSame } from './typed/compare.js';
import { mergeTypedSteps } from './typed/merge.js';
import { removeItemsSteps } from './typed/remove.js';
import { toFieldSetSteps } from './typed/to-field-set.js';
import type { Atom } from './typed-schema.js';
import { type Due, runAtOnce } from '../../machinery/pace.js';
import { stepped } from '../work.js';

export type Managers = Map<string, VersionedSet>;

export class Updater {
  constructor(
    private readonly atom: Atom,
    private readonly ignored?: FieldSet,
  ) {}

  // The comparison, and its fields added or modified (the fields the workflow changed).
  // Stepped (machinery/pace.ts): it pauses between its steps, each linear in the objects, when due.
  private *update(
    oldObj: unknown,
    newObj: unknown,
    managers: Managers,
    workflow: string,
    force: boolean,
    due: Due,
  ): Generator<void, { compare: Comparison; changed: FieldSet }, void> {
    const compare = yield* excludeFields(yield* compareTypedSteps(oldObj, newObj, this.atom, due), this.ignored, due);
    if (due()) yield;
    const changed = yield* stepped((w) => compare.modified.union(compare.added, w), due);
    const conflicts: Managers = new Map();
    for (const [manager, vs] of managers) {
      if (manager === workflow) continue;
      const conflictSet = yield* stepped((w) => vs.set.intersection(changed, w), due);
      if (!conflictSet.empty()) conflicts.set(manager, { set: conflictSet, apiVersion: vs.apiVersion, applied: false });
    }
    if (!force && conflicts.size > 0) throw new ApplyConflicts(conflictsFromManagers(conflicts));
    for (const [manager, vs] of managers) {
      if (manager === workflow) continue;
      let set = vs.set;
      const taken = conflicts.get(manager);
      if (taken !== undefined) set = yield* difference(set, taken.set, due);
      if (!compare.removed.empty()) set = yield* difference(set, compare.removed, due);
      if (set !== vs.set) managers.set(manager, { set, apiVersion: vs.apiVersion, applied: vs.applied });
    }
    for (const [manager, vs] of managers) if (vs.set.empty()) managers.delete(manager);
    return { compare, changed };
  }

  /** Ownership after a non-apply write of newObj over liveObj by manager. */
  updateOwnership(liveObj: unknown, newObj: unknown, version: string, current: ReadonlyMap<string, VersionedSet>, manager: string): Managers {
    return runAtOnce((due) => this.updateOwnershipSteps(liveObj, newObj, version, current, manager, due));
  }

  /** updateOwnership as steps (machinery/pace.ts). */
  *updateOwnershipSteps(
    liveObj: unknown,
    newObj: unknown,
    version: string,
    current: ReadonlyMap<string, VersionedSet>,
    manager: string,
    due: Due,
  ): Generator<void, Managers, void> {
    const managers: Managers = new Map(current);
    const { compare, changed } = yield* this.update(liveObj, newObj, managers, manager, true, due);
    if (due()) yield;
    const previous = managers.get(manager)?.set;
    // A path is at most one of added, modified or removed, and the comparison already leaves
    // the ignored fields out: a manager without fields before gets exactly the changed ones.
    let set = changed;
    if (previous !== undefined) {
      const united = yield* stepped((w) => previous.union(changed, w), due);
      set = yield* difference(united, compare.removed, due);
      set = yield* this.withoutIgnored(set, due);
    }
    if (set.empty()) managers.delete(manager);
    else managers.set(manager, { set, apiVersion: version, applied: false });
    return managers;
  }

  /**
   * Applies config over liveObj for manager: the merged object (undefined when nothing
   * changed) and the new ownership; throws ApplyConflicts unless force.
   */
  apply(
    liveObj: unknown,
    config: unknown,
    version: string,
    current: ReadonlyMap<string, VersionedSet>,
    manager: string,
    force: boolean,
  ): { object: unknown; managers: Managers } {
    return runAtOnce((due) => this.applySteps(liveObj, config, version, current, manager, force, due));
  }

  /** apply as steps (machinery/pace.ts). */
  *applySteps(
    liveObj: unknown,
    config: unknown,
    version: string,
    current: ReadonlyMap<string, VersionedSet>,
    manager: string,
    force: boolean,
    due: Due,
  ): Generator<void, { object: unknown; managers: Managers }, void> {
    const managers: Managers = new Map(current);
    let merged = yield* mergeTypedSteps(liveObj, config, this.atom, due);
    if (due()) yield;
    const lastSet = managers.get(manager);
    const set = yield* this.withoutIgnored(yield* toFieldSetSteps(config, this.atom, due), due);
    managers.set(manager, { set, apiVersion: version, applied: true });
    if (due()) yield;
    merged = yield* this.prune(merged, managers, lastSet, due);
    const { compare } = yield* this.update(liveObj, merged, managers, manager, force, due);
    return { object: isSame(compare) ? undefined : merged, managers };
  }

  // Removes what the applier applied last time and not now, unless someone still owns it.
  private *prune(merged: unknown, managers: Managers, lastSet: VersionedSet | undefined, due: Due): Generator<void, unknown, void> {
    if (lastSet === undefined || lastSet.set.empty()) return merged;
    // Nothing left at the root is an empty object, not an absent one.
    let pruned: unknown = (yield* removeItemsSteps(merged, lastSet.set, this.atom, due)) ?? {};
    if (due()) yield;
    pruned = yield* this.addBackOwnedItems(merged, pruned, managers, due);
    if (due()) yield;
    return yield* this.addBackDanglingItems(merged, pruned, lastSet.set, due);
  }

  // Fields, list and map items other managers (or the new config) own come back.
  private *addBackOwnedItems(merged: unknown, pruned: unknown, managers: Managers, due: Due): Generator<void, unknown, void> {
    let owned = new FieldSet();
    for (const vs of managers.values()) owned = yield* stepped((w) => owned.union(vs.set, w), due);
    const mergedSet = yield* this.fieldSet(merged, due);
    const prunedSet = yield* this.fieldSet(pruned, due);
    const kept = yield* stepped((w) => prunedSet.union(owned, w), due);
    const gone = yield* difference(mergedSet, kept, due);
    return (yield* removeItemsSteps(merged, gone, this.atom, due)) ?? {};
  }

  // Only what the applier owned last time may go: unowned fields and updaters' fields come back.
  private *addBackDanglingItems(merged: unknown, pruned: unknown, last: FieldSet, due: Due): Generator<void, unknown, void> {
    const prunedSet = yield* this.fieldSet(pruned, due);
    const mergedSet = yield* this.fieldSet(merged, due);
    const gone = yield* difference(mergedSet, prunedSet, due);
    const owned = yield* stepped((w) => gone.intersection(last, w), due);
    return (yield* removeItemsSteps(merged, owned, this.atom, due)) ?? {};
  }

  private *fieldSet(v: unknown, due: Due): Generator<void, FieldSet, void> {
    return v === undefined ? new FieldSet() : yield* toFieldSetSteps(v, this.atom, due);
  }

  // The set without the fields the write's strategy resets.
  private *withoutIgnored(set: FieldSet, due: Due): Generator<void, FieldSet, void> {
    const ignored = this.ignored;
    return ignored === undefined ? set : yield* stepped((w) => set.recursiveDifference(ignored, w), due);
  }
}

function difference(set: FieldSet, other: FieldSet, due: Due): Iterator<void, FieldSet, void> & Iterable<void> {
  return stepped((w) => set.difference(other, w), due);
}
