/**
 * What the scheduler records into its metrics, as upstream's pkg/scheduler does from
 * scheduleOne, the scheduling queue and the preemption plugin. The library talks to this
 * interface only: the simulator and tests get NOOP_RECORDER (nothing recorded, no clock read),
 * the process gets a recorder over its registered metrics whose label children are resolved
 * once, so recording a pod is a few number updates and no label string is built per pod.
 */
import type { MetricChild } from '../machinery/metrics.js';
import type { SchedulerMetrics } from './metrics.js';

export type QueueName = 'active' | 'backoff' | 'unschedulable';

/** Upstream's queue event labels that are not cluster events (internal/queue/events.go). */
export const POD_ADD = 'PodAdd';
export const SCHEDULE_ATTEMPT_FAILURE = 'ScheduleAttemptFailure';
export const BACKOFF_COMPLETE = 'BackoffComplete';

/** The extension points whose runs upstream times (Filter is per node and only sampled per plugin). */
export type ExtensionPointName = 'PreFilter' | 'PostFilter' | 'PreScore' | 'Score' | 'Reserve' | 'Unreserve' | 'Permit' | 'PreBind' | 'Bind' | 'PostBind';

/** Status code names by code (framework/status.ts's Code), upstream's Code.String(). */
const CODE_NAMES = ['Success', 'Error', 'Unschedulable', 'UnschedulableAndUnresolvable', 'Wait', 'Skip'];

/** One profile's attempt results (the `profile` label resolved). */
export interface ProfileRecorder {
  scheduled(seconds: number): void;
  unschedulable(seconds: number): void;
  error(seconds: number): void;
  /** scheduler_framework_extension_point_duration_seconds for one run of an extension point ending with status code `code`. */
  extensionPoint(ep: ExtensionPointName, code: number, seconds: number): void;
}

export interface SchedulerRecorder {
  /** A monotonic time in seconds for durations; the no-op recorder returns 0 without reading a clock. */
  now(): number;
  profile(name: string): ProfileRecorder;
  algorithmDuration(seconds: number): void;
  bindingDuration(seconds: number): void;
  /** A pod parked at Permit was allowed or rejected (`code`) after `seconds`. */
  permitWait(code: number, seconds: number): void;
  /** A pod got bound after `attempts` attempts, `seconds` after it was first queued. */
  podBound(attempts: number, seconds: number): void;
  /** scheduler_scheduler_goroutines{work="binding"}: +1 when a binding cycle starts, −1 when it ends. */
  bindingInFlight(delta: number): void;
  preemptionAttempt(): void;
  preemptionVictims(count: number): void;
  /** A pod entered a sub-queue because of `event` (upstream's label). */
  incoming(queue: QueueName, event: string): void;
  /** Sampled state, set when the metrics are collected. */
  pendingPods(active: number, backoff: number, unschedulable: number): void;
  cacheSize(nodes: number, pods: number, assumedPods: number): void;
}

const NOOP_PROFILE: ProfileRecorder = { scheduled() {}, unschedulable() {}, error() {}, extensionPoint() {} };

/** Records nothing: the simulator and benchmarks pay one empty call per recording point. */
export const NOOP_RECORDER: SchedulerRecorder = {
  now: () => 0,
  profile: () => NOOP_PROFILE,
  algorithmDuration() {},
  bindingDuration() {},
  permitWait() {},
  podBound() {},
  bindingInFlight() {},
  preemptionAttempt() {},
  preemptionVictims() {},
  incoming() {},
  pendingPods() {},
  cacheSize() {},
};

/** Upstream's getAttemptsLabel: attempts past 15 share one label value. */
const MAX_ATTEMPTS_LABEL = 15;

