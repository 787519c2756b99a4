/**
 * Connection deadlines and the per-address bound (issue 11, finding 4), on the real listener
 * with short injected deadlines: a client that holds a connection without sending a request
 * (silent TCP, a trickled handshake, slow headers, a slow body, idle keep-alive, an idle HTTP/2
 * session) is closed within its bound, while long responses and watches run past every bound.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import http2 from 'node:http2';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { ensureCertificates, type PkiMaterial } from '../src/pki/certificates.js';
import type { ConnectionTimeouts } from '../src/server/connection-limits.js';
import { type Listener, listen } from '../src/server/listener.js';
import { readBody, type Request, type Response } from '../src/server/http.js';

const T: ConnectionTimeouts = { handshakeMs: 400, headersMs: 400, requestMs: 800, idleMs: 400 };
/** Slack for timers and a loaded 2-core machine; every bound is asserted as [deadline * 0.75, deadline + SLACK]. */
const SLACK = 1500;
/** How long the streaming endpoint runs: past every deadline above. */
const STREAM_MS = 2000;

let dir: string;
let pki: PkiMaterial;
const listeners: Listener[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-conn-'));
  pki = await ensureCertificates(join(dir, 'pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
});
after(async () => {
  for (const l of listeners) await l.close(100);
  await rm(dir, { recursive: true, force: true });
});

/** `/echo` answers the body's length; `/stream` writes a chunk every 100 ms for STREAM_MS; anything else `ok`. */
function handler(req: Request, res: Response): void {
  if (req.url === '/echo') {
    readBody(req).then(
      (b) => res.end(String(b.length)),
      () => res.destroy(),
    );
    return;
  }
  if (req.url === '/stream') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const out = res as { write(chunk: string): boolean };
    let n = 0;
    const timer = setInterval(() => {
      out.write(`chunk ${n++}\n`);
      if (n * 100 >= STREAM_MS) {
        clearInterval(timer);
        res.end();
      }
    }, 100);
    res.on('close', () => clearInterval(timer));
    return;
  }
  res.end('ok');
}

async function start(extra: { maxIdleConnectionsPerAddress?: number; timeouts?: Partial<ConnectionTimeouts> } = {}): Promise<number> {
  const l = await listen(
    {
      certPem: pki.serverCertPem,
      keyPem: pki.serverKeyPem,
      clientCaPem: pki.caCertPem,
      bindAddress: '127.0.0.1',
      port: 0,
      timeouts: { ...T, ...extra.timeouts },
      maxIdleConnectionsPerAddress: extra.maxIdleConnectionsPerAddress,
    },
    handler,
  );
  listeners.push(l);
  return l.port;
}

/** Milliseconds from now until the socket closes, and what it received. */
function closed(socket: net.Socket): Promise<{ ms: number; text: string }> {
  const t0 = Date.now();
  let text = '';
  socket.on('data', (c: Buffer) => {
    text += c.toString('latin1');
  });
  socket.on('error', () => {});
  return new Promise((resolve) => socket.once('close', () => resolve({ ms: Date.now() - t0, text })));
}

function assertWithin(ms: number, deadline: number, what: string): void {
  assert.ok(ms >= deadline * 0.75, `${what}: closed after ${ms} ms, before its ${deadline} ms deadline`);
  assert.ok(ms <= deadline + SLACK, `${what}: closed after ${ms} ms, deadline ${deadline} ms`);
}

/** A TLS connection as the admin (or anonymous), resolved once the handshake is done. */
function connectTls(port: number, alpn: string, opts: { anonymous?: boolean } = {}): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const s = tls.connect({
      host: '127.0.0.1',
      port,
      ca: pki.caCertPem,
      ALPNProtocols: [alpn],
      ...(opts.anonymous ? {} : { cert: pki.adminCertPem, key: pki.adminKeyPem }),
    });
    s.once('secureConnect', () => resolve(s));
    s.once('error', reject);
  });
}

