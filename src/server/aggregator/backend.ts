/**
 * How the aggregator reaches the server behind a remote APIService: its service resolved as
 * the webhook client resolves one (an ExternalName Service at its external name, another
 * Service at a ready, non-loopback address of its Endpoints), over TLS verified with the
 * APIService's caBundle against `<service>.<namespace>.svc` (or not verified at all with
 * insecureSkipTLSVerify), presenting orch's proxy client certificate. Connections are kept
 * alive per distinct trust, as upstream's proxy transport cache does.
 */
import https from 'node:https';
import type tls from 'node:tls';
import { type CoreLookup, resolveTarget } from '../../admission/webhooks/target.js';
import type { APIServiceView } from './apiservice.js';

/** The front-proxy client identity the aggregator presents (`--proxy-client-cert-file`/`--proxy-client-key-file`). */
export interface ProxyClientCertificate {
  certPem: string;
  keyPem: string;
}

export interface Backend {
  /** `https://host:port` of the server to call. */
  origin: URL;
  tls: tls.ConnectionOptions;
  agent: https.Agent;
}

/** Distinct trusts whose connections are kept alive. */
const MAX_AGENTS = 64;
/** Connections per backend (upstream's proxy transport leaves this to Go's defaults; bounded here). */
const MAX_SOCKETS = 256;

export class BackendTransport {
  private readonly agents = new Map<string, https.Agent>();

  constructor(
    private readonly lookup: CoreLookup,
    private readonly client: ProxyClientCertificate | undefined,
  ) {}

  /** The backend of a remote APIService now; throws an Error with the resolver's words when there is none. */
  async resolve(view: APIServiceView): Promise<Backend> {
    const service = view.service;
    if (service === undefined) throw new Error(`APIService ${view.name} is local`);
    const target = await resolveTarget({ service: { ...service, path: '' } }, this.lookup);
    const options: tls.ConnectionOptions = {
      servername: target.serverName,
      rejectUnauthorized: !view.insecureSkipTLSVerify,
      ca: view.insecureSkipTLSVerify ? undefined : view.caPem,
      cert: this.client?.certPem,
      key: this.client?.keyPem,
    };
    return { origin: new URL(target.url.origin), tls: options, agent: this.agentFor(view, target.serverName ?? '') };
  }

  private agentFor(view: APIServiceView, serverName: string): https.Agent {
    const key = `${serverName}\n${view.insecureSkipTLSVerify}\n${view.caPem ?? ''}`;
    let agent = this.agents.get(key);
    if (agent === undefined) {
      if (this.agents.size >= MAX_AGENTS) {
        const [oldest, old] = this.agents.entries().next().value as [string, https.Agent];
        this.agents.delete(oldest);
        old.destroy();
      }
      agent = new https.Agent({
        keepAlive: true,
        maxSockets: MAX_SOCKETS,
        servername: serverName || undefined,
        rejectUnauthorized: !view.insecureSkipTLSVerify,
        ca: view.insecureSkipTLSVerify ? undefined : view.caPem,
        cert: this.client?.certPem,
        key: this.client?.keyPem,
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  close(): void {
    for (const a of this.agents.values()) a.destroy();
    this.agents.clear();
  }
}

/** A TLS or socket error in the words of Go's crypto/tls and net packages, which upstream's messages carry. */
export function goTransportError(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: ${(err as Error).message}`;
  }
  return undefined;
}
