/**
 * Upstream's `wait.UntilWithContext(ctx, sched.scheduleOne, 0)`: schedule while pods are ready,
 * otherwise sleep until an informer event wakes the loop, the earliest backoff ends, or a
 * second passes (the queue's periodic flush of backoff and long-unschedulable pods). Each
 * cycle yields to the event loop so watch events keep flowing while a backlog is scheduled.
 */
import type { Clock } from '../framework/clock.js';
import type { Scheduler } from '../scheduler.js';

const FLUSH_INTERVAL_MS = 1000;

export class SchedulingLoop {
  private wakeUp: (() => void) | undefined;
  private stopped = false;
  private running: Promise<void> | undefined;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Something changed that may make a pod ready: stop sleeping. */
  wake(): void {
    const w = this.wakeUp;
    this.wakeUp = undefined;
    w?.();
  }

  start(): void {
    this.running ??= this.run();
  }

  /** Stops after the cycle in progress; waits for binding cycles in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.running;
    await this.scheduler.settle();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let progressed = false;
      try {
        progressed = await this.scheduler.scheduleOne();
      } catch (err) {
        this.onError(err);
      }
      if (progressed) {
        await new Promise<void>((r) => setImmediate(r));
        continue;
      }
      await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    const next = this.scheduler.queue.nextBackoffExpiry();
    const ms = Math.min(FLUSH_INTERVAL_MS, next === undefined ? FLUSH_INTERVAL_MS : Math.max(0, next - this.clock.now()));
    return new Promise((resolve) => {
      const cancel = this.clock.setTimer(ms, () => this.wake());
      this.wakeUp = () => {
        cancel();
        resolve();
      };
    });
  }
}
