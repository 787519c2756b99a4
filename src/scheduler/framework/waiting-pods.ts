/** Pods held at Permit until every waiting plugin allows them, one rejects, or a timeout fires. */
import type { Clock } from './clock.js';
import type { WaitingPod } from './handle.js';
import { Code, SUCCESS, Status } from './status.js';
import type { Pod } from './types.js';

export class WaitingPodImpl implements WaitingPod {
  private readonly pending: Map<string, () => void>;
  private settled = false;
  private resolve!: (s: Status) => void;
  /** Resolves with Success once allowed by all, or Unschedulable once rejected or timed out. */
  readonly done: Promise<Status>;

  constructor(
    readonly pod: Pod,
    timeoutsMs: ReadonlyMap<string, number>,
    clock: Clock,
  ) {
    this.done = new Promise((r) => {
      this.resolve = r;
    });
    this.pending = new Map();
    for (const [plugin, ms] of timeoutsMs) {
      this.pending.set(
        plugin,
        clock.setTimer(ms, () => this.reject(plugin, `rejected due to timeout after waiting ${ms / 1000}s at plugin ${plugin}`)),
      );
    }
  }

  pendingPlugins(): string[] {
    return [...this.pending.keys()];
  }

  allow(pluginName: string): void {
    const cancel = this.pending.get(pluginName);
    if (cancel === undefined || this.settled) return;
    cancel();
    this.pending.delete(pluginName);
    if (this.pending.size === 0) this.settle(SUCCESS);
  }

  reject(pluginName: string, message: string): void {
    if (this.settled) return;
    const s = new Status(Code.Unschedulable, [message]).withFailedPlugin(pluginName);
    this.settle(s);
  }

  private settle(s: Status): void {
    this.settled = true;
    for (const cancel of this.pending.values()) cancel();
    this.pending.clear();
    this.resolve(s);
  }
}
