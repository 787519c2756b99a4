/**
 * The scheduler: one queue, one cache, one framework per profile (selected by the pod's
 * spec.schedulerName) and the scheduling cycle of upstream's scheduleOne — pop, snapshot,
 * find a node (PostFilter when none fits), assume, Reserve, Permit — followed by the binding
 * cycle (wait on Permit, PreBind, Bind, PostBind), which runs on while the next pod is
 * scheduled. Any failure after assume unreserves and forgets the pod and requeues it.
 */
import { SchedulerCache } from './cache/cache.js';
import { resolveConfiguration } from './config/defaults.js';
import type { KubeSchedulerConfiguration } from './config/types.js';
import { validateConfiguration } from './config/validation.js';
import { type Clock, MATH_RANDOM_INT, type RandomInt, SYSTEM_CLOCK } from './framework/clock.js';
import type { CycleState } from './framework/cycle-state.js';
import type { ClusterEvent } from './framework/events.js';
import { FitError } from './framework/fit-error.js';
import type { Binder, EventRecorder, Listers, SchedulerClient } from './framework/handle.js';
import type { QueuedPodInfo } from './framework/interfaces.js';
import type { Registry } from './framework/registry.js';
import { Framework } from './framework/runtime.js';
import { Snapshot } from './framework/snapshot.js';
import type { Status } from './framework/status.js';
import type { Pod } from './framework/types.js';
import { ORCH_NAMES, type WellKnownNames } from './framework/well-known.js';
import { timeExtensionPoints } from './framework-metrics.js';
import { NOOP_RECORDER, type ProfileRecorder, type SchedulerRecorder } from './metric-recorder.js';
import { SchedulingQueue } from './queue/scheduling-queue.js';
import { NoNodesAvailableError, PodScheduler } from './schedule-pod.js';

export interface SchedulerOptions {
  config?: KubeSchedulerConfiguration;
  registry: Registry;
  listers: Listers;
  binder: Binder;
  client: SchedulerClient;
  eventRecorder: EventRecorder;
  /** A profile's own recorder (upstream: reportingController = the profile's schedulerName); default eventRecorder. */
  eventRecorderFor?: (schedulerName: string) => EventRecorder;
  clock?: Clock;
  random?: RandomInt;
  names?: WellKnownNames;
  /** Where the scheduler's metrics go; default records nothing (the simulator). */
  recorder?: SchedulerRecorder;
}

/** PodScheduled condition reasons, as upstream. */
export const REASON_UNSCHEDULABLE = 'Unschedulable';
export const REASON_SCHEDULER_ERROR = 'SchedulerError';

/** Upstream's cleanAssumedPeriod. */
const CLEANUP_ASSUMED_PERIOD_MS = 1000;

export class Scheduler {
  readonly cache: SchedulerCache;
  readonly queue: SchedulingQueue;
  readonly snapshot = new Snapshot();
  readonly profiles = new Map<string, Framework>();
  private readonly podScheduler: PodScheduler;
  private readonly listers: Listers;
  private readonly client: SchedulerClient;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly clock: Clock;
  private readonly recorder: SchedulerRecorder;
  /** Each profile's attempt recorder, by schedulerName. */
  private readonly profileRecorders = new Map<string, ProfileRecorder>();
  /** When expired assumed pods were last dropped. */
  private lastCleanup = Number.NEGATIVE_INFINITY;

  /** Throws with upstream-style field messages on an invalid configuration. */
  constructor(opts: SchedulerOptions) {
    const errs = validateConfiguration(opts.config ?? {});
    if (errs.length > 0) throw new Error(`invalid scheduler configuration: ${errs.map((e) => `${e.field}: ${e.detail ?? e.type}`).join('; ')}`);
    const cfg = resolveConfiguration(opts.config);
    const clock = opts.clock ?? SYSTEM_CLOCK;
    this.clock = clock;
    const recorder = opts.recorder ?? NOOP_RECORDER;
    this.recorder = recorder;
    const names = opts.names ?? ORCH_NAMES;
    this.listers = opts.listers;
    this.client = opts.client;
    this.cache = new SchedulerCache(clock, names);
    this.podScheduler = new PodScheduler(cfg.percentageOfNodesToScore, opts.random ?? MATH_RANDOM_INT);
    // The queue is built first without events so frameworks can reach its nominator.
    let first: Framework | undefined;
    const pluginEvents = new Map<string, ClusterEvent[]>();
    const queue = new SchedulingQueue({
      clock,
      less: (a, b) => first!.queueSortLess(a, b),
      initialBackoffMs: cfg.podInitialBackoffMs,
      maxBackoffMs: cfg.podMaxBackoffMs,
      pluginEvents,
      recorder,
    });
    this.queue = queue;
    for (const p of cfg.profiles) {
      const fwk = new Framework({
        profileName: p.schedulerName,
        plugins: p.plugins,
        pluginArgs: p.pluginArgs,
        registry: opts.registry,
        deps: {
          names,
          clock,
          listers: opts.listers,
          binder: opts.binder,
          client: opts.client,
          eventRecorder: opts.eventRecorderFor?.(p.schedulerName) ?? opts.eventRecorder,
          nominator: queue.nominator,
          snapshot: () => this.snapshot,
          metrics: recorder,
        },
      });
      first ??= fwk;
      this.profiles.set(p.schedulerName, fwk);
      const pm = recorder.profile(p.schedulerName);
      this.profileRecorders.set(p.schedulerName, pm);
      if (recorder !== NOOP_RECORDER) timeExtensionPoints(fwk, recorder, pm);
      for (const [name, pl] of fwk.pluginsByName) {
        const evs = pl.eventsToRegister?.();
        if (evs !== undefined) pluginEvents.set(name, [...(pluginEvents.get(name) ?? []), ...evs]);
      }
    }
  }