/** Records into the registered scheduler metrics (upstream's metrics.PodScheduled and friends). */
export class MetricsRecorder implements SchedulerRecorder {
  private readonly profiles = new Map<string, ProfileRecorder>();
  /** Per sub-queue, the child of each event label seen (a small fixed set). */
  private readonly incomingChildren = {
    active: new Map<string, MetricChild>(),
    backoff: new Map<string, MetricChild>(),
    unschedulable: new Map<string, MetricChild>(),
  };
  private readonly attemptsChildren: MetricChild[] = [];
  private readonly permitWaitChildren: MetricChild[];
  private readonly algorithm: MetricChild;
  private readonly binding: MetricChild;
  private readonly attempts: MetricChild;
  private readonly bindingGoroutines: MetricChild;
  private readonly preemptions: MetricChild;
  private readonly victims: MetricChild;
  private readonly pending: MetricChild[];
  private readonly cache: MetricChild[];

  constructor(private readonly m: SchedulerMetrics) {
    this.algorithm = m.schedulingAlgorithmDuration.child();
    this.binding = m.bindingDuration.child();
    this.attempts = m.podSchedulingAttempts.child();
    this.bindingGoroutines = m.goroutines.child(['binding']);
    this.preemptions = m.preemptionAttempts.child();
    this.victims = m.preemptionVictims.child();
    this.pending = ['active', 'backoff', 'unschedulable'].map((q) => m.pendingPods.child([q]));
    this.cache = ['nodes', 'pods', 'assumed_pods'].map((t) => m.cacheSize.child([t]));
    this.permitWaitChildren = CODE_NAMES.map((c) => m.permitWaitDuration.child([c]));
    for (let i = 0; i <= MAX_ATTEMPTS_LABEL; i++) {
      this.attemptsChildren.push(m.podSchedulingDuration.child([i === MAX_ATTEMPTS_LABEL ? `${i}+` : String(i)]));
    }
  }

  now(): number {
    return performance.now() / 1000;
  }

  profile(name: string): ProfileRecorder {
    let p = this.profiles.get(name);
    if (p === undefined) {
      const m = this.m;
      const result = (r: string) => ({ count: m.scheduleAttempts.child([r, name]), e2e: m.e2eSchedulingDuration.child([r, name]) });
      const [ok, no, err] = [result('scheduled'), result('unschedulable'), result('error')];
      // Per extension point, its children by status code, resolved on first use.
      const eps = new Map<ExtensionPointName, MetricChild[]>();
      p = {
        extensionPoint(ep, code, s) {
          let byCode = eps.get(ep);
          if (byCode === undefined) eps.set(ep, (byCode = CODE_NAMES.map((c) => m.frameworkExtensionPointDuration.child([ep, c, name]))));
          byCode[code]?.observe(s);
        },
        scheduled(s) {
          ok.count.inc();
          ok.e2e.observe(s);
        },
        unschedulable(s) {
          no.count.inc();
          no.e2e.observe(s);
        },
        error(s) {
          err.count.inc();
          err.e2e.observe(s);
        },
      };
      this.profiles.set(name, p);
    }
    return p;
  }

  algorithmDuration(seconds: number): void {
    this.algorithm.observe(seconds);
  }

  bindingDuration(seconds: number): void {
    this.binding.observe(seconds);
  }

  permitWait(code: number, seconds: number): void {
    this.permitWaitChildren[code]?.observe(seconds);
  }

  podBound(attempts: number, seconds: number): void {
    this.attempts.observe(attempts);
    this.attemptsChildren[Math.min(Math.max(attempts, 0), MAX_ATTEMPTS_LABEL)].observe(seconds);
  }

  bindingInFlight(delta: number): void {
    this.bindingGoroutines.add(delta);
  }

  preemptionAttempt(): void {
    this.preemptions.inc();
  }

  preemptionVictims(count: number): void {
    this.victims.observe(count);
  }

  incoming(queue: QueueName, event: string): void {
    const children = this.incomingChildren[queue];
    let c = children.get(event);
    if (c === undefined) children.set(event, (c = this.m.queueIncomingPods.child([queue, event])));
    c.inc();
  }

  pendingPods(active: number, backoff: number, unschedulable: number): void {
    this.pending[0].set(active);
    this.pending[1].set(backoff);
    this.pending[2].set(unschedulable);
  }

  cacheSize(nodes: number, pods: number, assumedPods: number): void {
    this.cache[0].set(nodes);
    this.cache[1].set(pods);
    this.cache[2].set(assumedPods);
  }
}
