import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueSet, type QueueSetConfig, type Ticket } from './queue-set.js';
import { deal, hashFlowID } from './shuffle-sharding.js';

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const ONE_SEAT: QueueSetConfig = { concurrencyLimit: 1, queues: 64, handSize: 8, queueLengthLimit: 50 };

test('a free seat with nobody waiting is taken at once; the next request waits for it', () => {
  const c = clock();
  const qs = new QueueSet(ONE_SEAT, c.now);
  const first = qs.enter('fs', 'alice');
  assert.equal(first.state, 'executing');
  const second = qs.enter('fs', 'alice');
  assert.equal(second.state, 'waiting');
  assert.equal(qs.waiting, 1);
  c.advance(10);
  qs.finish(first);
  assert.equal(second.state, 'executing');
  assert.equal(second.dispatchedAt - second.arrivedAt, 10);
  assert.equal(qs.executing, 1);
});

test("fair queuing: a flow that queued many requests delays another flow's one by at most a turn per queue of its hand", async () => {
  const c = clock();
  // The heavy flow spreads over the 4 queues of its hand (each request joins the shortest); the
  // light one's queue takes its turn among them, not after all 10.
  const qs = new QueueSet({ ...ONE_SEAT, handSize: 4 }, c.now);
  const order: string[] = [];
  const track = (flow: string, t: Ticket) => t.settled?.then((ok) => ok && order.push(flow));
  let running = qs.enter('fs', 'heavy');
  const heavy = Array.from({ length: 10 }, () => qs.enter('fs', 'heavy'));
  for (const t of heavy) track('heavy', t);
  c.advance(5);
  const light = qs.enter('fs', 'light');
  track('light', light);
  // Each request runs 100 ms; the light flow's one is served right after the one running.
  for (let i = 0; i < 11; i++) {
    c.advance(100);
    qs.finish(running);
    await Promise.resolve();
    running = [...heavy, light].find((t) => t.state === 'executing') as Ticket;
  }
  await new Promise((r) => setImmediate(r));
  const at = order.indexOf('light');
  assert.ok(at >= 0 && at <= 4, order.join(','));
});

test('two busy flows in different queues take turns', () => {
  const c = clock();
  // One card per hand, so each flow has one queue; 'a' and 'b' are dealt different ones.
  const config = { concurrencyLimit: 1, queues: 64, handSize: 1, queueLengthLimit: 50 };
  assert.notDeepEqual(deal(hashFlowID('fs', 'a'), 64, 1), deal(hashFlowID('fs', 'b'), 64, 1));
  const qs = new QueueSet(config, c.now);
  let running = qs.enter('fs', 'a');
  const waiting: [string, Ticket][] = [];
  for (let i = 0; i < 4; i++) waiting.push(['a', qs.enter('fs', 'a')], ['b', qs.enter('fs', 'b')]);
  const served: string[] = [];
  for (let i = 0; i < 8; i++) {
    c.advance(50);
    qs.finish(running);
    const next = waiting.find(([, t]) => t.state === 'executing') as [string, Ticket];
    waiting.splice(waiting.indexOf(next), 1);
    served.push(next[0]);
    running = next[1];
  }
  // b's queue was idle when a's request started, so b goes first; then they alternate.
  assert.deepEqual(served, ['b', 'a', 'b', 'a', 'b', 'a', 'b', 'a']);
});

test('a full queue rejects (queue-full); a level that does not queue rejects when full (concurrency-limit)', () => {
  const c = clock();
  const qs = new QueueSet({ concurrencyLimit: 1, queues: 1, handSize: 1, queueLengthLimit: 2 }, c.now);
  assert.equal(qs.enter('fs', 'x').state, 'executing');
  assert.equal(qs.enter('fs', 'x').state, 'waiting');
  assert.equal(qs.enter('fs', 'y').state, 'waiting');
  const third = qs.enter('fs', 'z');
  assert.equal(third.state, 'rejected');
  assert.equal(third.reason, 'queue-full');

  const reject = new QueueSet({ concurrencyLimit: 2, queues: 0, handSize: 0, queueLengthLimit: 0 }, c.now);
  const a = reject.enter('fs', 'x');
  assert.equal(reject.enter('fs', 'x').state, 'executing');
  const over = reject.enter('fs', 'x');
  assert.equal(over.state, 'rejected');
  assert.equal(over.reason, 'concurrency-limit');
  reject.finish(a);
  assert.equal(reject.enter('fs', 'x').state, 'executing');
});

test('an abandoned wait (time-out, cancelled) leaves the queue and settles false', async () => {
  const c = clock();
  const qs = new QueueSet(ONE_SEAT, c.now);
  const running = qs.enter('fs', 'a');
  const waiting = qs.enter('fs', 'a');
  const behind = qs.enter('fs', 'b');
  c.advance(15_000);
  qs.abandon(waiting, 'time-out');
  assert.equal(await waiting.settled, false);
  assert.equal(waiting.reason, 'time-out');
  assert.equal(waiting.settledAt - waiting.arrivedAt, 15_000);
  assert.equal(qs.waiting, 1);
  qs.finish(running);
  assert.equal(await behind.settled, true);
});

test('reconfiguring keeps waiting requests and applies the new limit', async () => {
  const c = clock();
  const qs = new QueueSet(ONE_SEAT, c.now);
  qs.enter('fs', 'a');
  const waiting = qs.enter('fs', 'b');
  qs.reconfigure({ ...ONE_SEAT, concurrencyLimit: 2, queues: 16, handSize: 4 });
  assert.equal(await waiting.settled, true);
  assert.equal(qs.limit, 2);
});