  /** True when one of the profiles is named by the pod's spec.schedulerName. */
  responsibleForPod(pod: Pod): boolean {
    return this.profiles.has(pod.spec.schedulerName || 'default-scheduler');
  }

  /**
   * Runs one scheduling cycle; false when no pod is ready. The binding cycle continues in the
   * background; settle() waits for all of them.
   */
  async scheduleOne(): Promise<boolean> {
    // Upstream drops expired assumed pods once a second (cleanAssumedPeriod), not per cycle:
    // each pass walks every assumed pod, and thousands are assumed while their bindings queue.
    const now = this.clock.now();
    if (now - this.lastCleanup >= CLEANUP_ASSUMED_PERIOD_MS) {
      this.lastCleanup = now;
      this.cache.cleanupAssumedPods();
    }
    const qpi = this.queue.pop();
    if (qpi === undefined) return false;
    const cycle = this.queue.schedulingCycle;
    const pod = qpi.podInfo.pod;
    const profile = pod.spec.schedulerName || 'default-scheduler';
    const fwk = this.profiles.get(profile);
    if (fwk === undefined || pod.metadata.deletionTimestamp || this.cache.isAssumedPod(pod)) return true;
    const m = this.recorder;
    const pm = this.profileRecorders.get(profile)!;
    const start = m.now();
    const state = fwk.newCycleState();
    this.cache.updateSnapshot(this.snapshot);
    let host: string;
    try {
      host = this.podScheduler.schedule(fwk, state, pod, this.snapshot).suggestedHost;
    } catch (err) {
      let nominatedNode = '';
      if (err instanceof FitError) {
        qpi.unschedulablePlugins = err.diagnosis.unschedulablePlugins;
        if (fwk.postFilterPlugins.length > 0) {
          const r = await fwk.runPostFilterPlugins(state, pod, err.diagnosis.nodeToStatusMap);
          if (r.status.isSuccess()) nominatedNode = r.nominatedNodeName ?? '';
        }
        pm.unschedulable(m.now() - start);
        this.recordFailure(fwk, qpi, cycle, err, REASON_UNSCHEDULABLE, nominatedNode);
      } else if (err instanceof NoNodesAvailableError) {
        pm.unschedulable(m.now() - start);
        this.recordFailure(fwk, qpi, cycle, err, REASON_UNSCHEDULABLE, '');
      } else {
        pm.error(m.now() - start);
        this.recordFailure(fwk, qpi, cycle, asError(err), REASON_SCHEDULER_ERROR, '');
      }
      return true;
    }
    m.algorithmDuration(m.now() - start);
    // Assume: later cycles see the pod on the node before the bind is confirmed.
    const assumed: Pod = { ...pod, spec: { ...pod.spec, nodeName: host } };
    this.cache.assumePod(assumed);
    this.queue.nominator.deleteNominatedPodIfExists(assumed);
    const reserve = fwk.runReservePluginsReserve(state, assumed, host);
    if (!reserve.isSuccess()) {
      this.undo(fwk, state, assumed, host);
      pm.error(m.now() - start);
      this.recordFailure(fwk, qpi, cycle, reserve.asError(), REASON_SCHEDULER_ERROR, '');
      return true;
    }
    const permit = fwk.runPermitPlugins(state, assumed, host);
    if (!permit.isSuccess() && !permit.isWait()) {
      this.undo(fwk, state, assumed, host);
      const reason = permit.isUnschedulable() ? REASON_UNSCHEDULABLE : REASON_SCHEDULER_ERROR;
      recordAttemptFailure(pm, reason, m.now() - start);
      this.recordFailure(fwk, qpi, cycle, permit.asError(), reason, '');
      return true;
    }
    const binding = this.bindingCycle(fwk, state, qpi, cycle, assumed, host, pm, start);
    this.inFlight.add(binding);
    void binding.finally(() => this.inFlight.delete(binding));
    return true;
  }

