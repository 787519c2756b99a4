/**
 * The outgoing side of one watch: lines go to the socket while it drains, and wait in a bounded
 * queue of references (the encoded lines are shared by every watcher, never copied) while it
 * does not. A watcher whose queue passes its bound is ended: its client resumes from the last
 * resourceVersion it read, or re-lists. So a client that stops reading costs one array push per
 * event until it is cut, never a socket write, and never slows the other watchers or writers.
 */
import type { Response } from './http.js';
import type { MetricChild } from '../machinery/metrics.js';
import { watchEventCounter } from './metrics.js';

export interface WatchSinkOptions {
  /** Bytes of lines that may wait for the socket before the watcher is ended. */
  bufferBytes: number;
  /** Applied to each line when it is written (Table watches), not when it is queued. */
  encode?: (line: Buffer) => Buffer;
  /** Called once when the watcher is ended for falling behind. */
  onOverflow: () => void;
  /** After an overflow, how long the response may take to flush its last bytes before it is cut. */
  graceMs?: number;
}

/**
 * A response that is ended while its client reads nothing would hold its socket and unsent
 * bytes until the connection's own timeouts: after this long it is destroyed instead
 * (upstream's request timeout).
 */
const DEFAULT_GRACE_MS = 60_000;

/**
 * Bytes a watcher may have in its socket (or HTTP/2 stream) before further lines are queued
 * instead of written. Measured by writableLength, not by write()'s return value: an HTTP/2
 * stream sharing a busy session reports its writes done late, and a reader that is only a
 * moment behind must not be treated as stuck.
 */
const SOCKET_BYTES = 64 * 1024;

export class WatchSink {
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  /** While held (catching up), lines queue whatever the socket does. */
  private held = true;
  private listening = false;
  private over = false;
  private readonly onDrain = () => {
    this.listening = false;
    this.flush();
  };

  /** apiserver_watch_events_total of this watch's kind, when the metrics filter counts it. */
  private readonly events: MetricChild | undefined;

  constructor(
    private readonly res: Response,
    private readonly opts: WatchSinkOptions,
  ) {
    this.events = watchEventCounter(res);
  }

  /** True once the watcher was ended for falling behind. */
  get overflowed(): boolean {
    return this.over;
  }

  /**
   * Sends a line now if the socket keeps up, else queues it; false once the queue passed its
   * bound (the watcher is then ended and takes no more lines). A single line is always accepted,
   * whatever its size, so the largest object still reaches a watcher that keeps up.
   */
  push(line: Buffer): boolean {
    if (this.over) return false;
    if (!this.held) {
      if (this.queue.length > 0) this.flush();
      if (this.queue.length === 0 && this.res.writableLength < SOCKET_BYTES) {
        this.write(line);
        return true;
      }
    }
    this.queue.push(line);
    this.queuedBytes += line.length;
    if (this.queuedBytes > this.opts.bufferBytes && this.queue.length > 1) {
      this.overflow();
      return false;
    }
    if (!this.held) this.listen();
    return true;
  }

  /** Writes a line past the queue (the initial state), resolving once the socket can take more. */
  async send(line: Buffer, stop: Promise<unknown>): Promise<void> {
    if (!this.write(line)) await Promise.race([new Promise((resolve) => this.res.once('drain', resolve)), stop]);
  }

  /** Ends catching up: the queued lines go out, and later ones as the socket drains. */
  release(): void {
    this.held = false;
    this.flush();
    if (this.queue.length > 0) this.listen();
  }

  /** The watch is over: what is queued goes out after all (at most the bound), unless it overflowed. */
  finish(): void {
    this.held = false;
    for (const line of this.queue) if (!this.over && !this.res.destroyed) this.write(line);
    this.close();
  }

  /** Drops the queue and stops listening. */
  close(): void {
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.res.removeListener('drain', this.onDrain);
    this.listening = false;
  }

  private write(line: Buffer): boolean {
    this.events?.inc();
    return (this.res.write as (chunk: Buffer) => boolean)(this.opts.encode ? this.opts.encode(line) : line);
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.res.once('drain', this.onDrain);
  }

  /** Writes queued lines while the socket has room. */
  private flush(): void {
    // A stuck watcher's every event comes here: it must cost a comparison, not a cork.
    if (this.over || this.held || this.queue.length === 0 || this.res.writableLength >= SOCKET_BYTES) return;
    let i = 0;
    // Corked, so a burst goes out as one write instead of one per line.
    const corkable = this.res as { cork?: () => void; uncork?: () => void };
    corkable.cork?.();
    while (i < this.queue.length && this.res.writableLength < SOCKET_BYTES) {
      const line = this.queue[i++] as Buffer;
      this.queuedBytes -= line.length;
      this.write(line);
    }
    corkable.uncork?.();
    this.queue.splice(0, i);
    if (this.queue.length > 0) this.listen();
  }

  private overflow(): void {
    this.over = true;
    this.close();
    this.opts.onOverflow();
    const timer = setTimeout(() => this.res.destroy(), this.opts.graceMs ?? DEFAULT_GRACE_MS);
    timer.unref();
    this.res.once('close', () => clearTimeout(timer));
  }
}
