/**
 * Group commit: writes submitted during one turn of the event loop are handed to `commit`
 * together, at the next setImmediate, so one transaction (and one fsync) serves all of them.
 * setImmediate rather than a microtask: it runs after this turn's I/O callbacks, so requests
 * that arrived in the same poll phase share the commit.
 */

export interface Pending<Op> {
  op: Op;
  resolve(revision: number): void;
  reject(err: unknown): void;
}

export class GroupCommit<Op> {
  private queue: Pending<Op>[] = [];
  private scheduled = false;
  private held = false;

  /**
   * @param commit applies a batch in one transaction and settles every pending in it.
   * @param maxBatch most ops per transaction, bounding how long one commit blocks the loop.
   */
  constructor(
    private readonly commit: (batch: Pending<Op>[]) => void,
    private readonly maxBatch: number,
  ) {}

  /** Number of writes waiting for the next commit. */
  get pending(): number {
    return this.queue.length;
  }

  /** Queues op; the promise settles after the transaction containing it commits (or fails). */
  submit(op: Op): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Nothing commits until release(); writes queue meanwhile (a WAL checkpoint is between its steps). */
  hold(): void {
    this.held = true;
  }

  /** Lets queued and new writes commit again. */
  release(): void {
    this.held = false;
    if (this.queue.length > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Fails every queued write with err (what made them wait cannot be undone). */
  rejectQueued(err: unknown): void {
    const queued = this.queue;
    this.queue = [];
    for (const p of queued) p.reject(err);
  }

  /** Commits everything queued now, synchronously (used by close, after any hold ended). */
  flushAll(): void {
    while (this.queue.length > 0) this.commitSome();
  }

  private flush(): void {
    this.scheduled = false;
    // release() schedules the flush that commits what waited.
    if (this.held || this.queue.length === 0) return;
    this.commitSome();
    if (this.queue.length > 0) {
      // Leftovers beyond maxBatch go next turn, letting reads and I/O in between.
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private commitSome(): void {
    let batch: Pending<Op>[];
    if (this.queue.length <= this.maxBatch) {
      batch = this.queue;
      this.queue = [];
    } else {
      batch = this.queue.slice(0, this.maxBatch);
      this.queue = this.queue.slice(this.maxBatch);
    }
    try {
      this.commit(batch);
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}