  private async bindingCycle(
    fwk: Framework,
    state: CycleState,
    qpi: QueuedPodInfo,
    cycle: number,
    assumed: Pod,
    host: string,
    pm: ProfileRecorder,
    start: number,
  ): Promise<void> {
    const m = this.recorder;
    // Upstream's scheduler_scheduler_goroutines{work="binding"}: binding cycles in flight.
    m.bindingInFlight(1);
    try {
      await this.bind(fwk, state, qpi, cycle, assumed, host, pm, start);
    } finally {
      m.bindingInFlight(-1);
    }
  }

  private async bind(
    fwk: Framework,
    state: CycleState,
    qpi: QueuedPodInfo,
    cycle: number,
    assumed: Pod,
    host: string,
    pm: ProfileRecorder,
    start: number,
  ): Promise<void> {
    const m = this.recorder;
    const fail = (s: Status, reason: string) => {
      this.undo(fwk, state, assumed, host);
      recordAttemptFailure(pm, reason, m.now() - start);
      this.recordFailure(fwk, qpi, cycle, s.asError(), reason, '');
    };
    const permit = await fwk.waitOnPermit(assumed);
    if (!permit.isSuccess()) return fail(permit, permit.isUnschedulable() ? REASON_UNSCHEDULABLE : REASON_SCHEDULER_ERROR);
    const preBind = await fwk.runPreBindPlugins(state, assumed, host);
    if (!preBind.isSuccess()) return fail(preBind, REASON_SCHEDULER_ERROR);
    const bindStart = m.now();
    const bind = await fwk.runBindPlugins(state, assumed, host);
    if (!bind.isSuccess()) return fail(bind, REASON_SCHEDULER_ERROR);
    const end = m.now();
    m.bindingDuration(end - bindStart);
    pm.scheduled(end - start);
    m.podBound(qpi.attempts, (this.clock.now() - qpi.initialAttemptTimestamp) / 1000);
    this.cache.finishBinding(assumed);
    const { namespace, name } = assumed.metadata;
    fwk.eventRecorder.event(assumed, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${namespace}/${name} to ${host}`);
    fwk.runPostBindPlugins(state, assumed, host);
  }

  private undo(fwk: Framework, state: CycleState, assumed: Pod, host: string): void {
    fwk.runReservePluginsUnreserve(state, assumed, host);
    this.cache.forgetPod(assumed);
  }

  /**
   * Upstream's recordSchedulingFailure: requeue (unless the pod is gone or bound meanwhile),
   * keep the nomination, emit FailedScheduling and set PodScheduled=False.
   */
  private recordFailure(fwk: Framework, qpi: QueuedPodInfo, cycle: number, err: Error, reason: string, nominatedNode: string): void {
    const pod = qpi.podInfo.pod;
    const current = this.listers.pods.get(pod.metadata.name ?? '', pod.metadata.namespace);
    if (current !== undefined && !current.spec.nodeName && (current.metadata.uid ?? '') === (pod.metadata.uid ?? '')) {
      this.queue.addUnschedulableIfNotPresent(qpi, cycle);
    }
    if (nominatedNode !== '') this.queue.nominator.addNominatedPod(qpi.podInfo, nominatedNode);
    const message = err.message;
    fwk.eventRecorder.event(pod, 'Warning', 'FailedScheduling', 'Scheduling', truncateMessage(message));
    const condition = { type: 'PodScheduled', status: 'False', reason, message };
    this.client.updatePodStatus(pod, condition, nominatedNode || undefined).catch(() => {
      // A failed status write is retried by the next failure; scheduling goes on.
    });
  }

  /** Sets the gauges upstream keeps current (pending pods per sub-queue, cache sizes); run when metrics are collected. */
  sampleMetrics(): void {
    const l = this.queue.lengths();
    this.recorder.pendingPods(l.active, l.backoff, l.unschedulable);
    this.recorder.cacheSize(this.cache.nodeCount(), this.cache.podCount(), this.cache.assumedPodCount());
  }

  /** Waits for every binding cycle in flight. */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Schedules until the active queue is empty and no binding is in flight (simulator and tests). */
  async runUntilIdle(): Promise<number> {
    let cycles = 0;
    for (;;) {
      while (await this.scheduleOne()) cycles++;
      if (this.inFlight.size === 0) return cycles;
      await this.settle();
    }
  }
}

/** Counted by the PodScheduled reason the failure gets, as upstream's scheduleOne. */
function recordAttemptFailure(pm: ProfileRecorder, reason: string, seconds: number): void {
  if (reason === REASON_UNSCHEDULABLE) pm.unschedulable(seconds);
  else pm.error(seconds);
}

/** Upstream's truncateMessage: event messages are capped at 1024 bytes. */
function truncateMessage(message: string): string {
  const max = 1024;
  if (message.length <= max) return message;
  return `${message.slice(0, max - 3)}...`;
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
