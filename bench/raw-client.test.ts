import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ensureCertificates } from '../src/pki/certificates.js';
import { encodeRequest, parseResponse, RawConnection } from './raw-client.js';

test('parseResponse frames Content-Length, chunked and bodiless responses', () => {
  const cl = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1');
  assert.deepEqual(parseResponse(cl), { status: 200, length: 43, close: false });
  assert.equal(parseResponse(cl.subarray(0, 40)), undefined);

  const chunked = Buffer.from('HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n');
  assert.deepEqual(parseResponse(chunked), { status: 201, length: chunked.length, close: true });
  assert.equal(parseResponse(chunked.subarray(0, chunked.length - 1)), undefined);

  const noBody = Buffer.from('HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n');
  assert.deepEqual(parseResponse(noBody), { status: 204, length: noBody.length, close: false });
});

test('RawConnection keeps one connection alive and reconnects after Connection: close', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-raw-'));
  const pki = await ensureCertificates(dir, { hosts: ['localhost'], ips: ['127.0.0.1'] });
  let connections = 0;
  const server = createServer({ cert: pki.serverCertPem, key: pki.serverKeyPem }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/close') res.setHeader('connection', 'close');
      if (req.url === '/chunked') {
        res.write('part one,');
        res.end('part two');
        return;
      }
      res.statusCode = req.method === 'POST' ? 201 : 200;
      res.end(body || 'ok');
    });
  });
  server.on('secureConnection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const conn = new RawConnection({ host: '127.0.0.1', port, ca: pki.caCertPem });
  const host = `127.0.0.1:${port}`;
  try {
    assert.equal(await conn.send(encodeRequest('GET', '/', host)), 200);
    assert.equal(await conn.send(encodeRequest('GET', '/chunked', host)), 200);
    assert.equal(await conn.send(encodeRequest('POST', '/', host, '{"a":1}')), 201);
    assert.match(conn.lastResponse.toString(), /\{"a":1\}$/);
    assert.equal(connections, 1);
    assert.equal(await conn.send(encodeRequest('GET', '/close', host)), 200);
    assert.equal(await conn.send(encodeRequest('GET', '/', host)), 200);
    assert.equal(connections, 2);
  } finally {
    conn.close();
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
