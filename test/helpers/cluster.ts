/**
 * Test helpers: an in-process control plane on a free port with a temp data dir, and a small
 * HTTPS client that sends exactly the bytes a test wants (headers, raw bodies).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http2 from 'node:http2';
import https from 'node:https';
import tls from 'node:tls';
import { startControlPlane, type ControlPlane, type ControlPlaneOptions } from '../../src/cmd/control-plane.js';
import { startEtcd } from './etcd.js';

export interface TestCluster extends ControlPlane {
  dataDir: string;
  /** Stops the control plane and removes its data dir. */
  close(): Promise<void>;
}

/**
 * Starts a control plane on port 0 in a fresh temp dir. With ORCH_TEST_STORAGE_BACKEND=etcd3 in
 * the environment (`npm run test:etcd`), a cluster that names no backend stores in an etcd of
 * its own, so the API suites run unchanged on etcd. The scheduler runs only when a test asks
 * (`scheduler: true`): its status writes and events would otherwise show up in tests of
 * unrelated API behaviour.
 */
export async function startTestCluster(opts: ControlPlaneOptions = {}): Promise<TestCluster> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'orch-test-')));
  const etcd = opts.storageBackend === undefined && process.env.ORCH_TEST_STORAGE_BACKEND === 'etcd3' ? await startEtcd() : undefined;
  const backend: ControlPlaneOptions = etcd ? { storageBackend: 'etcd3', etcd: { servers: [etcd.endpoint] } } : {};
  // Tests count the ConfigMaps they make: the kube-root-ca.crt publisher (one more ConfigMap in
  // every namespace) runs only in tests that name their controllers (`controllerNames`).
  const controllerNames = opts.controllerNames ?? ['*', '-root-ca-cert-publisher'];
  const cp = await startControlPlane({ securePort: 0, scheduler: false, ...backend, ...opts, controllerNames, dataDir }).catch(async (err: unknown) => {
    await etcd?.destroy();
    throw err;
  });
  return {
    ...cp,
    dataDir,
    async close() {
      await cp.stop();
      await etcd?.destroy();
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received (protobuf and gzip stay bytes); `text` is it read as UTF-8. */
  body: Buffer;
  text: string;
  /** The JSON body, or undefined when it is not JSON. */
  json: any;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: string | Buffer | object;
  /** Send no client certificate (anonymous). */
  anonymous?: boolean;
  /** Send this client certificate instead of the admin's (another user). */
  identity?: { certPem: string; keyPem: string };
  /** A keep-alive agent to reuse connections (default: a new connection per request). */
  agent?: https.Agent;
}

/** One HTTP/1.1 request with the admin certificate (or another, or none). */
export function request(cluster: ControlPlane, method: string, path: string, opts: RequestOptions = {}): Promise<RawResponse> {
  const url = new URL(cluster.url);
  const body = opts.body === undefined ? undefined : typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string | number> = { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(opts.headers ?? {}) };
  if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers,
        agent: opts.agent ?? false,
        ca: cluster.caPem,
        ...(opts.anonymous
          ? {}
          : opts.identity
            ? { cert: opts.identity.certPem, key: opts.identity.keyPem }
            : { cert: cluster.adminCertPem, key: cluster.adminKeyPem }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One HTTP/2 GET with the admin certificate; resolves with status and body. */
export function requestH2(cluster: ControlPlane, path: string): Promise<{ status: number; text: string; alpn: string }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(cluster.url, { ca: cluster.caPem, cert: cluster.adminCertPem, key: cluster.adminKeyPem });
    session.on('error', reject);
    const stream = session.request({ ':path': path });
    let status = 0;
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      status = Number(h[':status']);
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const alpn = (session.socket as unknown as { alpnProtocol: string }).alpnProtocol;
      session.close();
      resolve({ status, text: Buffer.concat(chunks).toString('utf8'), alpn });
    });
    stream.on('error', reject);
    stream.end();
  });
}

/** A raw TLS connection to the cluster with the admin certificate (tests that send or read exact bytes). */
export function connectRawTls(cluster: ControlPlane, alpn = 'http/1.1'): tls.TLSSocket {
  const url = new URL(cluster.url);
  return tls.connect({
    host: url.hostname,
    port: Number(url.port),
    ca: cluster.caPem,
    cert: cluster.adminCertPem,
    key: cluster.adminKeyPem,
    ALPNProtocols: [alpn],
  });
}

/** connectRawTls, resolved once the handshake is done. */
export async function rawTlsConnected(cluster: ControlPlane, alpn = 'http/1.1'): Promise<tls.TLSSocket> {
  const socket = connectRawTls(cluster, alpn);
  await new Promise<void>((resolve, reject) => {
    socket.once('secureConnect', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

/** Polls `probe` until it returns true (every 20 ms, for at most `timeoutMs`); false if it never did. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}
