/**
 * Upstream's WithPriorityAndFairness: after authentication and impersonation, each request is
 * classified by FlowSchema into a priority level, answers with the matched objects' UIDs in
 * `X-<Vendor>-PF-FlowSchema-UID` / `-PriorityLevel-UID`, and then executes at once (exempt
 * levels, or a free seat with nobody waiting), waits in its flow's queue for a seat, or is
 * rejected with upstream's 429 (queue full, level full for levels that do not queue, or a wait
 * past the limit). Metrics as upstream records them: every request dispatched or rejected, the
 * wait of every request of a limited level. Long-running requests other than watches bypass
 * it, as upstream; a watch holds its seat only until it has started (its response headers are
 * written) — upstream's watch initialization, simplified.
 */
import type { Brand } from '../../machinery/brand.js';
import type { UserInfo } from '../../machinery/user.js';
import type { Classification, FlowControl } from '../flowcontrol/controller.js';
import { flowDistinguisher } from '../flowcontrol/classifier.js';
import type { QueueSet, Ticket } from '../flowcontrol/queue-set.js';
import type { Response } from '../http.js';
import type { Filter, Handler, RequestState } from './chain.js';
import { isLongRunning } from './long-running.js';
import { type RequestKind, requestKind, tooManyRequests } from './max-in-flight.js';

/** A request without a user (authentication off) is nobody in particular: it matches only `*` subjects. */
const NO_USER: UserInfo = { name: '', groups: [] };

/** onDropped: upstream's filter also counts each rejection in apiserver_dropped_requests_total. */
export function withPriorityAndFairness(flowControl: FlowControl, brand: Brand, onDropped: (kind: RequestKind) => void = () => {}): Filter {
  const flowSchemaHeader = `${brand.headerPrefix}-PF-FlowSchema-UID`;
  const priorityLevelHeader = `${brand.headerPrefix}-PF-PriorityLevel-UID`;
  return (state, next) => {
    const info = state.info;
    const watch = info.verb === 'watch';
    if (!watch && isLongRunning(info)) return next(state);
    const user = state.user ?? NO_USER;
    const c = flowControl.classify(user, info);
    const res = state.res;
    res.setHeader(flowSchemaHeader, c.flowSchema.uid);
    res.setHeader(priorityLevelHeader, c.priorityLevel.spec.uid);
    const queueSet = c.priorityLevel.queueSet;
    if (queueSet === undefined) {
      // Exempt: counted as dispatched, as upstream's immediate requests are; no seat, no wait.
      c.metrics?.dispatched.inc();
      return next(state);
    }
    const ticket = queueSet.enter(c.flowSchema.name, flowDistinguisher(c.flowSchema, user, info));
    if (ticket.state === 'executing') {
      c.metrics?.waitExecuted.observe(0);
      return execute(c, queueSet, ticket, state, next, watch);
    }
    const kind = requestKind(info.verb);
    if (ticket.state === 'rejected') {
      c.metrics?.waitRejected.observe(0);
      onDropped(kind);
      return reject(c, ticket, res);
    }
    return wait(c, queueSet, ticket, res, flowControl.requestWaitLimitMs).then((dispatched) => {
      if (dispatched) return execute(c, queueSet, ticket, state, next, watch);
      onDropped(kind);
      return reject(c, ticket, res);
    });
  };
}

function reject(c: Classification, ticket: Ticket, res: Response): Promise<void> {
  c.metrics?.rejected(ticket.reason ?? 'queue-full');
  // A client that went away while waiting gets no answer.
  if (ticket.reason !== 'cancelled') tooManyRequests(res);
  return Promise.resolve();
}

/** Waits for the ticket's seat, abandoning the wait at the limit or when the client goes away. */
function wait(c: Classification, queueSet: QueueSet, ticket: Ticket, res: Response, limitMs: number): Promise<boolean> {
  const m = c.metrics;
  m?.inQueue.inc();
  const timer = setTimeout(() => queueSet.abandon(ticket, 'time-out'), limitMs);
  // Listeners are added only for requests that wait, and removed however the wait ends.
  const onClose = () => queueSet.abandon(ticket, 'cancelled');
  res.once('close', onClose);
  return (ticket.settled as Promise<boolean>).then((dispatched) => {
    clearTimeout(timer);
    res.off('close', onClose);
    m?.inQueue.add(-1);
    const waitedMs = ticket.settledAt - ticket.arrivedAt;
    (dispatched ? m?.waitExecuted : m?.waitRejected)?.observe(Math.max(waitedMs, 0) / 1000);
    return dispatched;
  });
}

/** Runs the rest of the chain in the seat; the seat is given back when it ends (a watch: when it has started). */
function execute(c: Classification, queueSet: QueueSet, ticket: Ticket, state: RequestState, next: Handler, watch: boolean): Promise<void> {
  const m = c.metrics;
  m?.dispatched.inc();
  m?.executing.inc();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    m?.executing.add(-1);
    queueSet.finish(ticket);
  };
  if (watch) releaseOnStart(state.res, release);
  try {
    return next(state).finally(release);
  } catch (err) {
    release();
    throw err;
  }
}

/** Calls release when the response's headers are written (the watch is registered and streaming). */
function releaseOnStart(res: Response, release: () => void): void {
  const writable = res as { writeHead: (...args: unknown[]) => unknown };
  const original = writable.writeHead;
  writable.writeHead = function (this: unknown, ...args: unknown[]) {
    writable.writeHead = original;
    release();
    return original.apply(this, args);
  };
}
