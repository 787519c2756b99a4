/**
 * The APF configuration controller (upstream's apf_controller, the `priority-and-fairness-config-
 * consumer`): follows FlowSchemas and PriorityLevelConfigurations through the server's own watch
 * caches and, after each change, rebuilds the digested configuration the filter reads: the
 * schemas compiled and sorted, each level's seats and queues (a level's QueueSet survives a
 * reconfiguration, so waiting requests keep their place). FlowSchemas naming a missing level are
 * ignored for matching and get the `Dangling` status condition, as upstream sets it. Missing
 * mandatory objects are imagined from the bootstrap configuration until the producer restores them.
 */
import { isPlainObject, metaOf, type Obj, rfc3339 } from '../../machinery/object.js';
import { StatusError } from '../../machinery/status.js';
import type { UserInfo } from '../../machinery/user.js';
import { systemContext } from '../../registry/bootstrap.js';
import { entryObject } from '../../registry/cache-entry.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { Registry } from '../../registry/registry.js';
import type { RequestInfo } from '../request-info.js';
import { bootstrapConfiguration, CATCH_ALL, EXEMPT } from './bootstrap-objects.js';
import { byPrecedence, type CompiledFlowSchema, compileFlowSchema, type Predicate } from './classifier.js';
import { type FlowControlMetrics, type FlowMetrics, flowMetrics } from './metrics.js';
import { concurrencyLimits, type PriorityLevelSpec, priorityLevelSpec } from './priority-levels.js';
import { QueueSet } from './queue-set.js';

/** A priority level as the filter uses it. */
export interface PriorityLevel {
  readonly spec: PriorityLevelSpec;
  /** Absent for exempt levels: they never wait. */
  readonly queueSet: QueueSet | undefined;
}

/** A request's classification: the schema, its level, and the metrics children of the pair. */
export interface Classification {
  flowSchema: CompiledFlowSchema;
  priorityLevel: PriorityLevel;
  metrics: FlowMetrics | undefined;
}

export interface FlowControlOptions {
  /** --max-requests-inflight + --max-mutating-requests-inflight (upstream's server concurrency limit). */
  serverConcurrencyLimit: number;
  /** How long a request may wait in a queue (upstream: a quarter of --request-timeout). */
  requestWaitLimitMs: number;
  metrics?: FlowControlMetrics;
  now?: () => number;
}

/** The digested configuration: one ready Classification per usable schema, in matching order. */
interface Digest {
  schemas: Classification[];
  levels: Map<string, PriorityLevel>;
  catchAll: Classification;
}

/** The schemas whose subjects name a user (same name, same groups), with what each asks of the request. */
interface UserCandidates {
  groups: string[];
  candidates: { classification: Classification; targets: Predicate<RequestInfo> }[];
}

/** Users whose candidates are kept; past this the cache starts again (a bound on memory, not on correctness). */
const USER_CACHE_LIMIT = 10_000;

