/**
 * Baseline server for the benchmark, run as a child process: plain node:https with the same
 * kind of certificates as orch (ECDSA P-256, client certificates requested), answering a fixed
 * 1 KiB JSON body. Prints one line `READY {"url":...}` on stdout.
 * Usage: node dist/bench/trivial-server.js <certDir>
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ensureCertificates } from '../src/pki/certificates.js';

const certDir = process.argv[2];
if (!certDir) throw new Error('usage: trivial-server <certDir>');
const pki = await ensureCertificates(certDir, { hosts: ['localhost'], ips: ['127.0.0.1'] });

/** A JSON document of exactly `size` bytes. */
function fixedBody(size: number): Buffer {
  const empty = JSON.stringify({ kind: 'Fixed', apiVersion: 'v1', data: '' });
  return Buffer.from(JSON.stringify({ kind: 'Fixed', apiVersion: 'v1', data: 'x'.repeat(size - empty.length) }));
}
const body = fixedBody(1024);

const server = createServer(
  {
    cert: pki.serverCertPem,
    key: pki.serverKeyPem,
    ca: pki.caCertPem,
    requestCert: true,
    rejectUnauthorized: false,
  },
  (req, res) => {
    // Drain the request like a real handler would before answering.
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  },
);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`READY ${JSON.stringify({ url: `https://127.0.0.1:${port}`, caPem: pki.caCertPem })}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
