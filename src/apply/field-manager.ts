/**
 * The field manager of one kind and subresource (upstream's fieldmanager.FieldManager as
 * NewDefaultFieldManager assembles it): it keeps metadata.managedFields on every write and
 * merges server-side apply configurations.
 *
 * The layers, outermost first, each a function below: version check, last-applied annotation
 * (kubectl's client-side to server-side apply upgrade), skip-non-applied (an object whose
 * ownership was reset is tracked again only once applied), cap of update managers, manager
 * identifier, managedFields timestamps, strip of server-owned metadata, structured merge.
 */
import { badRequest, StatusError } from '../machinery/status.js';
import { isPlainObject, type Obj, rfc3339 } from '../machinery/object.js';
import { capUpdateManagers } from './ssa/cap-managers.js';
import { ApplyConflicts, applyConflictError } from './ssa/conflict.js';
import type { FieldSet } from './ssa/field-set.js';
import { allowedConflictsFromLastApplied, conflictsNotAllowed, syncLastApplied } from './ssa/last-applied.js';
import {
  copyManaged,
  decodeManagedFieldsSteps,
  emptyManaged,
  encodeManagedFieldsSteps,
  isResetManagedFields,
  type Managed,
  managerIdentifier,
} from './ssa/managed-fields.js';
import { stripMeta } from './ssa/strip-meta.js';
import { typedErrorsMessage } from './ssa/typed/atoms.js';
import { pruneUndeclared } from './ssa/typed/prune.js';
import { validateTypedSteps } from './ssa/typed/validate.js';
import type { TypeRef } from './ssa/typed-schema.js';
import { Updater } from './ssa/updater.js';
import { zeroObject } from './ssa/zero-object.js';
import { setOwn } from '../machinery/own-property.js';
import { type Due, type Pace, runAtOnce, runPaced } from '../machinery/pace.js';
import { cloneJsonSteps } from './clone.js';
import { stepped } from './work.js';

export interface FieldManagerConfig {
  /** The kind's typed schema. */
  readonly type: TypeRef;
  /** Served `group/version` (recorded in entries) and kind. */
  readonly apiVersion: string;
  readonly kind: string;
  /** '' for the main resource, `status`... for a subresource write. */
  readonly subresource: string;
  /** Fields the write's strategy resets; never owned by it. */
  readonly resetFields?: FieldSet;
  /** The kind's Go zero value as JSON (built-in kinds): what a create is compared with. */
  readonly goZero?: () => Obj;
  readonly now: () => Date;
}

/** Manager of the writes that ran before the first apply of an untracked object. */
const BEFORE_FIRST_APPLY = 'before-first-apply';
/** The name a non-apply write's own changes are computed under before joining its entry. */
const CURRENT_OPERATION = 'current-operation';
/** Only kubectl's own server-side apply upgrades from and keeps the last-applied annotation. */
const KUBECTL = 'kubectl';

/** A failure upstream reports as a plain error (500 without a reason). */
function internal(message: string): StatusError {
  return new StatusError(500, '', message);
}

export class FieldManager {
  private readonly updater: Updater;
  private zeroObj: Obj | undefined;

  constructor(private readonly cfg: FieldManagerConfig) {
    this.updater = new Updater(cfg.type.atom, cfg.resetFields);
  }

  /**
   * UpdateNoErrors: next with managedFields recording a non-apply write by manager over live
   * (undefined on create). On any failure next is returned without managedFields.
   */
  update(live: Obj | undefined, next: Obj, manager: string): Obj {
    return runAtOnce((due) => this.updateSteps(live, next, manager, due));
  }

  /** update, yielding to the event loop between its steps whenever the request's pace is due. */
  updatePaced(live: Obj | undefined, next: Obj, manager: string, pace: Pace | undefined): Obj | Promise<Obj> {
    return runPaced((due) => this.updateSteps(live, next, manager, due), pace);
  }