function sameGroups(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Upstream's Dangling condition for a schema whose level exists (false) or not (true). */
function danglingCondition(level: string, dangling: boolean): { status: string; reason: string; message: string } {
  return dangling
    ? {
        status: 'True',
        reason: 'NotFound',
        message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" but there is no such object`,
      }
    : { status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" and it exists` };
}

export class FlowControl {
  readonly requestWaitLimitMs: number;
  private digest: Digest;
  private readonly now: () => number;
  private readonly levelStates = new Map<string, PriorityLevel>();
  private readonly pairMetrics = new Map<string, FlowMetrics>();
  private users = new Map<string, UserCandidates>();
  private readonly mandatory: { exemptLevel: Obj; catchAllLevel: Obj; exemptSchema: Obj; catchAllSchema: Obj };
  private unlisten: (() => void)[] = [];
  private rebuildScheduled = false;
  private statusWrites: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: Registry,
    private readonly opts: FlowControlOptions,
  ) {
    this.now = opts.now ?? (() => performance.now());
    this.requestWaitLimitMs = opts.requestWaitLimitMs;
    const boot = bootstrapConfiguration(registry.brand);
    const named = (objs: Obj[], name: string) => objs.find((o) => metaOf(o).name === name) as Obj;
    this.mandatory = {
      exemptLevel: named(boot.mandatoryPriorityLevels, EXEMPT),
      catchAllLevel: named(boot.mandatoryPriorityLevels, CATCH_ALL),
      exemptSchema: named(boot.mandatoryFlowSchemas, EXEMPT),
      catchAllSchema: named(boot.mandatoryFlowSchemas, CATCH_ALL),
    };
    this.digest = this.build([], []);
  }

  private store(resource: string): GenericStore | undefined {
    return this.registry.byResource(this.registry.brand.group('flowcontrol.apiserver', true), resource);
  }

  /**
   * Follows both caches and digests what they hold now (upstream's config-consumer hook is done
   * when this returns). With the flowcontrol API switched off (`--runtime-config`) there is
   * nothing to follow: the imagined mandatory levels serve (upstream would never become ready).
   */
  start(): void {
    for (const resource of ['flowschemas', 'prioritylevelconfigurations']) {
      const cache = this.store(resource)?.cache;
      if (!cache) continue;
      this.unlisten.push(
        cache.listen(() => {
          this.scheduleRebuild();
          return true;
        }),
        // A cache refilled after its store watch failed may have missed events.
        cache.onRelist(() => this.scheduleRebuild()),
      );
    }
    this.rebuild();
  }

  stop(): void {
    for (const u of this.unlisten) u();
    this.unlisten = [];
  }

  /** Resolves once the status writes started so far are done (for tests). */
  settled(): Promise<void> {
    return this.statusWrites;
  }

  /** Several events in one turn (a bootstrap round) make one rebuild. */
  private scheduleRebuild(): void {
    if (this.rebuildScheduled) return;
    this.rebuildScheduled = true;
    setImmediate(() => {
      this.rebuildScheduled = false;
      this.rebuild();
    });
  }

  private rebuild(): void {
    if (this.unlisten.length === 0) return;
    const list = (resource: string) => (this.store(resource)?.cache?.list() ?? []).map((e) => entryObject(e));
    const schemas = list('flowschemas');
    this.configure(schemas, list('prioritylevelconfigurations'));
    this.updateDangling(schemas);
  }

  /** Serves from these objects from now on (what the caches hold; a benchmark's or test's own). */
  configure(flowSchemas: Obj[], priorityLevels: Obj[]): void {
    this.digest = this.build(flowSchemas, priorityLevels);
    this.users = new Map();
  }

  private build(schemaObjs: Obj[], levelObjs: Obj[]): Digest {
    const specs = levelObjs.map(priorityLevelSpec);
    // Upstream imagines missing mandatory levels so classification always has somewhere to go.
    for (const [name, obj] of [
      [EXEMPT, this.mandatory.exemptLevel],
      [CATCH_ALL, this.mandatory.catchAllLevel],
    ] as const) {
      if (!specs.some((s) => s.name === name)) specs.push(priorityLevelSpec(obj));
    }
    const limits = concurrencyLimits(specs, this.opts.serverConcurrencyLimit);
    const levels = new Map<string, PriorityLevel>();
    for (const spec of specs) levels.set(spec.name, this.levelState(spec, limits.get(spec.name) ?? 0));
    for (const name of this.levelStates.keys()) if (!levels.has(name)) this.levelStates.delete(name);

    const compiled = schemaObjs.map(compileFlowSchema);
    if (!compiled.some((s) => s.name === EXEMPT)) compiled.push(compileFlowSchema(this.mandatory.exemptSchema));
    const catchAllSchema = compiled.find((s) => s.name === CATCH_ALL) ?? compileFlowSchema(this.mandatory.catchAllSchema);
    if (!compiled.includes(catchAllSchema)) compiled.push(catchAllSchema);
    const schemas = compiled
      .filter((s) => levels.has(s.priorityLevel))
      .sort(byPrecedence)
      .map((fs) => this.classification(fs, levels.get(fs.priorityLevel) as PriorityLevel));
    // Upstream's fallback when nothing matches: the mandatory catch-all, whatever its stored schema says.
    const catchAll = this.classification(catchAllSchema, levels.get(CATCH_ALL) as PriorityLevel);
    return { schemas, levels, catchAll };
  }

  /** The level's state, kept across reconfigurations (its QueueSet reconfigured in place). */
  private levelState(spec: PriorityLevelSpec, limit: number): PriorityLevel {
    const old = this.levelStates.get(spec.name);
    const config = { concurrencyLimit: limit, queues: spec.queues, handSize: spec.handSize, queueLengthLimit: spec.queueLengthLimit };
    let queueSet = spec.exempt ? undefined : old?.queueSet;
    if (queueSet) queueSet.reconfigure(config);
    else if (!spec.exempt) queueSet = new QueueSet(config, this.now);
    const state: PriorityLevel = { spec, queueSet };
    this.levelStates.set(spec.name, state);
    if (!spec.exempt) this.opts.metrics?.concurrencyLimit.set([spec.name], limit);
    return state;
  }

  /**
   * The first schema, in precedence order, matching the request; the catch-all when none does.
   * The schemas naming the user are worked out on the user's first request, so a request only
   * checks its target against those (no allocation when the user is known).
   */
  classify(user: UserInfo, info: RequestInfo): Classification {
    let known = this.users.get(user.name);
    if (known === undefined || !sameGroups(known.groups, user.groups)) {
      known = this.candidatesOf(user);
      if (this.users.size >= USER_CACHE_LIMIT) this.users.clear();
      this.users.set(user.name, known);
    }
    const candidates = known.candidates;
    for (let i = 0; i < candidates.length; i++) if (candidates[i].targets(info)) return candidates[i].classification;
    return this.digest.catchAll;
  }

  private candidatesOf(user: UserInfo): UserCandidates {
    const candidates: UserCandidates['candidates'] = [];
    for (const classification of this.digest.schemas) {
      const targets = classification.flowSchema.targetsFor(user);
      if (targets) candidates.push({ classification, targets });
    }
    return { groups: [...user.groups], candidates };
  }

  /** A schema with its level and the pair's metrics children (kept across rebuilds). */
  private classification(flowSchema: CompiledFlowSchema, priorityLevel: PriorityLevel): Classification {
    const m = this.opts.metrics;
    if (!m) return { flowSchema, priorityLevel, metrics: undefined };
    const key = `${priorityLevel.spec.name}\0${flowSchema.name}`;
    let metrics = this.pairMetrics.get(key);
    if (!metrics) {
      metrics = flowMetrics(m, priorityLevel.spec.name, flowSchema.name);
      this.pairMetrics.set(key, metrics);
    }
    return { flowSchema, priorityLevel, metrics };
  }

  /** Writes the Dangling condition of each stored schema whose condition is not already what it should be. */
  private updateDangling(schemas: Obj[]): void {
    const levels = this.digest.levels;
    for (const fs of schemas) {
      const meta = metaOf(fs);
      const level = String((isPlainObject(fs.spec) && isPlainObject(fs.spec.priorityLevelConfiguration) ? fs.spec.priorityLevelConfiguration.name : '') ?? '');
      const want = danglingCondition(level, !levels.has(level));
      if (conditionIs(fs, want)) continue;
      const name = meta.name ?? '';
      this.statusWrites = this.statusWrites.then(() => this.writeDangling(name, level, want)).catch(() => {});
    }
  }

  private async writeDangling(name: string, level: string, want: ReturnType<typeof danglingCondition>): Promise<void> {
    const store = this.store('flowschemas');
    if (!store) return;
    const ctx = systemContext(this.registry);
    await store
      .guaranteedUpdate(
        ctx,
        '',
        name,
        (live) => {
          if (conditionIs(live, want)) throw UNCHANGED;
          const liveLevel = isPlainObject(live.spec) && isPlainObject(live.spec.priorityLevelConfiguration) ? live.spec.priorityLevelConfiguration.name : '';
          // The schema changed level since the rebuild: the next rebuild writes its condition.
          if (liveLevel !== level) throw UNCHANGED;
          const status = isPlainObject(live.status) ? live.status : {};
          const others = (Array.isArray(status.conditions) ? status.conditions : []).filter((c) => !(isPlainObject(c) && c.type === 'Dangling'));
          const condition = { type: 'Dangling', ...want, lastTransitionTime: rfc3339(ctx.now) };
          return { ...live, status: { ...status, conditions: [...others, condition] } };
        },
        { dryRun: false, subresource: 'status' },
      )
      .catch((e: unknown) => {
        if (e !== UNCHANGED && !(e instanceof StatusError && e.code === 404)) throw e;
      });
  }
}

const UNCHANGED = new Error('unchanged');

function conditionIs(fs: Obj, want: { status: string; reason: string; message: string }): boolean {
  const status = isPlainObject(fs.status) ? fs.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const c = conditions.find((x) => isPlainObject(x) && x.type === 'Dangling') as Record<string, unknown> | undefined;
  return c !== undefined && c.status === want.status && c.reason === want.reason && c.message === want.message;
}
