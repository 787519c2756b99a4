import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import type { Classification, FlowControl } from '../flowcontrol/controller.js';
import { compileFlowSchema } from '../flowcontrol/classifier.js';
import { QueueSet } from '../flowcontrol/queue-set.js';
import type { RequestInfo } from '../request-info.js';
import type { RequestState } from './chain.js';
import { withPriorityAndFairness } from './priority-and-fairness.js';

/** A FlowControl that puts every request in one level of `seats` seats (queueing when `queues` > 0). */
function oneLevel(seats: number, queues = 0, waitLimitMs = 1000): { fc: FlowControl; queueSet: QueueSet } {
  const queueSet = new QueueSet({ concurrencyLimit: seats, queues, handSize: Math.min(queues, 1), queueLengthLimit: 10 }, () => performance.now());
  const c: Classification = {
    flowSchema: compileFlowSchema({ metadata: { name: 'fs', uid: 'fs-uid' }, spec: { priorityLevelConfiguration: { name: 'pl' }, rules: [] } }),
    priorityLevel: { spec: { name: 'pl', uid: 'pl-uid', exempt: false, shares: 1, queues: 0, handSize: 0, queueLengthLimit: 0 }, queueSet },
    metrics: undefined,
  };
  return { fc: { classify: () => c, requestWaitLimitMs: waitLimitMs } as unknown as FlowControl, queueSet };
}

function stateOf(verb: string, subresource = '') {
  const headers = new Map<string, unknown>();
  const written: { code?: number; body?: string } = {};
  const res = Object.assign(new EventEmitter(), {
    setHeader: (k: string, v: unknown) => headers.set(k, v),
    writeHead(code: number) {
      written.code = code;
    },
    end(body?: string) {
      written.body = body;
    },
  });
  const info = {
    isResourceRequest: true,
    verb,
    subresource,
    resource: 'pods',
    namespace: 'ns',
    apiGroup: '',
    path: '/api/v1/namespaces/ns/pods',
  } as RequestInfo;
  return { state: { res, info, user: { name: 'u', groups: [] } } as unknown as RequestState, headers, written, res };
}

test("the matched objects' UIDs in the brand's headers", async () => {
  for (const [brand, prefix] of [
    [ORCH_BRAND, 'X-Orch'],
    [KUBERNETES_BRAND, 'X-Kubernetes'],
  ] as const) {
    const { fc } = oneLevel(1);
    const s = stateOf('get');
    await withPriorityAndFairness(fc, brand)(s.state, () => Promise.resolve());
    assert.equal(s.headers.get(`${prefix}-PF-FlowSchema-UID`), 'fs-uid');
    assert.equal(s.headers.get(`${prefix}-PF-PriorityLevel-UID`), 'pl-uid');
  }
});

test("a full level answers upstream's 429; the seat is free again when the request ends", async () => {
  const { fc, queueSet } = oneLevel(1);
  const filter = withPriorityAndFairness(fc, ORCH_BRAND);
  let finish: () => void = () => {};
  const first = filter(stateOf('get').state, () => new Promise<void>((r) => (finish = r)));
  assert.equal(queueSet.executing, 1);
  const second = stateOf('get');
  await filter(second.state, () => Promise.reject(new Error('must not run')));
  assert.equal(second.written.code, 429);
  assert.equal(second.written.body, 'Too many requests, please try again later.\n');
  finish();
  await first;
  assert.equal(queueSet.executing, 0);
});

test('a watch holds its seat until it starts streaming; exec and logs bypass APF', async () => {
  const { fc, queueSet } = oneLevel(1);
  const filter = withPriorityAndFairness(fc, ORCH_BRAND);
  const watch = stateOf('watch');
  let end: () => void = () => {};
  const streaming = filter(watch.state, () => {
    assert.equal(queueSet.executing, 1);
    (watch.res as { writeHead: (c: number) => void }).writeHead(200);
    return new Promise<void>((r) => (end = r));
  });
  assert.equal(queueSet.executing, 0);
  assert.equal(watch.written.code, 200);
  const exec = stateOf('create', 'exec');
  let ran = false;
  await filter(exec.state, async () => {
    ran = true;
  });
  assert.ok(ran);
  assert.equal(exec.headers.size, 0);
  end();
  await streaming;
  assert.equal(queueSet.executing, 0);
});

test('a wait past the limit is a 429; a client that leaves while waiting gets nothing and frees its place', async () => {
  const { fc, queueSet } = oneLevel(1, 1, 20);
  const filter = withPriorityAndFairness(fc, ORCH_BRAND);
  let finish: () => void = () => {};
  const running = filter(stateOf('get').state, () => new Promise<void>((r) => (finish = r)));
  const late = stateOf('get');
  await filter(late.state, () => Promise.reject(new Error('must not run')));
  assert.equal(late.written.code, 429);
  const leaving = stateOf('get');
  const left = filter(leaving.state, () => Promise.reject(new Error('must not run')));
  assert.equal(queueSet.waiting, 1);
  leaving.res.emit('close');
  await left;
  assert.equal(leaving.written.code, undefined);
  assert.equal(queueSet.waiting, 0);
  finish();
  await running;
});
