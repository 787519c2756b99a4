import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withMaxInFlight } from './max-in-flight.js';
import type { RequestState } from './chain.js';
import type { RequestInfo } from '../request-info.js';
import type { UserInfo } from '../../machinery/user.js';

/** A response that records what was written. */
function recordingResponse() {
  const written: { code?: number; headers?: Record<string, unknown>; body?: string } = {};
  const res = {
    writeHead(code: number, headers: Record<string, unknown>) {
      written.code = code;
      written.headers = headers;
    },
    end(body: string) {
      written.body = body;
    },
  };
  return { res, written };
}

function stateOf(verb: string, user: UserInfo, extra: Partial<RequestInfo> = {}) {
  const { res, written } = recordingResponse();
  const info = { isResourceRequest: true, verb, subresource: '', ...extra } as RequestInfo;
  return { state: { res, info, user } as unknown as RequestState, written };
}

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const admin: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };

/** A handler that stays in flight until released. */
function held() {
  let release: () => void = () => {};
  const done = new Promise<void>((r) => {
    release = r;
  });
  return { next: () => done, release };
}

test('past the read-only limit a request is 429 with Retry-After and upstream plain-text body; mutating requests count apart', async () => {
  const filter = withMaxInFlight({ maxRequestsInflight: 2, maxMutatingRequestsInflight: 1 });
  const h = held();
  const first = [filter(stateOf('get', alice).state, h.next), filter(stateOf('list', alice).state, h.next)];
  const third = stateOf('get', alice);
  await filter(third.state, async () => assert.fail('the third read must not run'));
  assert.equal(third.written.code, 429);
  assert.equal(third.written.headers?.['retry-after'], '1');
  assert.equal(third.written.body, 'Too many requests, please try again later.\n');
  // The mutating budget is separate: one write still runs, the second is refused.
  const write = filter(stateOf('create', alice).state, h.next);
  const secondWrite = stateOf('patch', alice);
  await filter(secondWrite.state, async () => assert.fail('the second write must not run'));
  assert.equal(secondWrite.written.code, 429);
  h.release();
  await Promise.all([...first, write]);
  // Slots come back when requests finish, also when they fail.
  let ran = 0;
  await assert.rejects(filter(stateOf('get', alice).state, async () => Promise.reject(new Error('boom'))));
  await filter(stateOf('get', alice).state, async () => {
    ran++;
  });
  await filter(stateOf('get', alice).state, async () => {
    ran++;
  });
  assert.equal(ran, 2);
});

test('watches, long-running subresources and system:masters are not limited; 0 means no limit', async () => {
  const filter = withMaxInFlight({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 });
  const h = held();
  const busy = filter(stateOf('get', alice).state, h.next);
  let ran = 0;
  const count = async () => {
    ran++;
  };
  await filter(stateOf('watch', alice).state, count);
  await filter(stateOf('get', alice, { subresource: 'log' }).state, count);
  await filter(stateOf('get', admin).state, count);
  assert.equal(ran, 3);
  h.release();
  await busy;
  const unlimited = withMaxInFlight({ maxRequestsInflight: 0, maxMutatingRequestsInflight: 0 });
  const h2 = held();
  const many = Array.from({ length: 50 }, () => unlimited(stateOf('create', alice).state, h2.next));
  const last = stateOf('create', alice);
  await unlimited(last.state, count);
  assert.equal(last.written.code, undefined);
  h2.release();
  await Promise.all(many);
});
