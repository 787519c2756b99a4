/**
 * Priority levels as the dispatcher uses them: each stored PriorityLevelConfiguration digested
 * into its kind (exempt or limited), its share of the server's concurrency and its queueing, with
 * upstream's defaults (v1beta2 SetDefaults) for what the object leaves out.
 */
import { isPlainObject, metaOf, type Obj } from '../../machinery/object.js';
import { MAX_HAND_SIZE, validDealer } from './shuffle-sharding.js';

/** Upstream's defaults for a Limited level. */
const DEFAULT_SHARES = 30;
const DEFAULT_QUEUES = 64;
const DEFAULT_HAND_SIZE = 8;
const DEFAULT_QUEUE_LENGTH_LIMIT = 50;

export interface PriorityLevelSpec {
  name: string;
  uid: string;
  exempt: boolean;
  shares: number;
  /** 0: requests are rejected rather than queued when the level is full (LimitResponse Reject). */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

function positive(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback;
}

/** Digests a stored PriorityLevelConfiguration (v1beta2 shape). */
export function priorityLevelSpec(pl: Obj): PriorityLevelSpec {
  const meta = metaOf(pl);
  const spec = isPlainObject(pl.spec) ? pl.spec : {};
  const base = { name: meta.name ?? '', uid: meta.uid ?? '' };
  if (spec.type === 'Exempt') return { ...base, exempt: true, shares: 0, queues: 0, handSize: 0, queueLengthLimit: 0 };
  const limited = isPlainObject(spec.limited) ? spec.limited : {};
  const response = isPlainObject(limited.limitResponse) ? limited.limitResponse : {};
  const shares = positive(limited.assuredConcurrencyShares, DEFAULT_SHARES);
  if (response.type === 'Reject') return { ...base, exempt: false, shares, queues: 0, handSize: 0, queueLengthLimit: 0 };
  const queuing = isPlainObject(response.queuing) ? response.queuing : {};
  const queues = positive(queuing.queues, DEFAULT_QUEUES);
  // Validation keeps handSize within the deck and the dealer's bound; stored objects are not validated, so clamp.
  let handSize = Math.min(positive(queuing.handSize, DEFAULT_HAND_SIZE), queues, MAX_HAND_SIZE);
  while (handSize > 1 && !validDealer(queues, handSize)) handSize--;
  return { ...base, exempt: false, shares, queues, handSize, queueLengthLimit: positive(queuing.queueLengthLimit, DEFAULT_QUEUE_LENGTH_LIMIT) };
}

/**
 * Upstream's concurrency limits: each limited level gets ceil(serverLimit × shares / Σ shares)
 * seats, Σ over the limited levels (the exempt ones take no share).
 */
export function concurrencyLimits(levels: readonly PriorityLevelSpec[], serverConcurrencyLimit: number): Map<string, number> {
  let sum = 0;
  for (const l of levels) if (!l.exempt) sum += l.shares;
  const out = new Map<string, number>();
  for (const l of levels) if (!l.exempt) out.set(l.name, Math.ceil((serverConcurrencyLimit * l.shares) / sum));
  return out;
}
