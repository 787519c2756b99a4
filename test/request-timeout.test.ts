/**
 * The request deadline (--request-timeout and the `timeout` parameter): a request that does not
 * finish in time is 504 Timeout with upstream's Status; watches are exempt; a malformed
 * `timeout` is 400.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

/**
 * The server's deadline: far enough from the shorter `timeout` parameter below and from the 3 s
 * wait for a future resourceVersion that the bounds hold on a machine busy with other work.
 */
const DEADLINE_MS = 1500;

let cluster: TestCluster;
before(async () => {
  cluster = await startTestCluster({ storageBackend: 'memory', requestTimeoutMs: DEADLINE_MS });
});
after(() => cluster.close());

// A resourceVersion the server has not reached makes a read wait up to 3 s for it: a slow request.
const FUTURE_RV = '/api/v1/namespaces/default/configmaps?resourceVersion=999999999';

test('a request past --request-timeout is answered 504 Timeout at the deadline', async () => {
  const started = Date.now();
  const res = await request(cluster, 'GET', FUTURE_RV);
  const took = Date.now() - started;
  assert.equal(res.status, 504);
  assert.deepEqual(res.json, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
    reason: 'Timeout',
    details: {},
    code: 504,
  });
  // The Timeout Status (not the future resourceVersion's answer at 3 s) shows the deadline ended it.
  assert.ok(took >= DEADLINE_MS - 50, `answered after ${took} ms`);
  // The server is fine afterwards.
  assert.equal((await request(cluster, 'GET', '/healthz')).status, 200);
});

test('a shorter timeout parameter wins; a longer one or 0s is the server maximum', async () => {
  let started = Date.now();
  assert.equal((await request(cluster, 'GET', `${FUTURE_RV}&timeout=100ms`)).status, 504);
  assert.ok(Date.now() - started < DEADLINE_MS - 300, 'the timeout parameter shortened the deadline');
  started = Date.now();
  assert.equal((await request(cluster, 'GET', `${FUTURE_RV}&timeout=1h`)).status, 504);
  assert.ok(Date.now() - started >= DEADLINE_MS - 50);
  assert.equal((await request(cluster, 'GET', '/api/v1/namespaces/default/configmaps?timeout=0s')).status, 200);
});

test('a malformed timeout parameter is 400 with upstream message', async () => {
  const res = await request(cluster, 'GET', '/api/v1/namespaces/default/configmaps?timeout=foo');
  assert.equal(res.status, 400);
  assert.equal(res.json.reason, 'BadRequest');
  assert.equal(res.json.message, 'invalid timeout specified in the request URL - time: invalid duration "foo"');
});

test('watches are long-running: not cut at the request timeout', async () => {
  const started = Date.now();
  const res = await request(cluster, 'GET', '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=2');
  assert.equal(res.status, 200);
  assert.ok(Date.now() - started >= 1950 && 1950 > DEADLINE_MS, 'the watch ran its own timeoutSeconds');
});
