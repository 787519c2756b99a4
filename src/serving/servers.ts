/**
 * A component's listeners. The secure port (apiserver's SecureServingOptions as a component uses
 * them): HTTPS with HTTP/2 and HTTP/1.1, the serving certificate of `--tls-cert-file` or one
 * self-signed into `--cert-dir` (kept in memory without one), SNI certificates, the cipher and
 * version flags; every request authenticated and authorized (upstream's chain: panic recovery,
 * authentication, authorization, then the paths). The deprecated insecure port serves the same
 * paths over plain HTTP with neither.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import { join } from 'node:path';
import tls, { type SecureVersion, type TLSSocket } from 'node:tls';
import { AuthenticationFailure, type Authenticator } from '../auth/authn/authenticator.js';
import { refusal } from '../auth/authz/refusal.js';
import type { Attributes, Authorizer } from '../machinery/authorization.js';
import { klog } from '../machinery/klog.js';
import { internalError, type StatusError, unauthorized } from '../machinery/status.js';
import { checkPair } from '../pki/check.js';
import { generateSelfSignedServing } from '../pki/certificates.js';
import { type ServingHandler, type ServingResponse, write } from './component-handler.js';
import { matchSni, type SniEntry } from './tls-options.js';

export interface RunningServer {
  /** The port listened on (the chosen one when 0 was asked). */
  port: number;
  close(): Promise<void>;
}

export interface ServingCertificateFlags {
  certFile: string;
  keyFile: string;
  certDir: string;
  /** Base name of the generated pair in certDir (`orch-scheduler`). */
  pairName: string;
  bindAddress: string;
}

/**
 * The serving pair: the given files, else `<cert-dir>/<pair>.crt|.key` when readable, else a new
 * self-signed pair for localhost (written there when a cert dir is given), as
 * MaybeDefaultWithSelfSignedCerts does.
 */
export async function servingCertificate(f: ServingCertificateFlags): Promise<{ certPem: string; keyPem: string }> {
  if ((f.certFile === '') !== (f.keyFile === '')) throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
  if (f.certFile) {
    const certPem = readFileSync(f.certFile, 'utf8');
    const keyPem = readFileSync(f.keyFile, 'utf8');
    checkPair(f.certFile, certPem, f.keyFile, keyPem, 'give --tls-cert-file a PEM certificate and --tls-private-key-file its PEM key');
    return { certPem, keyPem };
  }
  const certPath = f.certDir ? join(f.certDir, `${f.pairName}.crt`) : '';
  const keyPath = f.certDir ? join(f.certDir, `${f.pairName}.key`) : '';
  if (certPath && existsSync(certPath) && existsSync(keyPath)) return { certPem: readFileSync(certPath, 'utf8'), keyPem: readFileSync(keyPath, 'utf8') };
  // Unspecified bind address: the certificate names localhost; otherwise it also names the address.
  const unspecified = f.bindAddress === '' || f.bindAddress === '0.0.0.0' || f.bindAddress === '::';
  const pair = await generateSelfSignedServing('localhost', unspecified ? ['127.0.0.1'] : ['127.0.0.1', f.bindAddress], unspecified ? ['localhost'] : []);
  if (certPath) {
    mkdirSync(f.certDir, { recursive: true, mode: 0o700 });
    writeFileSync(certPath, pair.certPem, { mode: 0o644 });
    writeFileSync(keyPath, pair.keyPem, { mode: 0o600 });
    klog.info(`Generated self-signed cert (${certPath}, ${keyPath})`);
  } else klog.info('Generated self-signed cert in-memory');
  return pair;
}

export interface SecureServingConfig {
  bindAddress: string;
  port: number;
  certPem: string;
  keyPem: string;
  sni: readonly SniEntry[];
  /** OpenSSL cipher list; undefined: the runtime's default. */
  ciphers?: string;
  minVersion?: SecureVersion;
  /** `--http2-max-streams-per-connection`; 0: Go's default of 250. */
  http2MaxStreams: number;
  authenticator: Authenticator;
  authorizer: Authorizer;
}

