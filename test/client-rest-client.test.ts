/**
 * client/'s REST client retries as client-go: a 429 after Retry-After for any verb (the server
 * did nothing), a 5xx only for idempotent verbs; a POST's 500 is returned to the caller. Its
 * watches frame events by line however the stream is chunked.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeApiServer } from './helpers/fake-api-server.js';

let server: FakeApiServer;

before(async () => {
  server = new FakeApiServer();
  await server.start();
});

after(async () => {
  await server.stop();
});

describe('REST client retries', () => {
  it('retries a 429 after the Retry-After it names', async () => {
    server.failNext = { status: 429, count: 1, retryAfter: '1' };
    const before = server.requests.length;
    const started = Date.now();
    const res = await server.client.request('POST', server.path, { metadata: { name: 'x' } });
    assert.equal(res.status, 200);
    assert.equal(server.requests.length - before, 2);
    assert.ok(Date.now() - started >= 950, 'waited for Retry-After');
  });

  it('retries 5xx for a GET with backoff until it succeeds', async () => {
    server.failNext = { status: 503, count: 2 };
    const res = await server.client.request('GET', server.path);
    assert.equal(res.status, 200);
    assert.equal(server.failNext.count, 0);
  });

  it('does not resend a POST that failed with 500', async () => {
    server.failNext = { status: 500, count: 1 };
    const before = server.requests.length;
    const res = await server.client.request('POST', server.path, {});
    assert.equal(res.status, 500);
    assert.equal(server.requests.length - before, 1);
  });
});

describe('REST client watch', () => {
  it('frames events one per line whether a chunk holds several or an event spans hundreds of chunks', async () => {
    const from = server.resourceVersion;
    server.put('small-1', 1);
    server.put('small-2', 2);
    // A 4 MiB name: the event arrives in many chunks (each searched once for its line end).
    const big = 'b'.repeat(4 * 1024 * 1024);
    server.put(big, 3);
    server.put('small-3', 4);
    const seen: { type: string; name: string; value: number }[] = [];
    let stopWatch: () => void = () => {};
    await server.client.watch(
      `${server.path}?watch=true&resourceVersion=${from}`,
      (e) => {
        const obj = e.object as { metadata: { name: string }; value: number };
        seen.push({ type: e.type, name: obj.metadata.name, value: obj.value });
        if (seen.length === 4) stopWatch();
      },
      (stop) => {
        stopWatch = stop;
      },
    );
    assert.deepEqual(seen, [
      { type: 'ADDED', name: 'small-1', value: 1 },
      { type: 'ADDED', name: 'small-2', value: 2 },
      { type: 'ADDED', name: big, value: 3 },
      { type: 'ADDED', name: 'small-3', value: 4 },
    ]);
  });
});
