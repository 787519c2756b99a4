/**
 * The generic resource store: create, get, update and delete of one resource type over the
 * Store, in upstream's order (defaults -> mutating admission -> prepare -> validate ->
 * validating admission -> write). Type-specific behaviour comes only from the definition's
 * strategy and behaviour flags.
 */
import { randomUUID } from 'node:crypto';
import type { Store, KeyValue, RangeOptions, RangeResult } from '../storage/interface.js';
import { StoreError } from '../storage/interface.js';
import type { Obj, ObjectMeta } from '../machinery/object.js';
import { isPlainObject, metaOf, rfc3339 } from '../machinery/object.js';
import { deepEqual } from '../machinery/deep-equal.js';
import {
  alreadyExists,
  tooLargeResourceVersion,
  badRequest,
  conflict,
  invalidObject,
  notFound,
  successStatus,
  StatusError,
  type FieldError,
  type Status,
} from '../machinery/status.js';
import { standardFinalizers, validateObjectMetaSteps, validateObjectMetaUpdateSteps, type ObjectMetaRules } from '../machinery/object-meta-validation.js';
import { generateName } from '../machinery/random-name.js';
import type { StrategyContext } from '../api/types.js';
import type { Brand } from '../machinery/brand.js';
import { objectKey, subresourceOf, type ResourceInfo } from './resource-info.js';
import { decodeFromStorage, decodeFromStorageInSteps, encodeForStorage, encodeForStorageSteps } from './object-codec.js';
import { inGoOrder } from '../machinery/object-order.js';
import { Cacher, type CacherOptions } from '../storage/cacher/cacher.js';
import type { CacheEntry, ToEntry } from '../storage/cacher/types.js';
import { entryEncoder, entryObject, noteWritten, noteWrittenSteps } from './cache-entry.js';
import { Pace, runPaced } from '../machinery/pace.js';
import { deepEqualSteps } from '../machinery/json-steps.js';
import { cloneJsonSteps } from '../apply/clone.js';
import { type ReadPlan, servedByCache } from './read-options.js';
import { toStatusError } from './storage-errors.js';
import type { DeleteOptions, RequestContext, UpdateOptions, WriteOptions } from './context.js';
import { finalizersForPropagation } from './deletion-propagation.js';
import { pendingFinalizers, prepareForDeletion } from './finalization.js';
import { ownValue } from '../machinery/own-property.js';

/** How many names generateName tries before giving up, as upstream's retry on collision. */
const GENERATE_NAME_ATTEMPTS = 8;

/** How long a read waits for a resourceVersion the server has not reached (upstream: 3 s). */
const TOO_LARGE_RV_WAIT_MS = 3000;

/**
 * A write's new object from the current one. An update with `createIfMissing` also calls it
 * with undefined when the object does not exist (upstream's UpdatedObject of nothing).
 */
export type UpdateTransform = (current: Obj) => Obj | Promise<Obj>;

export interface UpdateResult {
  obj: Obj;
  created: boolean;
}
export type DeleteResult = { removed: true; status: Status; obj: Obj } | { removed: false; obj: Obj };

/** The object a read-modify-write attempt decides on, and the revision its write compares against. */
interface CurrentState {
  obj: Obj;
  modRevision: number;
  /** From the watch cache, not read from the store: it may be behind. */
  cached: boolean;
  /** The attempt wrote (the store checked modRevision, so the state was current). */
  wrote: boolean;
}

export class GenericStore {
  private readonly metaRules: ObjectMetaRules;
  private readonly cacher: Cacher | undefined;
  /** Encodes a stored key-value as a cache entry (served JSON + selector attributes). */
  readonly toEntry: ToEntry;

  constructor(
    readonly info: ResourceInfo,
    private readonly store: Store,
    readonly brand: Brand,
    cacheOptions: CacherOptions = {},
  ) {
    this.metaRules = {
      namespaced: info.namespaced,
      nameRule: info.def.nameRule,
      standardFinalizers: info.def.behaviour?.anyFinalizerNames ? undefined : standardFinalizers(brand),
    };
    this.toEntry = entryEncoder(info, (kv) => this.decode(kv));
    this.cacher = info.def.virtual ? undefined : new Cacher(store, info.keyPrefix, this.toEntry, cacheOptions);
  }