function writeStatus(res: ServingResponse, err: StatusError): void {
  write(res, err.code, 'application/json', JSON.stringify(err.toStatus()));
}

function listen(server: http.Server | http2.Http2SecureServer, bindAddress: string, port: number): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: bindAddress === '' ? undefined : bindAddress, port }, () => {
      server.off('error', reject);
      const addr = server.address();
      const sockets = new Set<import('node:net').Socket>();
      server.on('connection', (s: import('node:net').Socket) => {
        sockets.add(s);
        s.once('close', () => sockets.delete(s));
      });
      server.on('secureConnection', (s: import('node:net').Socket) => {
        sockets.add(s);
        s.once('close', () => sockets.delete(s));
      });
      resolve({
        port: typeof addr === 'object' && addr ? addr.port : port,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            for (const s of sockets) s.destroy();
          }),
      });
    });
  });
}

/** Starts the authenticated HTTPS port. */
export function startSecureServing(cfg: SecureServingConfig, handler: ServingHandler): Promise<RunningServer> {
  const contexts = cfg.sni.map((e) => ({ names: e.names, context: tls.createSecureContext({ cert: e.certPem, key: e.keyPem }) }));
  const server = http2.createSecureServer(
    {
      cert: cfg.certPem,
      key: cfg.keyPem,
      allowHTTP1: true,
      // Client certificates are asked for and checked by the authenticators, never by TLS.
      requestCert: true,
      rejectUnauthorized: false,
      ...(cfg.ciphers ? { ciphers: cfg.ciphers } : {}),
      ...(cfg.minVersion ? { minVersion: cfg.minVersion } : {}),
      settings: { maxConcurrentStreams: cfg.http2MaxStreams > 0 ? cfg.http2MaxStreams : 250 },
      SNICallback: (name, cb) => cb(null, matchSni(contexts, name)?.context),
    },
    (req, res) => {
      serveAuthenticated(cfg, handler, req, res).catch((e) => {
        klog.error(e, 'Observed a panic');
        if (!res.headersSent) writeStatus(res, internalError(e));
        else res.end();
      });
    },
  );
  return listen(server, cfg.bindAddress, cfg.port);
}

async function serveAuthenticated(
  cfg: SecureServingConfig,
  handler: ServingHandler,
  req: http2.Http2ServerRequest | http.IncomingMessage,
  res: ServingResponse,
): Promise<void> {
  let user: Attributes['user'] | undefined;
  try {
    user = await cfg.authenticator.authenticate({ headers: req.headers, rawHeaders: req.rawHeaders, socket: req.socket as TLSSocket });
  } catch (e) {
    if (!(e instanceof AuthenticationFailure)) throw e;
    klog.v(4, 'Unable to authenticate the request', { err: e.message });
  }
  if (!user) {
    writeStatus(res, unauthorized());
    return;
  }
  const path = new URL(req.url ?? '/', 'https://component').pathname;
  // Component paths are non-resource requests: the verb is the lower-cased method.
  const attrs: Attributes = {
    user,
    verb: (req.method ?? 'GET').toLowerCase(),
    isResourceRequest: false,
    path,
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
  const answer = await cfg.authorizer.authorize(attrs);
  if (answer.decision !== 'allow') {
    klog.v(4, 'Forbidden', { URI: req.url, Reason: answer.reason });
    writeStatus(res, refusal(attrs, answer));
    return;
  }
  await handler(req, res);
}

/** Starts the deprecated unauthenticated HTTP port. */
export function startInsecureServing(bindAddress: string, port: number, handler: ServingHandler): Promise<RunningServer> {
  const server = http.createServer((req, res) => {
    handler(req, res).catch((e) => {
      klog.error(e, 'Observed a panic');
      if (!res.headersSent) writeStatus(res, internalError(e));
      else res.end();
    });
  });
  return listen(server, bindAddress, port);
}
