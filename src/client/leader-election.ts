/**
 * client-go's tools/leaderelection: acquire a lock (retrying every retryPeriod with jitter
 * 1.2), then renew it every retryPeriod; a renewal that keeps failing for renewDeadline loses
 * leadership. Expiry of someone else's lease is judged by the local time at which its record
 * was last seen to change, never by the record's renewTime, so clock skew between candidates
 * does not matter. Only one candidate can win an update (resourceVersion preconditions).
 */
import { type Clock, REAL_CLOCK, sleep } from './clock.js';
import type { LeaderElectionRecord, ResourceLock } from './lease-lock.js';

export interface LeaderCallbacks {
  onStartedLeading(): void;
  /** Leadership ended (lost, or released on stop). */
  onStoppedLeading(): void;
  /** Another identity was observed holding the lock (also called for this one when it leads). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionConfig {
  lock: ResourceLock;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  callbacks: LeaderCallbacks;
  /** Write an expired record on stop so the next candidate need not wait out the lease. */
  releaseOnCancel?: boolean;
  clock?: Clock;
  random?: () => number;
  /** A lock read or write failed (logging). */
  onError?: (err: unknown) => void;
  /** The lock's RecordEvent: `<identity> became leader` / `<identity> stopped leading`. */
  recordEvent?: (message: string) => void;
}

/** client-go's JitterFactor for acquisition retries. */
const JITTER_FACTOR = 1.2;

/** client-go's validation of NewLeaderElector; returns the first problem, or undefined. */
export function validateLeaderElection(
  c: Pick<LeaderElectionConfig, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs' | 'identity'>,
): string | undefined {
  if (c.leaseDurationMs <= c.renewDeadlineMs) return 'leaseDuration must be greater than renewDeadline';
  if (c.renewDeadlineMs <= JITTER_FACTOR * c.retryPeriodMs) return 'renewDeadline must be greater than retryPeriod*JitterFactor';
  if (c.leaseDurationMs < 1) return 'leaseDuration must be greater than zero';
  if (c.renewDeadlineMs < 1) return 'renewDeadline must be greater than zero';
  if (c.retryPeriodMs < 1) return 'retryPeriod must be greater than zero';
  if (c.identity === '') return 'Lock identity is empty';
  return undefined;
}

