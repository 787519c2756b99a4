/**
 * The watch stream against a small HTTP/2 server speaking etcd's Watch service (its messages
 * encoded by protobufjs from etcd's .proto, as the etcd3 package would): watchers share one
 * stream and get their own responses, a cancel reaches etcd, a lost stream is created again from
 * where each watcher says it is, and a watcher etcd cancels is not.
 */
import assert from 'node:assert/strict';
import { createServer, type Http2Session, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { after, describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { EtcdClient } from './etcd-client.js';
import { FrameReader, GRPC_FRAME_HEADER_BYTES, writeFrameHeader } from './grpc-frame.js';
import { decodeWatchResponse, encodeWatchCancelRequest, encodeWatchCreateRequest, type WatchResponse } from './watch-messages.js';

const require = createRequire(import.meta.url);
const root = new protobuf.Root().loadSync(require.resolve('etcd3/proto/rpc.proto'), { keepCase: true });
const WatchRequest = root.lookupType('etcdserverpb.WatchRequest');
const WatchResponseType = root.lookupType('etcdserverpb.WatchResponse');
const asObject = { longs: Number, enums: String, bytes: String, defaults: true, oneofs: true } as const;

function frame(message: Uint8Array): Buffer {
  const f = Buffer.alloc(GRPC_FRAME_HEADER_BYTES + message.length);
  writeFrameHeader(f, message.length);
  f.set(message, GRPC_FRAME_HEADER_BYTES);
  return f;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An etcd stand-in: records watch requests, numbers watchers per stream, sends what tests ask. */
async function fakeWatchServer() {
  const requests: Record<string, unknown>[] = [];
  const streams: ServerHttp2Stream[] = [];
  const headers: Record<string, unknown>[] = [];
  const sessions = new Set<Http2Session>();
  const server = createServer();
  server.on('session', (s) => sessions.add(s));
  server.on('stream', (stream, h) => {
    headers.push(h);
    streams.push(stream);
    let nextId = 0;
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
    stream.on('error', () => {});
    const reader = new FrameReader(1 << 20, (m) => {
      const req = WatchRequest.toObject(WatchRequest.decode(m), asObject);
      requests.push(req);
      if (req.request_union === 'create_request') {
        stream.write(frame(WatchResponseType.encode(WatchResponseType.fromObject({ header: { revision: 10 }, watch_id: nextId++, created: true })).finish()));
      }
    });
    stream.on('data', (c: Buffer) => reader.push(c));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    streams,
    headers,
    send(stream: ServerHttp2Stream, res: Record<string, unknown>) {
      stream.write(frame(WatchResponseType.encode(WatchResponseType.fromObject(res)).finish()));
    },
    dropConnections() {
      for (const s of sessions) s.destroy();
      sessions.clear();
    },
    close: () => {
      for (const s of sessions) s.destroy();
      server.close();
    },
  };
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await delay(10);
  assert.ok(cond(), what);
}

describe('etcd watch stream', () => {
  const cleanups: (() => void)[] = [];
  after(() => {
    for (const c of cleanups) c();
  });

  it('shares one stream among watchers, each getting its own responses; a cancel reaches etcd', async () => {
    const etcd = await fakeWatchServer();
    const client = new EtcdClient({ servers: [etcd.url], callTimeoutMs: 2000, dialTimeoutMs: 2000 });
    cleanups.push(() => client.close(), etcd.close);
    const got: Record<string, WatchResponse[]> = { a: [], b: [] };
    const target = (name: string, key: string) => ({
      request: () => ({ key: Buffer.from(key), range_end: Buffer.from(`${key}0`), start_revision: 5, prev_kv: true, progress_notify: true }),
      onResponse: (res: WatchResponse) => got[name].push(res),
    });
    client.watch(target('a', '/a/'));
    const cancelB = client.watch(target('b', '/b/'));
    await until(() => got.a.length === 1 && got.b.length === 1, 'both created');
    assert.equal(etcd.streams.length, 1, 'one stream');
    assert.equal(etcd.headers[0][':path'], '/etcdserverpb.Watch/Watch');
    assert.equal(etcd.headers[0].hasleader, 'true');
    const create = etcd.requests[0].create_request as Record<string, unknown>;
    assert.equal(create.key, Buffer.from('/a/').toString('base64'));
    assert.equal(create.range_end, Buffer.from('/a/0').toString('base64'));
    assert.equal(create.start_revision, 5);
    assert.equal(create.prev_kv, true);
    assert.equal(create.progress_notify, true);

    etcd.send(etcd.streams[0], {
      header: { revision: 12 },
      watch_id: 1,
      events: [
        { type: 1, kv: { key: Buffer.from('/b/x'), mod_revision: 12 }, prev_kv: { key: Buffer.from('/b/x'), value: Buffer.from('old'), mod_revision: 11 } },
      ],
    });
    await until(() => got.b.length === 2, 'the event for b');
    assert.equal(got.a.length, 1);
    const ev = got.b[1].events[0];
    assert.equal(ev.type, 'Delete');
    assert.equal(ev.kv.mod_revision, 12);
    assert.equal(ev.prev_kv?.value.toString(), 'old');

    cancelB();
    await until(() => etcd.requests.some((r) => r.request_union === 'cancel_request'), 'a cancel request');
    const cancel = etcd.requests.find((r) => r.request_union === 'cancel_request');
    assert.equal((cancel?.cancel_request as { watch_id?: number } | undefined)?.watch_id, 1);
  });

  it('creates its watchers again on a new stream, from where each says it is, after the stream is lost', async () => {
    const etcd = await fakeWatchServer();
    const client = new EtcdClient({ servers: [etcd.url], callTimeoutMs: 2000, dialTimeoutMs: 2000 });
    cleanups.push(() => client.close(), etcd.close);
    let resumeAt = 5;
    const responses: WatchResponse[] = [];
    client.watch({ request: () => ({ key: Buffer.from('/k/'), start_revision: resumeAt }), onResponse: (r) => responses.push(r) });
    await until(() => responses.length === 1, 'created');
    resumeAt = 9;
    etcd.dropConnections();
    await until(() => etcd.streams.length === 2 && responses.length === 2, 'created again');
    const creates = etcd.requests
      .filter((r) => r.request_union === 'create_request')
      .map((r) => (r.create_request as { start_revision: number }).start_revision);
    assert.deepEqual(creates, [5, 9]);
  });

  it('forgets a watcher etcd cancels (compacted start revision): not created again after a lost stream', async () => {
    const etcd = await fakeWatchServer();
    const client = new EtcdClient({ servers: [etcd.url], callTimeoutMs: 2000, dialTimeoutMs: 2000 });
    cleanups.push(() => client.close(), etcd.close);
    const responses: WatchResponse[] = [];
    client.watch({ request: () => ({ key: Buffer.from('/k/'), start_revision: 2 }), onResponse: (r) => responses.push(r) });
    await until(() => responses.length === 1, 'created');
    etcd.send(etcd.streams[0], { header: { revision: 20 }, watch_id: 0, canceled: true, compact_revision: 15 });
    await until(() => responses.length === 2, 'canceled');
    assert.equal(responses[1].canceled, true);
    assert.equal(responses[1].compact_revision, 15);
    etcd.dropConnections();
    await delay(300);
    assert.equal(etcd.requests.filter((r) => r.request_union === 'create_request').length, 1);
  });
});

describe('etcd watch messages', () => {
  it('encode create and cancel requests as etcd reads them', () => {
    const create = WatchRequest.toObject(
      WatchRequest.decode(
        encodeWatchCreateRequest({ key: Buffer.from('/r/'), range_end: Buffer.from('/r0'), start_revision: 2 ** 45, prev_kv: true }).subarray(5),
      ),
      asObject,
    );
    assert.equal(create.request_union, 'create_request');
    assert.equal(create.create_request.start_revision, 2 ** 45);
    assert.equal(create.create_request.prev_kv, true);
    assert.equal(create.create_request.progress_notify, false);
    for (const id of [0, 1, 300]) {
      const cancel = WatchRequest.toObject(WatchRequest.decode(encodeWatchCancelRequest(id).subarray(5)), asObject);
      assert.equal(cancel.request_union, 'cancel_request', `id ${id}`);
      assert.equal(cancel.cancel_request.watch_id, id);
    }
  });

  it('decode responses with puts, deletes, previous values, and a cancel with its reason', () => {
    const res = decodeWatchResponse(
      Buffer.from(
        WatchResponseType.encode(
          WatchResponseType.fromObject({
            header: { revision: 30, raft_term: 2 },
            watch_id: 7,
            compact_revision: 4,
            events: [
              {
                type: 0,
                kv: { key: Buffer.from('/a'), value: Buffer.from('v2'), create_revision: 3, mod_revision: 29, version: 2, lease: '7587869812345678901' },
              },
              { type: 1, kv: { key: Buffer.from('/b'), mod_revision: 30 } },
            ],
          }),
        ).finish(),
      ),
    );
    assert.equal(res.header.revision, 30);
    assert.equal(res.watch_id, 7);
    assert.equal(res.compact_revision, 4);
    assert.deepEqual(
      res.events.map((e) => [e.type, e.kv.key.toString(), e.kv.value.toString(), e.kv.mod_revision, e.kv.lease]),
      [
        ['Put', '/a', 'v2', 29, '7587869812345678901'],
        ['Delete', '/b', '', 30, '0'],
      ],
    );
    const cancel = decodeWatchResponse(
      Buffer.from(
        WatchResponseType.encode(
          WatchResponseType.fromObject({ header: { revision: 1 }, canceled: true, cancel_reason: 'etcdserver: permission denied' }),
        ).finish(),
      ),
    );
    assert.equal(cancel.canceled, true);
    assert.equal(cancel.cancel_reason, 'etcdserver: permission denied');
  });
});