  private key(namespace: string, name: string): string {
    return objectKey(this.info, this.info.namespaced ? namespace : '', name);
  }

  private strategyContext(ctx: RequestContext, subresource = ''): StrategyContext {
    return { brand: ctx.brand, now: ctx.now, subresource, user: ctx.user };
  }

  /** Decodes a stored key-value into the served object. */
  decode(kv: KeyValue): Obj {
    return decodeFromStorage(this.info, kv, this.brand);
  }

  /** Encodes obj and runs one store write with its bytes (whose cache entry takes obj's selector attributes). */
  private write(key: string, obj: Obj, op: (key: string, bytes: Uint8Array) => Promise<number>, pace: Pace | undefined): Promise<number> {
    if (pace?.paused) return this.writeHeavy(key, obj, op, pace);
    const bytes = encodeForStorage(this.info, obj, this.brand);
    if (this.info.conversion === undefined) noteWritten(this.info, bytes, obj);
    return op(key, bytes);
  }

  /** write for a request that has paused (a heavy one): encoding and noting in steps. */
  private async writeHeavy(key: string, obj: Obj, op: (key: string, bytes: Uint8Array) => Promise<number>, pace: Pace): Promise<number> {
    const bytes = await runPaced((due) => encodeForStorageSteps(this.info, obj, this.brand, due), pace);
    if (this.info.conversion === undefined) await runPaced((due) => noteWrittenSteps(this.info, bytes, obj, due), pace);
    if (pace.due()) await pace.yield();
    return op(key, bytes);
  }

  /** obj as a write answers it: at revision rev (absent: a dry run), in the order reads serve it. */
  private served(obj: Obj, rev?: number): Obj {
    if (rev !== undefined) metaOf(obj).resourceVersion = String(rev);
    return this.info.def.storagePrefix === undefined ? inGoOrder(obj) : obj;
  }

  /** The served bytes (compact JSON) of the object at exactly this revision, when the cache has them. */
  encodedAt(namespace: string, name: string, revision: number): Buffer | undefined {
    const entry = this.cacher?.get(this.key(namespace, name));
    return entry !== undefined && entry.modRevision === revision ? entry.json : undefined;
  }

  /** Starts the watch cache (lists the store, then follows it). */
  async startCache(): Promise<void> {
    await this.cacher?.start();
  }

  stopCache(): void {
    this.cacher?.stop();
  }

  /** The watch cache; absent for virtual resources. */
  get cache(): Cacher | undefined {
    return this.cacher;
  }

  /** The revision reads are served at: the cache's when there is one, else the store's. */
  currentRevision(): number {
    return this.cacher ? this.cacher.currentRevision() : this.store.currentRevision();
  }

  /** Waits until the cache reflects `revision`; 504 Too large resource version after 3 s. */
  async waitForRevision(revision: number): Promise<void> {
    if (!this.cacher) {
      if (revision > this.store.currentRevision()) throw tooLargeResourceVersion(revision, this.store.currentRevision());
      return;
    }
    if (!(await this.cacher.waitFor(revision, TOO_LARGE_RV_WAIT_MS))) throw tooLargeResourceVersion(revision, this.cacher.currentRevision());
  }

  /** The watch cache's entry for the object, when the cache holds it (any age): a read without a turn of the event loop. */
  cachedEntry(namespace: string, name: string): CacheEntry | undefined {
    return this.cacher?.get(this.key(namespace, name));
  }

  /**
   * One object's cache entry under a Get-table plan; 404 (a rejection) when it does not exist.
   * An entry the watch cache holds is answered as it is, not in a promise: most GETs.
   */
  readEntry(namespace: string, name: string, plan: ReadPlan): CacheEntry | Promise<CacheEntry> {
    const key = this.key(namespace, name);
    if (plan.kind === 'notOlderThan') return this.waitForRevision(plan.revision).then(() => this.readEntryAt(key, name, plan));
    return this.readEntryAt(key, name, plan);
  }

