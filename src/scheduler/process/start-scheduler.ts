/**
 * The scheduler as a running component (upstream's cmd/kube-scheduler/app Run): informers
 * for every kind the plugins read, started and synced first; then, when leader election is
 * configured, campaign for the lock; as leader, the scheduling loop runs until stop() or until
 * leadership is lost (then `onLeadershipLost`, where a process exits as upstream does). It
 * talks to the API server only through client/, exactly as a separate process would.
 */
import { randomUUID } from 'node:crypto';
import { hostname as osHostname } from 'node:os';
import { type Clock, REAL_CLOCK } from '../../client/clock.js';
import { recordCoreEvent } from '../../client/core-event.js';
import { waitForCacheSync } from '../../client/informer.js';
import { LeaderElector, validateLeaderElection } from '../../client/leader-election.js';
import { newResourceLock, type ResourceLockType } from '../../client/resource-lock.js';
import type { RestClient } from '../../client/rest-client.js';
import type { Brand } from '../../machinery/brand.js';
import { DEFAULT_SCHEDULER_NAME } from '../config/defaults.js';
import type { KubeSchedulerConfiguration } from '../config/types.js';
import { type SchedulerEventHandlers, eventHandlersFor, type ResourceEventHandler } from '../event-handlers.js';
import type { RandomInt } from '../framework/clock.js';
import type { Registry } from '../framework/registry.js';
import { wellKnownNames } from '../framework/well-known.js';
import type { SchedulerRecorder } from '../metric-recorder.js';
import { IN_TREE_REGISTRY } from '../plugins/registry.js';
import { Scheduler } from '../scheduler.js';
import { ApiSchedulerWriter } from './api-writer.js';
import { ProfileEventRecorders } from './event-recorders.js';
import { allInformers, createInformers, listersFor, type SchedulerInformers } from './informers.js';
import { SchedulingLoop } from './scheduling-loop.js';

export type { ResourceLockType } from '../../client/resource-lock.js';

export interface SchedulerLeaderElection {
  /** Default 15 s. */
  leaseDurationMs?: number;
  /** Default 10 s. */
  renewDeadlineMs?: number;
  /** Default 2 s. */
  retryPeriodMs?: number;
  /** Default `leases`. */
  resourceLock?: ResourceLockType;
  /** Default `<brand word>-scheduler`. */
  resourceName?: string;
  /** Default the brand's system namespace. */
  resourceNamespace?: string;
  /** Release the lock on stop (not upstream's 1.21 scheduler behaviour; useful in tests). */
  releaseOnCancel?: boolean;
}

export type SchedulerLogLevel = 'info' | 'error';

export interface StartSchedulerOptions {
  client: RestClient;
  brand: Brand;
  config?: KubeSchedulerConfiguration;
  registry?: Registry;
  /** Campaign for the lock before scheduling; undefined runs at once (`--leader-elect=false`). */
  leaderElection?: SchedulerLeaderElection;
  /** Default os.hostname(); part of reportingInstance and of the identity. */
  hostname?: string;
  /** Leader-election identity; default `<hostname>_<uuid>`. */
  identity?: string;
  /** Leadership was lost: upstream's process exits here. */
  onLeadershipLost?: () => void;
  log?: (level: SchedulerLogLevel, message: string) => void;
  clock?: Clock;
  random?: RandomInt;
  /** Where the scheduler records its metrics; default nothing. */
  recorder?: SchedulerRecorder;
}

export interface RunningScheduler {
  readonly scheduler: Scheduler;
  readonly informers: SchedulerInformers;
  readonly identity: string;
  /** Resolves when every informer has listed once (false if stopped first). */
  readonly synced: Promise<boolean>;
  /** True when scheduling: leader, or running without election. */
  isLeader(): boolean;
  /** The leader-election health check (`/healthz/leaderElection`); undefined when healthy or not electing. */
  leaderElectionHealth(): Error | undefined;
  /** Waits until the events recorded so far are written (tests). */
  flushEvents(): Promise<void>;
  /** Stops the loop, the election and the informers; waits for bindings in flight. */
  stop(): Promise<void>;
}