function tick(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

describe('connection deadlines', () => {
  let port: number;
  before(async () => {
    port = await start();
  });

  it('closes a TCP connection that never starts its TLS handshake', async () => {
    const s = net.connect(port, '127.0.0.1');
    const r = await closed(s);
    assertWithin(r.ms, T.handshakeMs, 'silent TCP');
  });

  it('closes a handshake trickled a byte at a time, from accept, however often bytes come', async () => {
    const s = net.connect(port, '127.0.0.1');
    const done = closed(s);
    // A TLS handshake record announcing 512 bytes, then one byte every 50 ms: each byte would
    // restart node's own (idle) handshake timer.
    s.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]));
    const timer = setInterval(() => s.writable && s.write(Buffer.from([0x01])), 50);
    const r = await done;
    clearInterval(timer);
    assertWithin(r.ms, T.handshakeMs, 'trickled handshake');
  });

  it('closes an anonymous HTTP/1.1 connection that sends no request, answering 408', async () => {
    const s = await connectTls(port, 'http/1.1', { anonymous: true });
    const r = await closed(s);
    assertWithin(r.ms, T.headersMs, 'idle TLS');
    assert.match(r.text, /^HTTP\/1\.1 408 /);
  });

  it('closes an HTTP/2 session that opens no stream', async () => {
    const s = await connectTls(port, 'h2', { anonymous: true });
    const r = await closed(s);
    // The session is told to go away at the deadline and its socket destroyed a second later at most.
    assertWithin(r.ms, T.headersMs, 'idle HTTP/2 session');
    assert.ok(r.ms <= T.headersMs + 1000 + SLACK);
  });

  it('answers 408 to headers sent slowly, and closes', async () => {
    const s = await connectTls(port, 'http/1.1');
    const done = closed(s);
    s.write('GET / HTTP/1.1\r\nHost: x\r\n');
    let n = 0;
    const timer = setInterval(() => s.writable && s.write(`X-Slow-${n++}: y\r\n`), 100);
    const r = await done;
    clearInterval(timer);
    assertWithin(r.ms, T.headersMs, 'slow headers');
    assert.match(r.text, /^HTTP\/1\.1 408 /);
  });

  it('answers 408 to a body sent slowly, and closes', async () => {
    const s = await connectTls(port, 'http/1.1');
    const done = closed(s);
    s.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n');
    const timer = setInterval(() => s.writable && s.write('x'), 100);
    const r = await done;
    clearInterval(timer);
    assertWithin(r.ms, T.requestMs, 'slow body');
    assert.match(r.text, /^HTTP\/1\.1 408 /);
  });

  it('closes a keep-alive connection idle between requests, not while it keeps asking', async () => {
    const s = await connectTls(port, 'http/1.1');
    let text = '';
    s.on('data', (c: Buffer) => {
      text += c.toString('latin1');
    });
    // Requests spaced just inside the idle deadline keep the connection for 1.5 idle periods and more...
    for (let i = 0; i < 4; i++) {
      s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      await tick(T.idleMs / 2);
      assert.ok(!s.destroyed, `connection closed while in use (request ${i})`);
    }
    assert.equal(text.match(/HTTP\/1\.1 200 /g)?.length, 4);
    // ...then silence closes it.
    const r = await closed(s);
    assertWithin(r.ms + T.idleMs / 2, T.idleMs, 'idle keep-alive');
  });

  it('never cuts a long response over HTTP/1.1', async () => {
    const s = await connectTls(port, 'http/1.1');
    const done = closed(s);
    s.write('GET /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const r = await done;
    assert.ok(r.ms >= STREAM_MS * 0.9, `closed after ${r.ms} ms`);
    assert.match(r.text, /^HTTP\/1\.1 200 /);
    assert.equal(r.text.match(/chunk \d+/g)?.length, STREAM_MS / 100);
  });

  it('never cuts a long response over HTTP/2, and closes the session once idle', async () => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { ca: pki.caCertPem, cert: pki.adminCertPem, key: pki.adminKeyPem });
    session.on('error', () => {});
    const sessionClosed = new Promise<number>((resolve) => session.once('close', () => resolve(Date.now())));
    const stream = session.request({ ':path': '/stream' });
    let text = '';
    stream.on('data', (c: Buffer) => {
      text += c.toString();
    });
    await new Promise((resolve, reject) => {
      stream.once('end', resolve);
      stream.once('error', reject);
    });
    const ended = Date.now();
    assert.equal(text.match(/chunk \d+/g)?.length, STREAM_MS / 100);
    assertWithin((await sessionClosed) - ended, T.idleMs, 'idle HTTP/2 session');
  });

  it('resets an HTTP/2 stream whose request body never ends', async () => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { ca: pki.caCertPem, cert: pki.adminCertPem, key: pki.adminKeyPem });
    session.on('error', () => {});
    const stream = session.request({ ':path': '/echo', ':method': 'POST' });
    stream.on('error', () => {});
    stream.write('x');
    const t0 = Date.now();
    const code = await new Promise<number>((resolve) => stream.once('close', () => resolve(stream.rstCode)));
    assertWithin(Date.now() - t0, T.requestMs, 'slow HTTP/2 body');
    assert.equal(code, http2.constants.NGHTTP2_CANCEL);
    session.destroy();
  });
});

