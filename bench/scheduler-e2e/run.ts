/**
 * One workload with the API server in the loop, as upstream's scheduler_perf runs it: nodes,
 * then the init pods (waited for until bound), then the measured pods, timed from the moment
 * their creation starts (upstream's createPods op with collectMetrics) until the last one has
 * a spec.nodeName. CPU of the API server, the scheduler, this loader and the whole machine is
 * read over the measured phase.
 */
import { wellKnownNames } from '../../src/scheduler/framework/well-known.js';
import { ORCH_BRAND } from '../../src/machinery/brand.js';
import type { Node, Pod } from '../../src/scheduler/framework/types.js';
import type { Workload } from '../scheduler/workloads.js';
import { type ApiTarget, BoundPods, type Create, createAll } from './api.js';
import { startCluster, type ClusterOptions } from './cluster.js';
import { CpuSampler } from './cpu.js';
import { calibrationMs } from './calibrate.js';
import { requestOnce } from '../http-client.js';

export interface E2eOptions extends ClusterOptions {
  scale: number;
  /** Connections creating objects at once. */
  concurrency: number;
  /** Longest wait for a phase's pods to be bound. */
  phaseTimeoutMs: number;
}

export interface E2eResult {
  name: string;
  nodes: number;
  initPods: number;
  measurePods: number;
  /** Measured pods bound (all of them unless the phase timed out). */
  scheduled: number;
  seconds: number;
  podsPerSecond: number;
  threshold: number | null;
  /** CPU over the measured phase, in cores (1 = one core busy throughout). */
  cpu: { apiserver: number; scheduler: number; loader: number; others: number };
  /** Measured pods' creation alone took this long (the rest of the phase is waiting for bindings). */
  createSeconds: number;
  victimsDeleted: number;
  /** calibrate.ts's reading just before the run's cluster started: the machine's speed then. */
  calibrationMs: number;
  /** Scheduling attempts that failed (FailedScheduling events, series counted), init pods included. */
  failedAttempts: number;
  timedOut?: string;
}

const names = wellKnownNames(ORCH_BRAND);

function nodeObject(n: Node): Create {
  return { path: '/api/v1/nodes', body: { apiVersion: 'v1', kind: 'Node', ...n } };
}

/**
 * The pod as an API object. Upstream's high-priority template sets spec.priority directly
 * because scheduler_perf disables the Priority admission plugin; orch runs it, so the same
 * value comes from a PriorityClass of that value instead.
 */
function podObject(p: Pod, classes: Map<number, string>): Create {
  const { priority, ...spec } = p.spec;
  let withClass = spec;
  if (priority !== undefined) {
    const className = `scheduler-perf-priority-${priority}`;
    classes.set(priority, className);
    withClass = { ...spec, priorityClassName: className };
  }
  const ns = p.metadata.namespace ?? 'default';
  return { path: `/api/v1/namespaces/${ns}/pods`, body: { apiVersion: 'v1', kind: 'Pod', ...p, spec: withClass } };
}

const keyOf = (c: Create) => {
  const m = (c.body as { metadata: { name: string; namespace?: string } }).metadata;
  return `${m.namespace ?? 'default'}/${m.name}`;
};

/** FailedScheduling events the scheduler wrote, each series counted in full. */
async function failedAttempts(target: ApiTarget): Promise<number> {
  const group = ORCH_BRAND.group('events', true);
  const res = await requestOnce(new URL(`/apis/${group}/v1/events`, target.url).href, { tls: target, timeoutMs: 60_000 });
  if (res.status !== 200) throw new Error(`list events -> ${res.status}: ${res.body.slice(0, 200)}`);
  const list = JSON.parse(res.body) as { items: { reason?: string; series?: { count?: number } }[] };
  return list.items.filter((e) => e.reason === 'FailedScheduling').reduce((n, e) => n + (e.series?.count ?? 1), 0);
}