  // The steps of update, each linear in the object (machinery/pace.ts).
  private *updateSteps(live: Obj | undefined, next: Obj, manager: string, due: Due): Generator<void, Obj, void> {
    try {
      const liveObj = live ?? this.zero();
      const managed = yield* this.decodeLiveOrNew(liveObj, next, due);
      setManagedFields(next, undefined);
      if (due()) yield;
      const tracked = managed.fields.size > 0 || !hasUid(liveObj);
      const result = tracked ? yield* this.capUpdate(withoutManagedFields(liveObj), next, managed, manager, due) : managed;
      if (due()) yield;
      setManagedFields(next, yield* encodeManagedFieldsSteps(result, due));
    } catch {
      setManagedFields(next, undefined);
    }
    return next;
  }

  /**
   * Apply: config merged into live (undefined to create) for manager, with managedFields.
   * Throws 409 on conflicts unless force, 400 for a config of another kind or with
   * managedFields, 500 for a config its type cannot hold (as upstream).
   */
  apply(live: Obj | undefined, config: Obj, manager: string, force: boolean): Obj {
    return runAtOnce((due) => this.applySteps(live, config, manager, force, due));
  }

  /** apply, yielding to the event loop between its steps whenever the request's pace is due. */
  applyPaced(live: Obj | undefined, config: Obj, manager: string, force: boolean, pace: Pace | undefined): Obj | Promise<Obj> {
    return runPaced((due) => this.applySteps(live, config, manager, force, due), pace);
  }

  private *applySteps(live: Obj | undefined, config: Obj, manager: string, force: boolean, due: Due): Generator<void, Obj, void> {
    const liveObj = live ?? this.zero();
    let managed: Managed;
    try {
      managed = yield* decodeManagedFieldsSteps(metadataOf(liveObj)?.managedFields, due);
    } catch (e) {
      throw internal(`failed to decode managed fields: ${e instanceof Error ? e.message : String(e)}`);
    }
    const bare = withoutManagedFields(liveObj);
    if (config.apiVersion !== this.cfg.apiVersion || config.kind !== this.cfg.kind) {
      throw badRequest(`invalid object type: ${gvkString(String(config.apiVersion ?? ''), String(config.kind ?? ''))}`);
    }
    if (due()) yield;
    try {
      const { object, managed: result } = yield* this.applyLastApplied(bare, config, managed, manager, force, due);
      if (due()) yield;
      setManagedFields(object, yield* encodeManagedFieldsSteps(result, due));
      return object;
    } catch (e) {
      if (e instanceof ApplyConflicts) throw applyConflictError(e);
      throw e;
    }
  }

  // lastAppliedUpdater around lastAppliedManager.
  private *applyLastApplied(
    live: Obj,
    config: Obj,
    managed: Managed,
    manager: string,
    force: boolean,
    due: Due,
  ): Generator<void, { object: Obj; managed: Managed }, void> {
    let result: { object: Obj; managed: Managed };
    try {
      result = yield* this.applySkipNonApplied(live, config, copyManaged(managed), manager, force, due);
    } catch (e) {
      if (!(e instanceof ApplyConflicts) || manager !== KUBECTL) throw e;
      // Conflicts only over values kubectl itself set by client-side apply are no conflicts.
      const allowed = allowedConflictsFromLastApplied(live, this.cfg.apiVersion, this.cfg.type.atom);
      if (allowed === undefined) throw e;
      const remaining = conflictsNotAllowed(e.conflicts, allowed);
      if (remaining.length > 0) throw new ApplyConflicts(remaining);
      result = yield* this.applySkipNonApplied(live, config, copyManaged(managed), manager, true, due);
    }
    if (manager === KUBECTL) syncLastApplied(result.object, config);
    return result;
  }