/** Builds the scheduler from its configuration (throws on an invalid one) and starts it. */
export function startScheduler(o: StartSchedulerOptions): RunningScheduler {
  const clock = o.clock ?? REAL_CLOCK;
  const log = o.log ?? (() => {});
  const logError = (what: string) => (err: unknown) => log('error', `${what}: ${err instanceof Error ? err.message : String(err)}`);
  const hostname = o.hostname ?? osHostname();
  const identity = o.identity ?? `${hostname}_${randomUUID()}`;
  const names = wellKnownNames(o.brand);
  const durations = {
    leaseDurationMs: o.leaderElection?.leaseDurationMs ?? 15_000,
    renewDeadlineMs: o.leaderElection?.renewDeadlineMs ?? 10_000,
    retryPeriodMs: o.leaderElection?.retryPeriodMs ?? 2000,
  };
  // Checked before anything starts: a bad configuration fails the start, not a background task.
  const problem = o.leaderElection ? validateLeaderElection({ ...durations, identity }) : undefined;
  if (problem !== undefined) throw new Error(`invalid leader election configuration: ${problem}`);

  const informers = createInformers(o.client, o.brand, { clock, onError: logError('informer') });
  const writer = new ApiSchedulerWriter(o.client, clock, names);
  const recorders = new ProfileEventRecorders(o.client, o.brand.group('events', true), hostname, clock, logError('event'));
  const scheduler = new Scheduler({
    config: o.config,
    registry: o.registry ?? IN_TREE_REGISTRY,
    listers: listersFor(informers),
    binder: writer,
    client: writer,
    eventRecorder: recorders.forProfile(DEFAULT_SCHEDULER_NAME),
    eventRecorderFor: (name) => recorders.forProfile(name),
    clock,
    random: o.random,
    names,
    recorder: o.recorder,
  });
  const loop = new SchedulingLoop(scheduler, clock, logError('scheduling'));
  connect(
    informers,
    waking(eventHandlersFor(scheduler), () => loop.wake()),
  );
  const all = allInformers(informers);
  for (const i of all) i.start();

  const stopSync = new AbortController();
  const synced = waitForCacheSync(all, stopSync.signal);
  let elector: LeaderElector | undefined;
  let leading = false;
  let stopped = false;
  const firstProfile = o.config?.profiles?.[0]?.schedulerName || DEFAULT_SCHEDULER_NAME;

  const lead = () => {
    if (stopped) return;
    leading = true;
    log('info', `${identity}: scheduling pods of ${[...scheduler.profiles.keys()].join(', ')}`);
    loop.start();
  };

  void synced.then((ok) => {
    if (!ok || stopped) return;
    const le = o.leaderElection;
    if (le === undefined) return lead();
    const lock = newResourceLock(
      le.resourceLock ?? 'leases',
      o.client,
      o.brand,
      le.resourceNamespace ?? o.brand.systemNamespace,
      le.resourceName ?? `${o.brand.word}-scheduler`,
      identity,
    );
    elector = new LeaderElector({
      lock,
      identity,
      ...durations,
      releaseOnCancel: le.releaseOnCancel,
      clock,
      onError: logError('leader election'),
      // Upstream records these with a core/v1 recorder whose component is the first profile's name.
      recordEvent: (message) => {
        recordCoreEvent(o.client, clock, firstProfile, hostname, lock.reference(), 'Normal', 'LeaderElection', message).catch(logError('event'));
      },
      callbacks: {
        onStartedLeading: lead,
        onStoppedLeading: () => {
          const wasLeading = leading;
          leading = false;
          if (stopped || !wasLeading) return;
          log('error', 'leaderelection lost');
          void loop.stop();
          o.onLeadershipLost?.();
        },
        onNewLeader: (id) => {
          if (id !== identity) log('info', `new leader elected: ${id}`);
        },
      },
    });
    void elector.run();
  });

  return {
    scheduler,
    informers,
    identity,
    synced,
    isLeader: () => leading,
    leaderElectionHealth: () => elector?.check(),
    flushEvents: () => recorders.flush(),
    async stop() {
      if (stopped) return;
      stopped = true;
      stopSync.abort();
      await loop.stop();
      await elector?.stop();
      await Promise.all(all.map((i) => i.stop()));
      await recorders.stop();
    },
  };
}

/** The library's handlers, each followed by a wake-up of the scheduling loop. */
function waking(h: SchedulerEventHandlers, wake: () => void): SchedulerEventHandlers {
  const wrap = <T>(x: ResourceEventHandler<T>): ResourceEventHandler<T> => ({
    add(obj) {
      x.add(obj);
      wake();
    },
    update(a, b) {
      x.update(a, b);
      wake();
    },
    delete(obj) {
      x.delete(obj);
      wake();
    },
  });
  return { pods: wrap(h.pods), nodes: wrap(h.nodes), other: (r) => wrap(h.other(r)) };
}

/** Upstream's addAllEventHandlers: which informer feeds which handler. */
function connect(i: SchedulerInformers, h: SchedulerEventHandlers): void {
  i.nodes.addEventHandler(h.nodes);
  i.pods.addEventHandler(h.pods);
  i.persistentVolumes.addEventHandler(h.other('PersistentVolume'));
  i.persistentVolumeClaims.addEventHandler(h.other('PersistentVolumeClaim'));
  i.storageClasses.addEventHandler(h.other('StorageClass'));
  i.csiNodes.addEventHandler(h.other('CSINode'));
  i.services.addEventHandler(h.other('Service'));
  i.podDisruptionBudgets.addEventHandler(h.other('PodDisruptionBudget'));
}