describe('idle connections per client address', () => {
  const CAP = 3;
  let port: number;
  before(async () => {
    // Deadlines long enough not to close anything during these tests.
    port = await start({ maxIdleConnectionsPerAddress: CAP, timeouts: { handshakeMs: 30_000, headersMs: 30_000, requestMs: 30_000, idleMs: 30_000 } });
  });

  /** Opens a silent TCP connection; resolves whether it is still open shortly after. */
  async function silent(localAddress = '127.0.0.1'): Promise<{ socket: net.Socket; open: boolean }> {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    socket.on('error', () => {});
    let isOpen = true;
    socket.once('close', () => {
      isOpen = false;
    });
    await tick(150);
    return { socket, open: isOpen };
  }

  it('refuses a connection past the cap, counts busy connections out, and admits again once one closes', async () => {
    // A long response in flight: its connection is busy and does not count.
    const busy = await connectTls(port, 'http/1.1');
    busy.on('error', () => {});
    const headers = new Promise((resolve) => busy.once('data', resolve));
    busy.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n');
    await headers;
    const held = [];
    for (let i = 0; i < CAP; i++) {
      const c = await silent();
      assert.ok(c.open, `connection ${i + 1} of ${CAP} refused`);
      held.push(c.socket);
    }
    const refused = await silent();
    assert.equal(refused.open, false, 'a connection past the cap was kept');
    // A TLS client sees the refusal as a reset before any handshake.
    await assert.rejects(connectTls(port, 'http/1.1'));
    // Another address is not affected.
    const other = await silent('127.0.0.2');
    assert.ok(other.open, 'another address was refused');
    other.socket.destroy();
    // One silent connection gone: one more is admitted.
    held.pop()?.destroy();
    await tick(100);
    const again = await silent();
    assert.ok(again.open, 'not admitted after a connection closed');
    held.push(again.socket);
    for (const s of held) s.destroy();
    busy.destroy();
  });

  it('forgets closed connections, however they ended', async () => {
    await tick(100);
    for (let i = 0; i < CAP * 2; i++) {
      // A request over HTTP/1.1, a stream over HTTP/2, and a handshake that fails.
      const h1 = await connectTls(port, 'http/1.1');
      const answered = new Promise((resolve) => h1.once('data', resolve));
      h1.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      await answered;
      h1.end();
      const session = http2.connect(`https://127.0.0.1:${port}`, { ca: pki.caCertPem, cert: pki.adminCertPem, key: pki.adminKeyPem });
      await new Promise((resolve) => session.request({ ':path': '/' }).on('end', resolve).resume());
      session.close();
      const bad = net.connect(port, '127.0.0.1');
      bad.on('error', () => {});
      bad.end('not TLS');
      await new Promise((resolve) => bad.once('close', resolve));
    }
    await tick(200);
    const held = [];
    for (let i = 0; i < CAP; i++) {
      const c = await silent();
      assert.ok(c.open, `connection ${i + 1} of ${CAP} refused: closed connections still counted`);
      held.push(c.socket);
    }
    for (const s of held) s.destroy();
  });
});
