/**
 * One priority level's queues and seats (upstream's fairqueuing/queueset): a request is dealt a
 * hand of queues by its flow (shuffle sharding), joins the shortest of them unless it is full,
 * and queues are served by fair queuing in virtual time: each queue's next request starts at
 * virtual time `nextDispatchR`, which advances by the seat-seconds its requests use, and the
 * queue with the smallest one is served next. Virtual time R runs at
 * min(seats requested, limit) / active queues, so a queue that was idle starts at "now" and
 * cannot claim credit for its idleness. Every request takes one seat (upstream estimates wider
 * seats for large lists; orch does not). Levels that do not queue (LimitResponse Reject, zero
 * queues) serve a request when a seat is free and reject it otherwise.
 */
import { deal, hashFlowID } from './shuffle-sharding.js';

/**
 * Upstream's estimated service duration G: a dispatched request advances its queue's virtual
 * start by G seat-seconds, corrected by the actual duration when it finishes.
 */
const ESTIMATED_SERVICE_SECONDS = 0.003;
/** Hands are cached per flow; the cache is dropped whole when it grows past this (a bound on memory, not on correctness). */
const HAND_CACHE_LIMIT = 10_000;

export interface QueueSetConfig {
  /** Seats the level may use at once. */
  concurrencyLimit: number;
  /** 0: the level does not queue (LimitResponse Reject). */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

/** Upstream's rejection reasons (the `reason` label of apiserver_flowcontrol_rejected_requests_total). */
export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

interface Queue {
  index: number;
  waiting: Ticket[];
  executing: number;
  nextDispatchR: number;
}

/** A request's place in the level, from its arrival to its end. */
export class Ticket {
  /** Set once: 'executing' when it holds a seat, 'rejected' when it never will. */
  state: 'waiting' | 'executing' | 'rejected' | 'finished' = 'waiting';
  reason: RejectReason | undefined;
  /** When it was dispatched (ms, the set's clock). */
  dispatchedAt = 0;
  /** When it stopped waiting, dispatched or rejected (ms, the set's clock). */
  settledAt = 0;
  /** Resolves when a waiting ticket is dispatched (true) or rejected (false). */
  settled: Promise<boolean> | undefined;
  resolve: ((dispatched: boolean) => void) | undefined;
  constructor(
    readonly queue: Queue | undefined,
    readonly arrivedAt: number,
  ) {}
}

/** A priority level's queues; every method runs synchronously (the event loop is the lock). */
export class QueueSet {
  private queues: Queue[] = [];
  /** Hands by flow schema, then distinguisher (nested: no key string built per request). */
  private handCache = new Map<string, Map<string, number[]>>();
  private handCount = 0;
  private currentR = 0;
  private lastRealTime: number;
  private seatsInUse = 0;
  private waitingCount = 0;
  private activeQueues = 0;
  private robinIndex = -1;

  constructor(
    private config: QueueSetConfig,
    private readonly now: () => number,
  ) {
    this.lastRealTime = now();
    this.resize();
  }

  /** Seats in use and requests waiting, for metrics and tests. */
  get executing(): number {
    return this.seatsInUse;
  }
  get waiting(): number {
    return this.waitingCount;
  }
  get limit(): number {
    return this.config.concurrencyLimit;
  }

  /** Applies a new configuration; queued and executing requests stay where they are. */
  reconfigure(config: QueueSetConfig): void {
    this.syncTime();
    if (config.queues !== this.config.queues || config.handSize !== this.config.handSize) this.clearHands();
    this.config = config;
    this.resize();
    this.dispatchAsMuchAsPossible();
  }

  /** Keeps at least `queues` queues; queues past the count are dropped once idle (their requests are still served). */
  private resize(): void {
    while (this.queues.length < this.config.queues) this.queues.push({ index: this.queues.length, waiting: [], executing: 0, nextDispatchR: this.currentR });
    while (this.queues.length > this.config.queues) {
      const last = this.queues[this.queues.length - 1];
      if (last.waiting.length > 0 || last.executing > 0) break;
      this.queues.pop();
    }
  }

  /**
   * Admits a request of a flow: executing at once when a seat is free and nobody waits ahead,
   * rejected when the level does not queue and is full or the chosen queue is full, else waiting
   * (its `settled` promise says how it ends).
   */
  enter(flowSchema: string, distinguisher: string): Ticket {
    const now = this.now();
    this.syncTime(now);
    if (this.config.queues === 0) {
      const ticket = new Ticket(undefined, now);
      if (this.seatsInUse + 1 > this.config.concurrencyLimit) return this.reject(ticket, 'concurrency-limit');
      this.seatsInUse++;
      ticket.state = 'executing';
      ticket.dispatchedAt = now;
      ticket.settledAt = now;
      return ticket;
    }
    const queue = this.chooseQueue(flowSchema, distinguisher);
    const ticket = new Ticket(queue, now);
    if (queue.waiting.length >= this.config.queueLengthLimit) return this.reject(ticket, 'queue-full');
    if (queue.waiting.length === 0 && queue.executing === 0) {
      // An idle queue starts at the present: it gets no credit for the time it was idle.
      queue.nextDispatchR = this.currentR;
      this.activeQueues++;
    }
    if (this.waitingCount === 0 && this.seatsInUse < this.config.concurrencyLimit) {
      this.dispatch(queue, ticket, now);
      return ticket;
    }
    queue.waiting.push(ticket);
    this.waitingCount++;
    ticket.settled = new Promise((resolve) => {
      ticket.resolve = resolve;
    });
    this.dispatchAsMuchAsPossible();
    return ticket;
  }

