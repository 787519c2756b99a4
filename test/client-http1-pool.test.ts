/**
 * The REST client's keep-alive HTTP/1.1 pool against a scripted TLS server: connections are
 * reused and bounded, bodies come back whatever their framing, `Connection: close` is obeyed,
 * and a reused connection the server closed under a request is retried only for idempotent
 * methods (a POST gets ECONNRESET, as from Go's transport).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import { Http1Pool } from '../src/client/http1-pool.js';
import { frameResponse, responseBody } from '../src/client/http1-response.js';
import { ensureCertificates } from '../src/pki/certificates.js';

let dir: string;
let server: Server;
let port: number;
let caPem: string;
/** A body of 60,000 bytes, answered in small packets. */
const BIG = 'abcdefghij'.repeat(6000);
/** Connections the server accepted. */
let connections = 0;
/** Requests seen per connection, in order. */
const perConnection: number[] = [];

/** The scripted answers, chosen by the request path. */
function answer(path: string, n: number): string | undefined {
  if (path === '/chunked') return 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n';
  if (path === '/close') return 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok';
  if (path === '/empty') return 'HTTP/1.1 204 No Content\r\n\r\n';
  // The server drops the connection when a second request arrives on it (an idle timeout that crossed the request).
  if (path === '/drop-second' && n > 1) return undefined;
  if (path === '/slow') return 'SLOW';
  if (path === '/trickle-length') return `TRICKLE HTTP/1.1 200 OK\r\nContent-Length: ${BIG.length}\r\n\r\n${BIG}`;
  if (path === '/trickle-chunked')
    return `TRICKLE HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${(BIG.length / 2).toString(16)}\r\n${BIG.slice(0, BIG.length / 2)}\r\n${(BIG.length / 2).toString(16)}\r\n${BIG.slice(BIG.length / 2)}\r\n0\r\nX-Trailer: t\r\n\r\n`;
  return `HTTP/1.1 200 OK\r\nContent-Length: ${String(n).length}\r\n\r\n${n}`;
}

function serve(socket: TLSSocket): void {
  const index = connections++;
  perConnection[index] = 0;
  let buf = '';
  socket.on('data', (chunk: Buffer) => {
    buf += chunk.toString('latin1');
    for (let end = buf.indexOf('\r\n\r\n'); end >= 0; end = buf.indexOf('\r\n\r\n')) {
      const head = buf.slice(0, end);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      buf = buf.slice(end + 4 + length);
      const n = ++perConnection[index];
      const reply = answer(head.split(' ')[1] ?? '/', n);
      if (reply === undefined) {
        socket.destroy();
        return;
      }
      if (reply.startsWith('TRICKLE ')) {
        // The answer in packets of 1-700 bytes, so every boundary (inside the head, a chunk
        // size line, the last chunk, the trailers' end) falls between two of them somewhere.
        const bytes = Buffer.from(reply.slice('TRICKLE '.length), 'latin1');
        const send = (at: number, step: number) => {
          if (at >= bytes.length) return;
          socket.write(bytes.subarray(at, at + step));
          setImmediate(() => send(at + step, (step * 7) % 701 || 1));
        };
        send(0, 1);
        continue;
      }
      if (reply === 'SLOW') {
        setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nslow'), 100);
        continue;
      }
      socket.write(reply);
      if (reply.includes('Connection: close')) socket.end();
    }
  });
  socket.on('error', () => {});
}