  private readEntryAt(key: string, name: string, plan: ReadPlan): CacheEntry | Promise<CacheEntry> {
    if (this.cacher !== undefined && servedByCache(plan, this.cacher)) {
      const cached = this.cacher.get(key);
      return cached ?? Promise.reject(notFound(this.info.groupResource, name));
    }
    return this.store
      .get(key)
      .catch((e) => toStatusError(e, this.info.groupResource, name))
      .then((kv) => {
        if (!kv) throw notFound(this.info.groupResource, name);
        return this.toEntry(kv, kv.modRevision);
      });
  }

  /** A range read on the store (for paginated and exact lists). */
  storeRange(prefix: string, opts: RangeOptions): Promise<RangeResult> {
    return this.store.range(prefix, opts);
  }

  private invalid(name: string, errs: FieldError[]): StatusError {
    return invalidObject(this.info.kind, this.info.group, name, errs);
  }

  /** Creates obj in namespace; the returned object carries its resourceVersion (empty on dry-run). */
  async create(ctx: RequestContext, namespace: string, obj: Obj, opts: WriteOptions): Promise<Obj> {
    const meta = metaOf(obj);
    if (this.info.namespaced) {
      if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== namespace) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      meta.namespace = namespace;
    } else {
      delete meta.namespace;
    }
    this.info.def.strategy?.defaults?.(obj, this.strategyContext(ctx));
    // Upstream's handler sees the object as decoded into its Go type, zero-valued structs and all.
    this.info.goFields?.fill(obj);
    const tracked = opts.track?.(obj, undefined);
    if (tracked instanceof Promise) await tracked;
    const { pace } = ctx;
    if (pace?.due()) await pace.yield();
    await opts.mutatingAdmission?.(obj, undefined);
    this.prepareServerFields(meta, ctx.now);
    // What only subresources write (status) starts empty, unless the type keeps it (Node).
    if (!this.info.def.behaviour?.keepStatusOnCreate)
      for (const sub of this.info.subresources) if (sub.keptOnMainWrite) for (const path of sub.owns) copyPath(obj, {}, path);
    if (this.info.def.behaviour?.generation) meta.generation = 1;
    // The name is generated before prepareForCreate, so a strategy can use it (a Job's job-name label).
    const generating = (meta.name === undefined || meta.name === '') && typeof meta.generateName === 'string' && meta.generateName !== '';
    if (generating) meta.name = generateName(meta.generateName as string);
    this.info.def.strategy?.prepareForCreate?.(obj, this.strategyContext(ctx));
    // What the registry reset (status) is written back as Go writes it, as stored objects are served.
    this.info.goFields?.fill(obj);
    if (pace?.due()) await pace.yield();

    const metaErrs = runPaced((due) => validateObjectMetaSteps(meta, this.metaRules, due), pace);
    const errs = [...(metaErrs instanceof Promise ? await metaErrs : metaErrs), ...(this.info.def.strategy?.validate?.(obj, this.strategyContext(ctx)) ?? [])];
    if (errs.length > 0) throw this.invalid(meta.name ?? '', errs);
    await opts.validatingAdmission?.(obj, undefined);
    if (pace?.due()) await pace.yield();
    if (opts.dryRun) {
      // A dry run answers what the write would: AlreadyExists for a taken name (upstream's DryRunnableStorage).
      const existing = await this.store
        .get(this.key(namespace, meta.name as string))
        .catch((e) => toStatusError(e, this.info.groupResource, meta.name as string));
      if (existing) throw alreadyExists(this.info.groupResource, meta.name as string);
      return this.served(obj);
    }