  /** Ends an executing request: its seat is free and the next waiting request may start. */
  finish(ticket: Ticket): void {
    if (ticket.state !== 'executing') return;
    ticket.state = 'finished';
    const now = this.now();
    this.syncTime(now);
    this.seatsInUse--;
    const queue = ticket.queue;
    if (queue) {
      queue.executing--;
      // Upstream corrects the estimate G by the actual service time, seat-seconds for one seat.
      queue.nextDispatchR -= ESTIMATED_SERVICE_SECONDS - (now - ticket.dispatchedAt) / 1000;
      if (queue.waiting.length === 0 && queue.executing === 0) this.activeQueues--;
    }
    this.dispatchAsMuchAsPossible();
    if (this.queues.length > this.config.queues) this.resize();
  }

  /** Takes a waiting request out of its queue (timed out in the queue, or its client went away). */
  abandon(ticket: Ticket, reason: 'time-out' | 'cancelled'): void {
    if (ticket.state !== 'waiting' || !ticket.queue) return;
    this.syncTime();
    const queue = ticket.queue;
    const at = queue.waiting.indexOf(ticket);
    if (at >= 0) queue.waiting.splice(at, 1);
    this.waitingCount--;
    if (queue.waiting.length === 0 && queue.executing === 0) this.activeQueues--;
    this.reject(ticket, reason);
  }

  private reject(ticket: Ticket, reason: RejectReason): Ticket {
    ticket.state = 'rejected';
    ticket.settledAt = this.now();
    ticket.reason = reason;
    ticket.resolve?.(false);
    return ticket;
  }

  /** The least loaded queue of the flow's hand (waiting plus executing; ties: the first dealt). */
  private chooseQueue(flowSchema: string, distinguisher: string): Queue {
    let hands = this.handCache.get(flowSchema);
    let hand = hands?.get(distinguisher);
    if (hand === undefined) {
      if (this.handCount >= HAND_CACHE_LIMIT) this.clearHands();
      hand = deal(hashFlowID(flowSchema, distinguisher), this.config.queues, Math.min(this.config.handSize, this.config.queues));
      if (hands === undefined || this.handCount === 0) {
        hands = this.handCache.get(flowSchema) ?? new Map<string, number[]>();
        this.handCache.set(flowSchema, hands);
      }
      hands.set(distinguisher, hand);
      this.handCount++;
    }
    let best = this.queues[hand[0]];
    let bestLoad = best.waiting.length + best.executing;
    for (let i = 1; i < hand.length; i++) {
      const q = this.queues[hand[i]];
      const load = q.waiting.length + q.executing;
      if (load < bestLoad) {
        best = q;
        bestLoad = load;
      }
    }
    return best;
  }

  private clearHands(): void {
    this.handCache.clear();
    this.handCount = 0;
  }

  /** Advances virtual time to now at upstream's rate: min(seats requested, limit) per active queue. */
  private syncTime(now = this.now()): void {
    const elapsed = (now - this.lastRealTime) / 1000;
    this.lastRealTime = now;
    if (this.activeQueues === 0 || elapsed <= 0) return;
    const requested = this.seatsInUse + this.waitingCount;
    this.currentR += (elapsed * Math.min(requested, this.config.concurrencyLimit)) / this.activeQueues;
  }

  private dispatch(queue: Queue, ticket: Ticket, now: number): void {
    queue.executing++;
    this.seatsInUse++;
    queue.nextDispatchR += ESTIMATED_SERVICE_SECONDS;
    ticket.state = 'executing';
    ticket.dispatchedAt = now;
    ticket.settledAt = now;
  }

  /** Serves waiting requests while seats are free: each time the queue whose next request starts earliest in virtual time. */
  private dispatchAsMuchAsPossible(): void {
    if (this.waitingCount === 0) return;
    const now = this.now();
    while (this.waitingCount > 0 && this.seatsInUse < this.config.concurrencyLimit) {
      const queue = this.nextQueue();
      if (!queue) return;
      const ticket = queue.waiting.shift() as Ticket;
      this.waitingCount--;
      this.dispatch(queue, ticket, now);
      ticket.resolve?.(true);
    }
  }

  /** The non-empty queue with the smallest nextDispatchR, scanning round-robin from the last one served so ties rotate. */
  private nextQueue(): Queue | undefined {
    const n = this.queues.length;
    let best: Queue | undefined;
    for (let i = 1; i <= n; i++) {
      const q = this.queues[(this.robinIndex + i) % n];
      if (q.waiting.length > 0 && (best === undefined || q.nextDispatchR < best.nextDispatchR)) best = q;
    }
    if (best) this.robinIndex = best.index;
    return best;
  }
}