export class LeaderElector {
  private observedRecord: LeaderElectionRecord | undefined;
  private observedRaw = '';
  private observedTime = 0;
  private reportedLeader = '';
  private leading = false;
  private readonly clock: Clock;
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly c: LeaderElectionConfig) {
    const problem = validateLeaderElection(c);
    if (problem !== undefined) throw new Error(problem);
    this.clock = c.clock ?? REAL_CLOCK;
  }

  /** Runs acquire then renew until leadership is lost or stop() is called; started once. */
  run(): Promise<void> {
    this.running ??= this.loop();
    return this.running;
  }

  /** Stops campaigning / renewing (releasing when configured); resolves when run() has returned. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  /** True while this candidate holds the lock as last observed. */
  isLeader(): boolean {
    return this.leading && this.observedRecord?.holderIdentity === this.c.identity;
  }

  /** The identity last seen holding the lock ('' when none). */
  getLeader(): string {
    return this.observedRecord?.holderIdentity ?? '';
  }

  /**
   * client-go's HealthzAdaptor check: unhealthy when this candidate believes it leads but has
   * not renewed for leaseDuration + tolerance (a renew loop that is stuck).
   */
  check(toleranceMs = 20_000): Error | undefined {
    if (!this.isLeader()) return undefined;
    if (this.clock.now() > this.observedTime + this.c.leaseDurationMs + toleranceMs) {
      return new Error(`failed election to renew leadership on lease ${this.c.lock.describe()}`);
    }
    return undefined;
  }

  private get signal(): AbortSignal {
    return this.abort.signal;
  }

  private async loop(): Promise<void> {
    if (!(await this.acquire())) return;
    this.leading = true;
    this.c.recordEvent?.(`${this.c.identity} became leader`);
    this.c.callbacks.onStartedLeading();
    try {
      await this.renew();
    } finally {
      if (this.signal.aborted && this.c.releaseOnCancel) await this.release();
      else if (!this.signal.aborted) this.c.recordEvent?.(`${this.c.identity} stopped leading`);
      this.leading = false;
      this.c.callbacks.onStoppedLeading();
    }
  }

  private async acquire(): Promise<boolean> {
    while (!this.signal.aborted) {
      if (await this.tryAcquireOrRenew()) return true;
      const period = this.c.retryPeriodMs;
      await sleep(this.clock, period + (this.c.random ?? Math.random)() * JITTER_FACTOR * period, this.signal);
    }
    return false;
  }

  /** Renews every retryPeriod; returns when a renewal fails for a whole renewDeadline, or on stop. */
  private async renew(): Promise<void> {
    while (!this.signal.aborted) {
      const deadline = this.clock.now() + this.c.renewDeadlineMs;
      let renewed = false;
      // wait.PollImmediateUntil: try now, then every retryPeriod until the deadline.
      while (!this.signal.aborted) {
        if (await this.tryAcquireOrRenew()) {
          renewed = true;
          break;
        }
        if (this.clock.now() + this.c.retryPeriodMs > deadline) break;
        await sleep(this.clock, this.c.retryPeriodMs, this.signal);
      }
      if (this.signal.aborted) return;
      if (!renewed) return;
      await sleep(this.clock, this.c.retryPeriodMs, this.signal);
    }
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.clock.now();
    const record: LeaderElectionRecord = {
      holderIdentity: this.c.identity,
      leaseDurationSeconds: Math.round(this.c.leaseDurationMs / 1000),
      renewTime: now,
      acquireTime: now,
      leaderTransitions: 0,
    };
    let current: Awaited<ReturnType<ResourceLock['get']>>;
    try {
      current = await this.c.lock.get();
    } catch (err) {
      this.c.onError?.(err);
      return false;
    }
    if (current === undefined) {
      try {
        await this.c.lock.create(record);
      } catch (err) {
        this.c.onError?.(err);
        return false;
      }
      this.observe(record, '', now);
      return true;
    }
    if (current.raw !== this.observedRaw) this.observe(current.record, current.raw, now);
    const old = current.record;
    const heldByUs = old.holderIdentity === this.c.identity;
    if (old.holderIdentity !== '' && this.observedTime + this.c.leaseDurationMs > now && !heldByUs) return false;
    if (heldByUs) {
      record.acquireTime = old.acquireTime;
      record.leaderTransitions = old.leaderTransitions;
    } else {
      record.leaderTransitions = old.leaderTransitions + 1;
    }
    try {
      await this.c.lock.update(record);
    } catch (err) {
      this.c.onError?.(err);
      return false;
    }
    this.observe(record, '', now);
    return true;
  }

  private observe(record: LeaderElectionRecord, raw: string, now: number): void {
    this.observedRecord = record;
    this.observedRaw = raw;
    this.observedTime = now;
    if (record.holderIdentity !== this.reportedLeader) {
      this.reportedLeader = record.holderIdentity;
      if (record.holderIdentity !== '') this.c.callbacks.onNewLeader?.(record.holderIdentity);
    }
  }

  /** client-go's release: an empty holder and a 1-second lease, so others take over at once. */
  private async release(): Promise<void> {
    if (this.observedRecord?.holderIdentity !== this.c.identity) return;
    const now = this.clock.now();
    try {
      await this.c.lock.update({
        holderIdentity: '',
        leaseDurationSeconds: 1,
        acquireTime: now,
        renewTime: now,
        leaderTransitions: this.observedRecord?.leaderTransitions ?? 0,
      });
      this.observedRecord = undefined;
    } catch (err) {
      this.c.onError?.(err);
    }
  }
}