  // skipNonApplied: an untracked object's existing fields first go to before-first-apply.
  private *applySkipNonApplied(
    stored: Obj,
    config: Obj,
    managed: Managed,
    manager: string,
    force: boolean,
    due: Due,
  ): Generator<void, { object: Obj; managed: Managed }, void> {
    const live = yield* this.liveAsTyped(stored, due);
    if (due()) yield;
    if (managed.fields.size === 0) managed = yield* this.capUpdate(this.zero(), live, managed, BEFORE_FIRST_APPLY, due);
    const id = managerIdentifier({ manager: manager || 'unknown', operation: 'Apply', subresource: this.cfg.subresource });
    const { object, changed } = yield* this.structuredApply(live, config, managed, id, force, due);
    stripMeta(managed, id);
    if (changed) managed.times.set(id, this.timestamp());
    capUpdateManagers(managed);
    return { object, managed };
  }

  // capManagers, buildManagerInfo and managedFieldsUpdater around an update.
  // managed is the caller's own (freshly decoded or copied): it is updated in place.
  private *capUpdate(live: Obj, next: Obj, managed: Managed, manager: string, due: Due): Generator<void, Managed, void> {
    const id = managerIdentifier({ manager: manager || 'unknown', operation: 'Update', apiVersion: this.cfg.apiVersion, subresource: this.cfg.subresource });
    managed.fields = yield* this.structuredUpdate(live, next, managed, CURRENT_OPERATION, due);
    if (due()) yield;
    stripMeta(managed, CURRENT_OPERATION);
    const own = managed.fields.get(CURRENT_OPERATION);
    if (own !== undefined) {
      // The write changed fields: they join the manager's entry, which gets the time.
      managed.fields.delete(CURRENT_OPERATION);
      const previous = managed.fields.get(id);
      const set = previous === undefined ? own.set : yield* stepped((w) => own.set.union(previous.set, w), due);
      managed.fields.set(id, set === own.set ? own : { set, apiVersion: own.apiVersion, applied: own.applied });
      managed.times.set(id, this.timestamp());
    }
    capUpdateManagers(managed);
    return managed;
  }

  private *structuredUpdate(stored: Obj, next: Obj, managed: Managed, manager: string, due: Due) {
    yield* this.typed(next, 'new', due);
    if (due()) yield;
    // The zero object (only ever had from zero()) is built from the type: it conforms.
    const live = stored === this.zeroObj ? stored : yield* this.liveAsTyped(stored, due);
    if (due()) yield;
    return yield* this.updater.updateOwnershipSteps(live, next, this.cfg.apiVersion, managed.fields, manager, due);
  }

  private *structuredApply(
    live: Obj,
    config: Obj,
    managed: Managed,
    id: string,
    force: boolean,
    due: Due,
  ): Generator<void, { object: Obj; changed: boolean }, void> {
    if (config.apiVersion !== this.cfg.apiVersion) {
      throw badRequest(`Incorrect version specified in apply patch. Specified patch version: ${String(config.apiVersion)}, expected: ${this.cfg.apiVersion}`);
    }
    const meta = metadataOf(config);
    if (meta?.managedFields !== undefined && meta.managedFields !== null) throw badRequest('metadata.managedFields must be nil');
    const patchErrors = yield* validateTypedSteps(config, this.cfg.type.atom, due);
    // Upstream 1.25 answers this with a reasonless 500; it is the client's configuration that is
    // wrong, so orch answers 400 (DESIGN: bad input never yields a 500), with upstream's text.
    if (patchErrors.length > 0) throw badRequest(`failed to create typed patch object (${this.gvknn(config)}): ${typedErrorsMessage(patchErrors)}`);
    if (due()) yield;
    const { object, managers } = yield* this.updater.applySteps(live, config, this.cfg.apiVersion, managed.fields, id, force, due);
    managed.fields = managers;
    if (due()) yield;
    if (object === undefined) return { object: yield* cloneJsonSteps(live, due), changed: false };
    return { object: (yield* cloneJsonSteps(object, due)) as Obj, changed: true };
  }

