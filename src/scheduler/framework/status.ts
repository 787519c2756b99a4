/**
 * The result of running a plugin, as upstream's framework.Status: a code, the reasons that end
 * up (counted) in FailedScheduling messages, and the plugin that failed. Success is one shared
 * frozen value so the hot path allocates nothing.
 */

export enum Code {
  Success = 0,
  Error = 1,
  /** The pod does not fit now; preemption or a cluster change may help. */
  Unschedulable = 2,
  /** The pod does not fit and preemption cannot help on this node. */
  UnschedulableAndUnresolvable = 3,
  /** Permit only: hold the pod until allowed or rejected. */
  Wait = 4,
  /** PreFilter/PreScore: the plugin has nothing to do for this pod; its Filter/Score are skipped. */
  Skip = 5,
}

const CODE_NAMES = ['Success', 'Error', 'Unschedulable', 'UnschedulableAndUnresolvable', 'Wait', 'Skip'];

export class Status {
  /** Set by the runtime to the plugin that returned this status (copy-on-write for SUCCESS). */
  failedPlugin: string | undefined;

  constructor(
    readonly code: Code,
    readonly reasons: readonly string[] = [],
    /** The underlying error of an Error status, for logs. */
    readonly error?: Error,
  ) {}

  isSuccess(): boolean {
    return this.code === Code.Success;
  }

  /** Unschedulable or UnschedulableAndUnresolvable. */
  isUnschedulable(): boolean {
    return this.code === Code.Unschedulable || this.code === Code.UnschedulableAndUnresolvable;
  }

  isSkip(): boolean {
    return this.code === Code.Skip;
  }

  isWait(): boolean {
    return this.code === Code.Wait;
  }

  /** Reasons joined with ", " (upstream's Status.Message). */
  message(): string {
    return this.reasons.join(', ');
  }

  codeName(): string {
    return CODE_NAMES[this.code] ?? `Unknown(${this.code})`;
  }

  /** This status as an Error (the message, or the wrapped error). */
  asError(): Error {
    return this.error ?? new Error(this.message());
  }

  /** A copy recording which plugin produced it (never mutates shared statuses). */
  withFailedPlugin(name: string): Status {
    const s = new Status(this.code, this.reasons, this.error);
    s.failedPlugin = name;
    return s;
  }

  toString(): string {
    return `${this.codeName()}: ${this.message()}`;
  }
}

/** The one success status; plugins return it instead of allocating. */
export const SUCCESS: Status = Object.freeze(new Status(Code.Success)) as Status;

/** Unschedulable with reasons (the words counted in FailedScheduling). */
export function unschedulable(...reasons: string[]): Status {
  return new Status(Code.Unschedulable, reasons);
}

/** UnschedulableAndUnresolvable with reasons: preemption will not try this node. */
export function unresolvable(...reasons: string[]): Status {
  return new Status(Code.UnschedulableAndUnresolvable, reasons);
}

/** An Error status for an internal failure (not the pod's fault). */
export function errorStatus(err: unknown): Status {
  const e = err instanceof Error ? err : new Error(String(err));
  return new Status(Code.Error, [e.message], e);
}

/** Skip: the plugin's later extension points have nothing to do for this pod. */
export const SKIP: Status = Object.freeze(new Status(Code.Skip)) as Status;