    for (let attempt = 1; ; attempt++) {
      try {
        const rev = await this.write(this.key(namespace, meta.name as string), obj, (key, bytes) => this.store.create(key, bytes), ctx.pace);
        return this.served(obj, rev);
      } catch (e) {
        if (generating && e instanceof StoreError && e.code === 'KeyExists' && attempt < GENERATE_NAME_ATTEMPTS) {
          meta.name = generateName(meta.generateName as string);
          continue;
        }
        toStatusError(e, this.info.groupResource, meta.name as string);
      }
    }
  }

  /** Clears what only the server sets and sets uid and creationTimestamp. */
  private prepareServerFields(meta: ObjectMeta, now: Date): void {
    meta.uid = randomUUID();
    meta.creationTimestamp = rfc3339(now);
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.generation;
    delete meta.selfLink;
  }

  /**
   * The one retry-on-conflict loop of every read-modify-write (upstream's GuaranteedUpdate):
   * let `attempt` decide on the current object and write against its modRevision; a write that
   * lost the race (Conflict) runs again on the value the store answered the Conflict with.
   * 404 when the key is absent.
   *
   * On a remote store the first attempt runs on the watch cache's copy, as upstream's cacher
   * passes it down, so a write is one etcd transaction instead of a read and a transaction.
   * That copy may be behind: an attempt on it that failed, or that wrote nothing, is checked
   * against a read of the store and runs again when the store's object is newer. `simple` (a
   * simple update) starts from the cache's copy on a local store too.
   *
   * Every attempt gets a state of its own (a fresh parse or decode), so it may change cur.obj.
   */
  private async retryOnConflict<T>(key: string, name: string, attempt: (cur: CurrentState) => Promise<T>, simple = false): Promise<T> {
    const read = async (): Promise<CurrentState> => {
      const kv = await this.store.get(key).catch((e) => toStatusError(e, this.info.groupResource, name));
      if (!kv) throw notFound(this.info.groupResource, name);
      return this.stateInSteps(kv);
    };
    let cur = this.cachedState(key, simple) ?? (await read());
    for (;;) {
      let result: T;
      try {
        result = await attempt(cur);
      } catch (e) {
        if (e instanceof StoreError && e.code === 'Conflict') {
          cur = e.current ? await this.stateInSteps(e.current) : await read();
          continue;
        }
        if (e instanceof StoreError && e.code === 'KeyNotFound') throw notFound(this.info.groupResource, name);
        if (cur.cached && !(e instanceof StoreError)) {
          const fresh = await read();
          if (fresh.modRevision !== cur.modRevision) {
            cur = fresh;
            continue;
          }
        }
        toStatusError(e, this.info.groupResource, name);
      }
      if (!cur.cached || cur.wrote) return result;
      const fresh = await read();
      if (fresh.modRevision === cur.modRevision) return result;
      cur = fresh;
    }
  }

  /** The state a read-modify-write starts from, decoded from a stored key-value (a large one in steps). */
  private async stateInSteps(kv: KeyValue): Promise<CurrentState> {
    return { obj: await decodeFromStorageInSteps(this.info, kv, this.brand), modRevision: kv.modRevision, cached: false, wrote: false };
  }

  /**
   * The watch cache's copy of key as a starting state: on a remote store, or for a simple update
   * (a local store's read and decode cost about what parsing the cached copy does, and the
   * generic update path decodes anyway). A simple update only encodes the object, which puts it
   * in storage order, so its copy keeps the served order.
   */
  private cachedState(key: string, simple: boolean): CurrentState | undefined {
    if (!this.store.remote && !simple) return undefined;
    const entry = this.cacher?.get(key);
    if (entry === undefined) return undefined;
    const obj = entryObject(entry);
    return { obj: simple ? obj : this.decodedOrder(obj), modRevision: entry.modRevision, cached: true, wrote: false };
  }

  /** A served object (parsed from a cache entry) in the key order decode() gives it. */
  private decodedOrder(obj: Obj): Obj {
    // Built-in objects decode in Go's order; custom resources keep their stored layout, with
    // resourceVersion (never stored) added last.
    if (this.info.def.storagePrefix === undefined) return inGoOrder(obj);
    const { resourceVersion, ...meta } = metaOf(obj);
    obj.metadata = { ...meta, resourceVersion };
    return obj;
  }

  /** Writes obj over the state it was decided on (Conflict when the key moved since). */
  private writeOver(key: string, cur: CurrentState, obj: Obj, pace?: Pace): Promise<number> {
    cur.wrote = true;
    return this.write(key, obj, (k, bytes) => this.store.update(k, bytes, cur.modRevision), pace);
  }

  /** Deletes the key in the state a decision was taken on (Conflict when the key moved since). */
  private deleteOver(key: string, cur: CurrentState): Promise<number> {
    cur.wrote = true;
    return this.store.delete(key, cur.modRevision);
  }

  /**
   * Read-modify-write of one object: transform the current object, validate, and
   * compare-and-swap; retried when another writer got there first (unless the
   * transform pinned a resourceVersion, which then gives 409 Conflict). With
   * `createIfMissing`, a missing object is created from the transform of nothing
   * (upstream's create-on-update), and a create that lost the race updates the winner's.
   */
  async guaranteedUpdate(ctx: RequestContext, namespace: string, name: string, transform: UpdateTransform, opts: UpdateOptions): Promise<UpdateResult> {
    const create = opts.subresource === '' ? opts.createIfMissing : undefined;
    for (;;) {
      try {
        return await this.updateExisting(ctx, namespace, name, transform, opts);
      } catch (e) {
        if (create === undefined || !(e instanceof StatusError && e.code === 404)) throw e;
      }
      try {
        const obj = await (transform as (current: Obj | undefined) => Obj | Promise<Obj>)(undefined);
        const uid = isPlainObject(obj.metadata) ? obj.metadata.uid : undefined;
        if (typeof uid === 'string' && uid !== '') {
          throw conflict(this.info.groupResource, name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
        }
        const created = await this.create(ctx, namespace, obj, { dryRun: opts.dryRun, track: opts.track, ...create });
        return { obj: created, created: true };
      } catch (e) {
        // Another writer created it first: update theirs.
        if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
      }
    }
  }

  private updateExisting(ctx: RequestContext, namespace: string, name: string, transform: UpdateTransform, opts: UpdateOptions): Promise<UpdateResult> {
    const key = this.key(namespace, name);
    const { pace } = ctx;
    return this.retryOnConflict(key, name, async (cur) => {
      const current = cur.obj;
      if (pace?.due()) await pace.yield();
      const copying = cloneObject(current, pace);
      const copy = copying instanceof Promise ? await copying : copying;
      if (pace?.due()) await pace.yield();
      const proposed = await transform(copy);
      if (pace?.due()) await pace.yield();
      const next = await this.prepareUpdate(ctx, namespace, name, proposed, current, opts);
      await opts.validatingAdmission?.(next, current);
      if (pace?.due()) await pace.yield();
      const same = pace?.paused ? await runPaced((due) => deepEqualSteps(next, current, due), pace) : deepEqual(next, current);
      if (pace?.due()) await pace.yield();
      if (same) return { obj: current, created: false };
      if (opts.dryRun) return { obj: this.served(next), created: false };
      const nextMeta = metaOf(next);
      if (nextMeta.deletionTimestamp !== undefined && pendingFinalizers(this.info, next).length === 0) {
        // The last finalizer of a deleting object was removed: the update completes the deletion.
        await this.deleteOver(key, cur);
        return { obj: next, created: false };
      }
      const rev = await this.writeOver(key, cur, next, pace);
      return { obj: this.served(next, rev), created: false };
    });
  }

  /**
   * Upstream's GuaranteedUpdate with a SimpleUpdate function, as BindingREST runs it: `mutate`
   * changes the current object in place (or throws), and the result is written with a
   * compare-and-swap, with no strategy, admission, field tracking or validation of the object.
   * It starts from the watch cache's copy, as upstream's cacher passes it down, and retries
   * from the store on a conflict or when that copy proves stale. `mutate` must change the
   * object (a binding always does): nothing compares before the write. Resolves to the new
   * revision, or undefined on a dry run (checked, nothing written).
   */
  simpleUpdate(namespace: string, name: string, mutate: (current: Obj) => void, dryRun: boolean): Promise<number | undefined> {
    const key = this.key(namespace, name);
    return this.retryOnConflict(
      key,
      name,
      async (cur) => {
        mutate(cur.obj);
        if (dryRun) return undefined;
        return this.writeOver(key, cur, cur.obj);
      },
      true,
    );
  }

  /** Applies the update rules to a proposed object: precondition, server fields, status split, validation. */
  private async prepareUpdate(ctx: RequestContext, namespace: string, name: string, proposed: Obj, current: Obj, opts: UpdateOptions): Promise<Obj> {
    const { subresource } = opts;
    if (!isPlainObject(proposed)) throw badRequest('the body of the request must be an object');
    const meta = metaOf(proposed);
    const curMeta = metaOf(current);
    if (meta.name !== undefined && meta.name !== '' && meta.name !== name) {
      throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
    }
    if (this.info.namespaced && meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (meta.resourceVersion !== undefined && meta.resourceVersion !== '' && meta.resourceVersion !== curMeta.resourceVersion) {
      throw conflict(this.info.groupResource, name, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    // A uid in the body is a precondition, as upstream's update: a copy of a deleted and
    // recreated object must not overwrite its successor.
    if (typeof meta.uid === 'string' && meta.uid !== '' && meta.uid !== curMeta.uid) {
      throw conflict(this.info.groupResource, name, `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${curMeta.uid ?? ''}`);
    }
    const sctx = this.strategyContext(ctx, subresource);
    this.info.def.strategy?.defaults?.(proposed, sctx);
    this.info.goFields?.fill(proposed);
    const tracked = opts.track?.(proposed, current);
    if (tracked instanceof Promise) await tracked;
    const { pace } = ctx;
    if (pace?.due()) await pace.yield();
    await opts.mutatingAdmission?.(proposed, current);
    let next: Obj;
    const declared = subresource === '' ? undefined : subresourceOf(this.info, subresource);
    if (subresource !== '' && declared === undefined) throw new Error(`${this.info.plural} has no subresource ${subresource}`);
    if (declared !== undefined) {
      // A subresource write changes only the fields it owns (upstream's ResetObjectMetaForStatus
      // plus spec reset for status; spec.finalizers for namespaces/finalize).
      const copying = cloneObject(current, pace);
      next = copying instanceof Promise ? await copying : copying;
      for (const path of declared.owns) copyPath(next, proposed, path);
      // The ownership records of the write, which the field manager kept on the proposed object.
      copyPath(next, proposed, ['metadata', 'managedFields']);
    } else {
      next = proposed;
      // A main-resource write keeps what its subresources own (status) as stored.
      for (const sub of this.info.subresources) if (sub.keptOnMainWrite) for (const path of sub.owns) copyPath(next, current, path);
    }
    const nextMeta = metaOf(next);
    nextMeta.name = name;
    if (this.info.namespaced) nextMeta.namespace = namespace;
    else delete nextMeta.namespace;
    // Server-owned fields carry over from the stored object whatever the client sent.
    nextMeta.uid = curMeta.uid;
    nextMeta.creationTimestamp = curMeta.creationTimestamp;
    copyOrDelete(nextMeta, curMeta, 'deletionTimestamp');
    copyOrDelete(nextMeta, curMeta, 'deletionGracePeriodSeconds');
    copyOrDelete(nextMeta, curMeta, 'generation');
    nextMeta.resourceVersion = curMeta.resourceVersion;
    if (curMeta.generateName !== undefined && nextMeta.generateName === undefined) nextMeta.generateName = curMeta.generateName;
    this.info.def.strategy?.prepareForUpdate?.(next, current, sctx);
    this.info.goFields?.fill(next);
    if (pace?.due()) await pace.yield();
    if (this.info.def.behaviour?.generation && subresource === '' && specChanged(next, current)) {
      nextMeta.generation = (curMeta.generation ?? 0) + 1;
    }
    // As upstream, an update runs the type's update validation only (which includes its own create rules).
    const strategy = this.info.def.strategy;
    const rules = this.metaRules;
    const metaErrs = runPaced(function* (due) {
      return [...(yield* validateObjectMetaSteps(nextMeta, rules, due)), ...(yield* validateObjectMetaUpdateSteps(nextMeta, curMeta, rules, due))];
    }, pace);
    const errs = [
      ...(metaErrs instanceof Promise ? await metaErrs : metaErrs),
      ...(strategy?.validateUpdate ? strategy.validateUpdate(next, current, sctx) : (strategy?.validate?.(next, sctx) ?? [])),
    ];
    if (errs.length > 0) throw this.invalid(name, errs);
    return next;
  }

  /**
   * Deletes one object in two phases: an object with finalizers is marked deleting and
   * returned; one without is removed and a Success Status returned.
   */
  async delete(ctx: RequestContext, namespace: string, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const key = this.key(namespace, name);
    return this.retryOnConflict<DeleteResult>(key, name, async (cur) => {
      const current = cur.obj;
      const meta = metaOf(current);
      checkPreconditions(this.info, name, meta, opts.preconditions);
      await opts.validatingAdmission?.(current, current);
      const gcFinalizers = finalizersForPropagation(meta.finalizers ?? [], opts.propagationPolicy, this.info.def.strategy?.orphanDependentsByDefault);
      if (meta.deletionTimestamp !== undefined && pendingFinalizers(this.info, current).length > 0) {
        // A second delete of a deleting object may still change how its dependents go (upstream does too).
        if (gcFinalizers === undefined || opts.dryRun) return { removed: false, obj: current };
        const changed = await cloneObject(current, ctx.pace);
        setFinalizers(metaOf(changed), gcFinalizers);
        const rev = await this.writeOver(key, cur, changed);
        return { removed: false, obj: this.served(changed, rev) };
      }
      const copying = cloneObject(current, ctx.pace);
      const candidate = copying instanceof Promise ? await copying : copying;
      if (gcFinalizers !== undefined) setFinalizers(metaOf(candidate), gcFinalizers);
      const marked = prepareForDeletion(this.info, candidate, ctx.now);
      if (marked !== undefined) {
        if (opts.dryRun) return { removed: false, obj: this.served(marked) };
        const rev = await this.writeOver(key, cur, marked);
        return { removed: false, obj: this.served(marked, rev) };
      }
      const status = successStatus({ name, ...(this.info.group === '' ? {} : { group: this.info.group }), kind: this.info.plural, uid: meta.uid });
      if (opts.dryRun) return { removed: true, status, obj: current };
      await this.deleteOver(key, cur);
      return { removed: true, status, obj: current };
    });
  }
}

/**
 * A deep copy of a stored object to change, in steps that pause when the request's pace is due
 * (a map of 120,000 labels took 80-240 ms in one structuredClone); a pod's copy is done at once
 * and, at ~2 us, faster than structuredClone's ~10.
 */
function cloneObject(obj: Obj, pace: Pace | undefined): Obj | Promise<Obj> {
  // A write from inside the server (a controller's) has no request pace: it gets one of its own.
  return runPaced((due) => cloneJsonSteps(obj, due), pace ?? new Pace());
}

function setFinalizers(meta: ObjectMeta, finalizers: string[]): void {
  if (finalizers.length === 0) delete meta.finalizers;
  else meta.finalizers = finalizers;
}

/** Sets target's value at path to source's, deleting it when absent or an empty list (Go's omitempty). */
function copyPath(target: Record<string, unknown>, source: Record<string, unknown>, path: readonly string[]): void {
  let from: unknown = source;
  for (const part of path) from = isPlainObject(from) ? from[part] : undefined;
  let into = target;
  for (const part of path.slice(0, -1)) {
    if (!isPlainObject(into[part])) into[part] = {};
    into = into[part] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (from === undefined || (Array.isArray(from) && from.length === 0)) delete into[last];
  else into[last] = from;
}

function copyOrDelete(target: ObjectMeta, source: ObjectMeta, field: keyof ObjectMeta): void {
  if (source[field] === undefined) delete target[field];
  else target[field] = source[field];
}

/** True when anything outside metadata and status differs (what bumps metadata.generation). */
function specChanged(next: Obj, current: Obj): boolean {
  for (const k of new Set([...Object.keys(next), ...Object.keys(current)])) {
    if (k === 'metadata' || k === 'status' || k === 'apiVersion' || k === 'kind') continue;
    if (!deepEqual(ownValue(next, k), ownValue(current, k))) return true;
  }
  return false;
}

function checkPreconditions(info: ResourceInfo, name: string, meta: ObjectMeta, pre: DeleteOptions['preconditions']): void {
  if (!pre) return;
  if (pre.uid !== undefined && pre.uid !== meta.uid) {
    throw conflict(info.groupResource, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
    throw conflict(
      info.groupResource,
      name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
    );
  }
}