async function prepare(target: ApiTarget, namespaces: string[], classes: Map<number, string>, concurrency: number): Promise<void> {
  const nsObjects = namespaces.map((name) => ({ path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } }));
  const group = ORCH_BRAND.group('scheduling', true);
  const pcObjects = [...classes].map(([value, name]) => ({
    path: `/apis/${group}/v1/priorityclasses`,
    body: { apiVersion: `${group}/v1`, kind: 'PriorityClass', metadata: { name }, value },
  }));
  await createAll(target, [...nsObjects, ...pcObjects], concurrency, true);
}

export async function runE2eWorkload(w: Workload, o: E2eOptions): Promise<E2eResult> {
  const nodes = Math.max(1, Math.round(w.nodes * o.scale));
  const initCount = Math.round(w.initPods * o.scale);
  const measureCount = Math.max(1, Math.round(w.measurePods * o.scale));
  const classes = new Map<number, string>();
  const nodeObjects = Array.from({ length: nodes }, (_, i) => nodeObject(w.node(i, names)));
  const initPods = Array.from({ length: initCount }, (_, i) => podObject(w.initPod(i, names), classes));
  const measurePods = Array.from({ length: measureCount }, (_, i) => podObject(w.measurePod(i, names), classes));
  const namespaces = [...new Set([...initPods, ...measurePods].map((p) => p.path.split('/')[4]))].filter((ns) => ns !== 'default');

  // Before the cluster starts, so nothing of this run competes with it.
  const calibration = calibrationMs();
  const cluster = await startCluster(o);
  const watch = await BoundPods.open(cluster.target);
  try {
    await prepare(cluster.target, namespaces, classes, o.concurrency);
    await createAll(cluster.target, nodeObjects, o.concurrency);
    await createAll(cluster.target, initPods, o.concurrency);
    await watch.waitFor(initPods.map(keyOf), o.phaseTimeoutMs);

    const measuredKeys = measurePods.map(keyOf);
    const deletedBefore = watch.deleted;
    const sampler = new CpuSampler([cluster.apiserver.proc.pid ?? 0, cluster.scheduler.proc.pid ?? 0]);
    const t0 = performance.now();
    let createSeconds = 0;
    let seconds = 0;
    let timedOut: string | undefined;
    let used: ReturnType<CpuSampler['read']> | undefined;
    const creation = createAll(cluster.target, measurePods, o.concurrency).then(() => {
      createSeconds = (performance.now() - t0) / 1000;
    });
    const binding = watch.waitFor(measuredKeys, o.phaseTimeoutMs).then(
      () => {
        seconds = (performance.now() - t0) / 1000;
        used = sampler.read();
      },
      (err: Error) => {
        seconds = (performance.now() - t0) / 1000;
        used = sampler.read();
        timedOut = err.message;
      },
    );
    // A failed creation ends the phase at once rather than at the timeout.
    await Promise.all([binding, creation]);
    if (used === undefined) throw new Error('unreachable: the binding phase ended without a CPU reading');
    const scheduled = watch.countOf(measuredKeys);
    const failed = await failedAttempts(cluster.target);
    const api = used.perPid.get(cluster.apiserver.proc.pid ?? 0) ?? 0;
    const sched = used.perPid.get(cluster.scheduler.proc.pid ?? 0) ?? 0;
    return {
      name: w.name,
      nodes,
      initPods: initCount,
      measurePods: measureCount,
      scheduled,
      seconds,
      podsPerSecond: scheduled / seconds,
      threshold: w.threshold,
      cpu: {
        apiserver: api / seconds,
        scheduler: sched / seconds,
        loader: used.self / seconds,
        others: Math.max(0, used.machineBusy - api - sched - used.self) / seconds,
      },
      createSeconds,
      victimsDeleted: watch.deleted - deletedBefore,
      calibrationMs: calibration,
      failedAttempts: failed,
      timedOut,
    };
  } finally {
    watch.close();
    await cluster.stop();
  }
}
