/**
 * The all-in-one's scheduler: the same component `orch-scheduler` runs, started in-process
 * but talking to the API server only over HTTPS through client/, with its own identity — a
 * client certificate from orch's CA for `system:<word>-scheduler` with no groups, as
 * upstream's kube-scheduler certificate — so authorization treats it like the real thing.
 */
import { RestClient } from '../client/rest-client.js';
import type { Brand } from '../machinery/brand.js';
import { issueClientCertificate, type PkiMaterial } from '../pki/certificates.js';
import { type RunningScheduler, startScheduler } from '../scheduler/process/start-scheduler.js';
import type { ControlPlaneOptions } from './control-plane-types.js';

export interface InProcessScheduler {
  readonly running: RunningScheduler;
  stop(): Promise<void>;
}

/** Upstream's clientConnection defaults for kube-scheduler. */
const DEFAULT_CLIENT_CONNECTION = { qps: 50, burst: 100 };

/** The user the scheduler's certificate names (`system:orch-scheduler` / `system:kube-scheduler`). */
export function schedulerUser(brand: Brand): string {
  return `system:${brand.word}-scheduler`;
}

/** Starts the scheduler against the control plane at url; it runs without leader election (the data-dir lock already makes it the only one). */
export async function startInProcessScheduler(a: { opts: ControlPlaneOptions; brand: Brand; url: string; pki: PkiMaterial }): Promise<InProcessScheduler> {
  const identity = a.opts.schedulerIdentity ?? 'scheduler';
  const credentials =
    identity === 'scheduler'
      ? await issueClientCertificate(a.pki.caCertPem, a.pki.caKeyPem, schedulerUser(a.brand), [])
      : { certPem: a.pki.adminCertPem, keyPem: a.pki.adminKeyPem };
  const conn = a.opts.schedulerClientConnection ?? DEFAULT_CLIENT_CONNECTION;
  // JSON, not orch-scheduler's Protobuf default: this client shares the API server's thread,
  // where a large JSON answer (the initial list of every pod) is parsed in steps and a Protobuf
  // one would be decoded at once.
  const client = new RestClient({
    server: a.url,
    caPem: a.pki.caCertPem,
    certPem: credentials.certPem,
    keyPem: credentials.keyPem,
    userAgent: `${a.brand.word}-scheduler`,
    qps: conn.qps,
    burst: conn.burst,
  });
  const running = startScheduler({
    client,
    brand: a.brand,
    config: a.opts.schedulerConfig,
    log: (level, message) => {
      if (level === 'error' && (a.opts.verbosity ?? 0) >= 1) console.error(`scheduler: ${message}`);
    },
  });
  return {
    running,
    async stop() {
      await running.stop();
      client.close();
    },
  };
}