  /**
   * The live object as its type reads it (already checked: structuredApply relies on it). Fields
   * the type lacks, which an object written before every write dropped them may still hold (a
   * `constructor` an inherited schema lookup once let through), are left out as upstream's typed
   * decoding of a stored object leaves them out; any other mismatch is the server's fault (500).
   */
  private *liveAsTyped(live: Obj, due: Due): Generator<void, Obj, void> {
    if ((yield* validateTypedSteps(live, this.cfg.type.atom, due)).length === 0) return live;
    const pruned = pruneUndeclared(live, this.cfg.type.atom) as Obj;
    yield* this.typed(pruned, 'live', due);
    return pruned;
  }

  // ObjectToTyped: the object must conform to its type.
  private *typed(obj: Obj, which: 'new' | 'live', due: Due): Generator<void, void, void> {
    const errs = yield* validateTypedSteps(obj, this.cfg.type.atom, due);
    if (errs.length > 0) throw internal(`failed to create typed ${which} object (${this.gvknn(obj)}): ${typedErrorsMessage(errs)}`);
  }

  // decodeLiveOrNew: a subresource write, a reset, or an empty or undecodable list in the
  // request all fall back to the live object's records (or none for a reset).
  private *decodeLiveOrNew(live: Obj, next: Obj, due: Due): Generator<void, Managed, void> {
    if (this.cfg.subresource === '') {
      const requested = metadataOf(next)?.managedFields;
      if (isResetManagedFields(requested)) return emptyManaged();
      const managed = yield* decodeOrNone(requested, due);
      if (managed !== undefined && managed.fields.size > 0) return managed;
    }
    return (yield* decodeOrNone(metadataOf(live)?.managedFields, due)) ?? emptyManaged();
  }

  private zero(): Obj {
    this.zeroObj ??= zeroObject(this.cfg.apiVersion, this.cfg.kind, this.cfg.type.atom, this.cfg.goZero) as Obj;
    return this.zeroObj;
  }

  private timestamp(): string {
    return stampOf(this.cfg.now());
  }

  // objectGVKNN: `namespace/name; group/version, Kind=kind`.
  private gvknn(obj: Obj): string {
    const meta = metadataOf(obj);
    return `${String(meta?.namespace ?? '')}/${String(meta?.name ?? '')}; ${gvkString(this.cfg.apiVersion, this.cfg.kind)}`;
  }
}

// The managers of managedFields, undefined when they do not decode.
function* decodeOrNone(entries: unknown, due: Due): Generator<void, Managed | undefined, void> {
  try {
    return yield* decodeManagedFieldsSteps(entries, due);
  } catch {
    return undefined;
  }
}

// The text depends on the second only, which the writes of a busy server mostly share.
let lastStamp = { second: Number.NaN, text: '' };

/** A managedFields time: RFC 3339 in UTC, whole seconds. */
function stampOf(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== lastStamp.second) lastStamp = { second, text: rfc3339(now) };
  return lastStamp.text;
}

/** schema.GroupVersionKind.String: `apps/v1, Kind=Deployment`, `/v1, Kind=ConfigMap`. */
function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const gv = slash < 0 ? `/${apiVersion}` : apiVersion;
  return `${gv}, Kind=${kind}`;
}

function metadataOf(obj: Obj): Record<string, unknown> | undefined {
  return isPlainObject(obj.metadata) ? (obj.metadata as Record<string, unknown>) : undefined;
}

function hasUid(obj: Obj): boolean {
  const uid = metadataOf(obj)?.uid;
  return typeof uid === 'string' && uid !== '';
}

function withoutManagedFields(obj: Obj): Obj {
  const meta = metadataOf(obj);
  if (meta === undefined || !('managedFields' in meta)) return obj;
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(meta)) if (key !== 'managedFields') setOwn(rest, key, meta[key]);
  return { ...obj, metadata: rest };
}

function setManagedFields(obj: Obj, entries: unknown[] | undefined): void {
  const meta = metadataOf(obj);
  if (entries === undefined) {
    if (meta !== undefined) delete meta.managedFields;
    return;
  }
  if (meta === undefined) obj.metadata = { managedFields: entries };
  else meta.managedFields = entries;
}