function pool(maxConnections = 4): Http1Pool {
  return new Http1Pool({ host: '127.0.0.1', port, caPem, maxConnections });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-http1-pool-'));
  const pki = await ensureCertificates(dir, { hosts: ['localhost'], ips: ['127.0.0.1'] });
  caPem = pki.caCertPem;
  server = createServer({ cert: pki.serverCertPem, key: pki.serverKeyPem, ALPNProtocols: ['http/1.1'] }, serve);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

describe('HTTP/1.1 framing', () => {
  it('frames Content-Length, chunked (with trailers) and bodiless responses', () => {
    const cl = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcNEXT');
    const f = frameResponse(cl);
    assert.equal(f?.end, cl.length - 4);
    assert.equal(responseBody(cl, f!).toString(), 'abc');
    const chunked = Buffer.from('HTTP/1.1 201 Created\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n');
    assert.equal(frameResponse(chunked.subarray(0, chunked.length - 2)), undefined);
    assert.equal(responseBody(chunked, frameResponse(chunked)!).toString(), 'abc');
    const notModified = Buffer.from('HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n');
    assert.equal(frameResponse(notModified)?.end, notModified.length);
    // Framed by the connection's end: complete only once it ended.
    const eof = Buffer.from('HTTP/1.1 200 OK\r\n\r\nall of it');
    assert.equal(frameResponse(eof), undefined);
    assert.equal(responseBody(eof, frameResponse(eof, true)!).toString(), 'all of it');
    assert.throws(() => frameResponse(Buffer.from('HTTX/1.1 200\r\n\r\n')), /malformed HTTP status line/);
  });
});

describe('the REST client connection pool', () => {
  it('reuses one keep-alive connection for requests in sequence and decodes every framing', async () => {
    const p = pool();
    const before = connections;
    const a = await p.request('GET', '/n', '');
    const b = await p.request('GET', '/n', '');
    assert.deepEqual([a.body.toString(), b.body.toString()], ['1', '2']);
    assert.equal((await p.request('GET', '/chunked', '')).body.toString(), 'hello world');
    assert.equal((await p.request('DELETE', '/empty', '')).status, 204);
    assert.equal((await p.request('POST', '/n', 'Content-Type: application/json\r\n', Buffer.from('{}'))).body.toString(), '5');
    assert.equal(connections - before, 1);
    p.close();
  });

  it('reads answers that arrive in many small packets, whatever their framing', async () => {
    const p = pool();
    for (const path of ['/trickle-length', '/trickle-chunked', '/trickle-length']) {
      const r = await p.request('GET', path, '');
      assert.equal(r.status, 200);
      assert.equal(r.body.toString('latin1'), BIG, path);
    }
    // Still in step: the next answer on the same connection is its own.
    assert.equal((await p.request('GET', '/chunked', '')).body.toString(), 'hello world');
    p.close();
  });

  it('opens no more connections than allowed; requests beyond wait for one', async () => {
    const p = pool(2);
    const before = connections;
    const bodies = await Promise.all([1, 2, 3, 4, 5].map(() => p.request('GET', '/slow', '')));
    assert.deepEqual(
      bodies.map((r) => r.body.toString()),
      ['slow', 'slow', 'slow', 'slow', 'slow'],
    );
    assert.equal(connections - before, 2);
    p.close();
  });

  it('does not reuse a connection the server said it closes', async () => {
    const p = pool();
    const before = connections;
    assert.equal((await p.request('GET', '/close', '')).body.toString(), 'ok');
    assert.equal((await p.request('GET', '/n', '')).body.toString(), '1');
    assert.equal(connections - before, 2);
    p.close();
  });

  it('resends an idempotent request once when a reused connection closes unanswered, never a POST', async () => {
    const p = pool(1);
    assert.equal((await p.request('GET', '/drop-second', '')).status, 200);
    // The reused connection is dropped under the GET: answered on a new one.
    assert.equal((await p.request('GET', '/drop-second', '')).body.toString(), '1');
    await assert.rejects(p.request('POST', '/drop-second', '', Buffer.from('{}')), (err: NodeJS.ErrnoException) => err.code === 'ECONNRESET');
    p.close();
  });

  it('verifies the server against the CA it was given', async () => {
    const other = await ensureCertificates(join(dir, 'other'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
    const p = new Http1Pool({ host: '127.0.0.1', port, caPem: other.caCertPem, maxConnections: 1 });
    await assert.rejects(p.request('GET', '/n', ''), (err: NodeJS.ErrnoException) => /certificate/i.test(`${err.code} ${err.message}`));
    p.close();
  });

  it('refuses a path or header that would split the request', async () => {
    const p = pool();
    await assert.rejects(p.request('GET', '/a b', ''), /unescaped/);
    await assert.rejects(p.request('GET', '/a', 'X: 1\r\nY: 2\n\r\n'), /unescaped/);
    p.close();
  });
});
