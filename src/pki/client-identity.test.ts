import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { request, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { ensureCertificates, type PkiMaterial } from './certificates.js';
import { identityFromCertificate } from './client-identity.js';

describe('identityFromCertificate', () => {
  test('CN is the name, every O a group, plus system:authenticated once', () => {
    const one = { subject: { CN: 'alice', O: 'dev' } } as unknown as PeerCertificate;
    assert.deepEqual(identityFromCertificate(one), { name: 'alice', groups: ['dev', 'system:authenticated'] });
    const many = { subject: { CN: 'bob', O: ['a', 'b', 'system:authenticated'] } } as unknown as PeerCertificate;
    assert.deepEqual(identityFromCertificate(many), { name: 'bob', groups: ['a', 'b', 'system:authenticated'] });
    const bare = { subject: { CN: 'node' } } as unknown as PeerCertificate;
    assert.deepEqual(identityFromCertificate(bare), { name: 'node', groups: ['system:authenticated'] });
  });
});

describe('mutual TLS with the generated certificates', () => {
  let dir: string;
  let pki: PkiMaterial;
  let server: Server;
  let port: number;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-mtls-'));
    pki = await ensureCertificates(dir, { hosts: ['localhost'], ips: ['127.0.0.1', '::1'] });
    // requestCert without rejectUnauthorized: like kube-apiserver, anonymous clients still
    // connect and are told apart by socket.authorized.
    server = createServer({ cert: pki.serverCertPem, key: pki.serverKeyPem, ca: pki.caCertPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const socket = req.socket as TLSSocket;
      const cert = socket.getPeerCertificate();
      const identity = socket.authorized ? identityFromCertificate(cert) : null;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ authorized: socket.authorized, identity }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  function get(opts: { cert?: string; key?: string; servername?: string }): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', ca: pki.caCertPem, agent: false, ...opts }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(JSON.parse(body)));
      });
      req.on('error', reject);
      req.end();
    });
  }

  test('the admin certificate authenticates as admin in system:masters', async () => {
    const got = await get({ cert: pki.adminCertPem, key: pki.adminKeyPem });
    assert.deepEqual(got, {
      authorized: true,
      identity: { name: 'admin', groups: ['system:masters', 'system:authenticated'] },
    });
  });

  test('the serving certificate verifies by DNS name too', async () => {
    const got = await get({ cert: pki.adminCertPem, key: pki.adminKeyPem, servername: 'localhost' });
    assert.equal((got as { authorized: boolean }).authorized, true);
  });

  test('a client without a certificate connects but is not authorized', async () => {
    assert.deepEqual(await get({}), { authorized: false, identity: null });
  });

  test('a client that does not trust the CA refuses the server', async () => {
    await assert.rejects(
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, resolve);
        req.on('error', reject);
        req.end();
      }),
      /self-signed|unable to verify|UNABLE_TO|SELF_SIGNED/i,
    );
  });
});
