/**
 * The KV client's gRPC handling against small HTTP/2 servers standing in for etcd members:
 * framing, status in trailers or trailers-only headers, HTTP errors, the deadline, and which
 * failures go to the next member (never sent) and which do not (may have reached etcd).
 */
import assert from 'node:assert/strict';
import { createServer as createHttp2Server, constants, type Http2Server, type Http2Session, type ServerHttp2Stream } from 'node:http2';
import { createServer as createTcpServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { storeErrorOf } from '../errors.js';
import { FrameReader, GRPC_FRAME_HEADER_BYTES, GrpcError, writeFrameHeader } from './grpc-frame.js';
import { EtcdClient } from './etcd-client.js';

/** An encoded TxnResponse { header { revision }, succeeded: true }. */
function txnResponse(revision: number): Buffer {
  const body = Buffer.from([0x0a, 0x02, 0x18, revision, 0x10, 0x01]);
  const frame = Buffer.alloc(GRPC_FRAME_HEADER_BYTES + body.length);
  writeFrameHeader(frame, body.length);
  body.copy(frame, GRPC_FRAME_HEADER_BYTES);
  return frame;
}

type Handler = (stream: ServerHttp2Stream, headers: Record<string, string | string[] | undefined>, request: Buffer) => void;

interface FakeMember {
  url: string;
  calls: number;
  handler: Handler;
  /** Drops every connection and stops listening (a killed member). */
  kill(): Promise<void>;
}

const servers: (Http2Server | Server)[] = [];
after(() => {
  for (const s of servers) s.close();
});

async function listen(server: Http2Server | Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** An h2c server answering each call with handler (by default: OK with a Txn response at revision 7). */
async function fakeMember(handler?: Handler): Promise<FakeMember> {
  const sessions = new Set<Http2Session>();
  const server = createHttp2Server();
  const member: FakeMember = {
    url: '',
    calls: 0,
    handler: handler ?? ((stream) => answer(stream, txnResponse(7))),
    kill: async () => {
      for (const s of sessions) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  server.on('stream', (stream, headers) => {
    member.calls++;
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => member.handler(stream, headers, Buffer.concat(chunks)));
    stream.on('error', () => {});
  });
  member.url = `http://127.0.0.1:${await listen(server)}`;
  return member;
}

/** A gRPC OK answer carrying message. */
function answer(stream: ServerHttp2Stream, message: Buffer): void {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
  stream.end(message);
}

/** A port nothing listens on. */
async function refusedUrl(): Promise<string> {
  const s = createTcpServer();
  const port = await listen(s);
  await new Promise((resolve) => s.close(resolve));
  return `http://127.0.0.1:${port}`;
}

function client(
  servers: string[],
  opts: { callTimeoutMs?: number; dialTimeoutMs?: number; keepaliveMs?: number; keepaliveTimeoutMs?: number } = {},
): EtcdClient {
  return new EtcdClient({ servers, callTimeoutMs: 2000, dialTimeoutMs: 2000, ...opts });
}

const createTxn = { compare: [{ key: Buffer.from('k'), target: 'Mod' as const, result: 'Equal' as const, mod_revision: 0 }], success: [] };

describe('etcd unary calls over HTTP/2', () => {
  it('sends one frame with gRPC headers and the deadline; decodes the answer once the trailers say OK', async () => {
    let seen: Record<string, string | string[] | undefined> = {};
    let body: Buffer = Buffer.alloc(0);
    const m = await fakeMember((stream, headers, request) => {
      seen = headers;
      body = request;
      answer(stream, txnResponse(42));
    });
    const c = client([m.url], { callTimeoutMs: 3000 });
    try {
      const res = await c.txn(createTxn);
      assert.deepEqual(res, { header: { revision: 42 }, succeeded: true, responses: [] });
      assert.equal(seen[':path'], '/etcdserverpb.KV/Txn');
      assert.equal(seen[':method'], 'POST');
      assert.equal(seen['content-type'], 'application/grpc');
      assert.equal(seen.te, 'trailers');
      assert.match(String(seen['grpc-timeout']), /^(29\d\d|3000)m$/);
      assert.equal(body[0], 0);
      assert.equal(body.readUInt32BE(1), body.length - GRPC_FRAME_HEADER_BYTES);
    } finally {
      c.close();
    }
  });

  it("reports a trailers-only status with etcd's words, which the store maps", async () => {
    const m = await fakeMember((stream) =>
      stream.respond(
        {
          ':status': 200,
          'content-type': 'application/grpc',
          'grpc-status': '11',
          'grpc-message': encodeURIComponent('etcdserver: mvcc: required revision has been compacted'),
        },
        { endStream: true },
      ),
    );
    const c = client([m.url]);
    try {
      const err = await c.range({ key: Buffer.from('k'), revision: 3 }).catch((e: unknown) => e);
      assert.ok(err instanceof GrpcError);
      assert.equal(err.code, 11);
      assert.equal(err.details, 'etcdserver: mvcc: required revision has been compacted');
      assert.equal(err.message, '11 OUT_OF_RANGE: etcdserver: mvcc: required revision has been compacted');
      assert.equal(storeErrorOf(err, '/k').code, 'Compacted');
    } finally {
      c.close();
    }
  });

  it('reports a status in the trailers after headers, and an HTTP error without a gRPC status', async () => {
    const m = await fakeMember((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '3', 'grpc-message': 'etcdserver: request is too large' }));
      stream.end();
    });
    const c = client([m.url]);
    try {
      const err = await c.txn(createTxn).catch((e: unknown) => e);
      assert.ok(err instanceof GrpcError);
      assert.equal(err.code, 3);
      assert.equal(storeErrorOf(err, '/k').code, 'RequestTooLarge');
      m.handler = (stream) => stream.respond({ ':status': 503 }, { endStream: true });
      const http = await c.txn(createTxn).catch((e: unknown) => e);
      assert.ok(http instanceof GrpcError);
      assert.equal(http.message, '14 UNAVAILABLE: Received HTTP status code 503');
      assert.equal(storeErrorOf(http, '/k').code, 'Unavailable');
    } finally {
      c.close();
    }
  });

  it('fails at the deadline and cancels the stream', async () => {
    let cancelled = false;
    const m = await fakeMember((stream) => {
      stream.on('close', () => {
        cancelled = stream.rstCode === constants.NGHTTP2_CANCEL;
      });
    });
    const c = client([m.url], { callTimeoutMs: 150 });
    try {
      const t0 = performance.now();
      const err = await c.txn(createTxn).catch((e: unknown) => e);
      assert.ok(err instanceof GrpcError);
      assert.equal(err.message, '4 DEADLINE_EXCEEDED: Deadline exceeded');
      assert.ok(performance.now() - t0 >= 140);
      for (let i = 0; i < 50 && !cancelled; i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(cancelled, 'the server saw the stream cancelled');
    } finally {
      c.close();
    }
  });

  it('sends a call no member took to the next member', async () => {
    const good = await fakeMember();
    const c = client([await refusedUrl(), good.url]);
    try {
      assert.equal((await c.txn(createTxn)).header.revision, 7);
      assert.equal((await c.txn(createTxn)).header.revision, 7);
      assert.equal(good.calls, 2);
    } finally {
      c.close();
    }
  });

  it('fails with every member unreachable, naming the last error', async () => {
    const c = client([await refusedUrl(), await refusedUrl()]);
    try {
      const err = await c.txn(createTxn).catch((e: unknown) => e);
      assert.ok(err instanceof GrpcError);
      assert.match(err.message, /^14 UNAVAILABLE: No connection established\. Last error: .*ECONNREFUSED/);
      assert.equal(storeErrorOf(err, '/k').code, 'Unavailable');
    } finally {
      c.close();
    }
  });

  it('never retries a call that may have reached etcd, but one refused unprocessed goes to the next member', async () => {
    const dropper = await fakeMember((stream) => stream.session?.destroy());
    const good = await fakeMember();
    const c = client([dropper.url, good.url]);
    try {
      const err = await c.txn(createTxn).catch((e: unknown) => e);
      assert.ok(err instanceof GrpcError);
      assert.match(err.message, /^14 UNAVAILABLE: Connection dropped/);
      assert.equal(good.calls, 0, 'the dropped call was not sent again');

      dropper.handler = (stream) => stream.close(constants.NGHTTP2_REFUSED_STREAM);
      assert.equal((await c.txn(createTxn)).header.revision, 7);
      assert.equal(good.calls, 1);
    } finally {
      c.close();
    }
  });

  it('moves to the next member when the current one dies', async () => {
    const first = await fakeMember();
    const second = await fakeMember();
    const c = client([first.url, second.url]);
    try {
      await c.txn(createTxn);
      assert.equal(first.calls, 1);
      await first.kill();
      await new Promise((r) => setTimeout(r, 50));
      await c.txn(createTxn);
      await c.txn(createTxn);
      assert.deepEqual([first.calls, second.calls], [1, 2]);
    } finally {
      c.close();
    }
  });

  it('gives up on a member that stops answering (keepalive) or never answers the handshake (dial timeout)', async () => {
    const target = await fakeMember();
    const other = await fakeMember();
    // A TCP proxy to target that can be frozen: the member hangs with its connection open.
    let frozen = false;
    const sockets = new Set<Socket>();
    const proxy = createTcpServer((inbound) => {
      sockets.add(inbound);
      const outbound = tcpConnect(Number(new URL(target.url).port), '127.0.0.1');
      const forward = (from: Socket, to: Socket) =>
        from.on('data', (d) => {
          if (!frozen) to.write(d);
        });
      forward(inbound, outbound);
      forward(outbound, inbound);
      for (const s of [inbound, outbound]) s.on('error', () => {});
      inbound.on('close', () => outbound.destroy());
    });
    const proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
    const c = client([proxyUrl, other.url], { keepaliveMs: 100, keepaliveTimeoutMs: 100, dialTimeoutMs: 300 });
    try {
      await c.txn(createTxn);
      assert.equal(target.calls, 1);
      frozen = true;
      // The unanswered ping ends the session; the reconnect gets no SETTINGS and times out.
      await new Promise((r) => setTimeout(r, 400));
      const t0 = performance.now();
      await c.txn(createTxn);
      assert.deepEqual([target.calls, other.calls], [1, 1]);
      assert.ok(performance.now() - t0 < 1500);
    } finally {
      c.close();
      for (const s of sockets) s.destroy();
    }
  });
});

describe('gRPC frames', () => {
  const frame = (body: Buffer) => {
    const f = Buffer.alloc(GRPC_FRAME_HEADER_BYTES + body.length);
    writeFrameHeader(f, body.length);
    body.copy(f, GRPC_FRAME_HEADER_BYTES);
    return f;
  };

  it('reads messages split across chunks and several in one chunk', () => {
    const got: string[] = [];
    const r = new FrameReader(1 << 20, (m) => got.push(m.toString()));
    const all = Buffer.concat([frame(Buffer.from('first')), frame(Buffer.from('')), frame(Buffer.from('third message'))]);
    for (const cut of [
      [0, 3],
      [3, 9],
      [9, 20],
      [20, all.length],
    ])
      r.push(all.subarray(cut[0], cut[1]));
    assert.deepEqual(got, ['first', '', 'third message']);
    assert.equal(r.partial(), false);
    r.push(frame(Buffer.from('x')).subarray(0, 4));
    assert.equal(r.partial(), true);
  });

  it('refuses compressed and oversized messages before buffering them', () => {
    const r = new FrameReader(10, () => {});
    assert.throws(() => r.push(Buffer.from([0, 0, 0, 0, 11])), /8 RESOURCE_EXHAUSTED: Received message larger than max \(11 vs\. 10\)/);
    const z = new FrameReader(10, () => {});
    assert.throws(() => z.push(Buffer.from([1, 0, 0, 0, 1, 0])), /13 INTERNAL: Received a compressed message/);
  });
});
