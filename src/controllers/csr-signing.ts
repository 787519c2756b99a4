/**
 * The csrsigning controller: an approved, not failed CertificateSigningRequest for one of the
 * built-in signers gets `status.certificate`, signed by the cluster signing CA, for
 * `spec.expirationSeconds` (capped by the configured duration); a request the signer's rules
 * refuse gets a `Failed` condition instead (upstream's `pkg/controller/certificates/signer`).
 * Signing and request parsing are injected: the certificate code lives in pki/.
 */
import type { RestClient } from '../client/rest-client.js';
import { ApiError } from '../client/rest-client.js';
import { type ListWatch, listAndWatch } from '../client/list-watch.js';
import type { Brand } from '../machinery/brand.js';
import { type RequestSubject, judgeRequest } from './csr-signer-rules.js';
import { type CertificateSigningRequest, hasTrueCondition, isApproved } from './csr-object.js';
import { KeyedQueue } from './keyed-queue.js';

export interface CsrSigningControllerOptions {
  client: RestClient;
  brand: Brand;
  /** Parses (and verifies the self-signature of) a PEM request; throws when it cannot. */
  parse: (csrPem: string) => Promise<RequestSubject>;
  /** Signs a PEM request for the usages and lifetime; resolves to the certificate PEM. */
  sign: (csrPem: string, usages: readonly string[], ttlSeconds: number) => Promise<string>;
  /** `--cluster-signing-duration`: the longest certificate issued (upstream default 8760h). */
  maxDurationSeconds?: number;
  log?: (line: string) => void;
}

const DEFAULT_DURATION_SECONDS = 365 * 24 * 3600;

export class CsrSigningController {
  private listWatch: ListWatch | undefined;
  private readonly known = new Map<string, CertificateSigningRequest>();
  private readonly queue: KeyedQueue;
  private readonly base: string;

  constructor(private readonly opts: CsrSigningControllerOptions) {
    this.base = `/apis/${opts.brand.group('certificates', true)}/v1/certificatesigningrequests`;
    this.queue = new KeyedQueue(
      (name) => this.sync(name),
      (name, err) => this.log(`E error syncing certificate signing request ${name}: ${(err as Error).message}`),
    );
  }

  start(): void {
    this.listWatch = listAndWatch<CertificateSigningRequest>(this.opts.client, this.base, {
      onList: (items) => {
        this.known.clear();
        for (const csr of items) this.observe(csr);
      },
      onEvent: (type, csr) => {
        if (type === 'DELETED') this.known.delete(csr.metadata.name);
        else this.observe(csr);
      },
    });
  }

  stop(): void {
    this.listWatch?.stop();
    this.queue.stop();
  }

  private observe(csr: CertificateSigningRequest): void {
    this.known.set(csr.metadata.name, csr);
    this.queue.add(csr.metadata.name);
  }

  private log(line: string): void {
    (this.opts.log ?? ((l) => process.stderr.write(`${l}\n`)))(line);
  }

  private async sync(name: string): Promise<void> {
    const csr = this.known.get(name);
    if (!csr) return;
    if (!isApproved(csr) || hasTrueCondition(csr, 'Failed') || csr.status?.certificate) return;
    const requestPem = Buffer.from(csr.spec.request ?? '', 'base64').toString('utf8');
    let subject: RequestSubject;
    try {
      subject = await this.opts.parse(requestPem);
    } catch (err) {
      // Upstream returns the parse error and retries; validation at create makes this rare.
      throw new Error(`unable to parse csr "${name}": ${(err as Error).message}`);
    }
    const usages = csr.spec.usages ?? [];
    const verdict = judgeRequest(this.opts.brand, csr.spec.signerName ?? '', subject, usages);
    if (verdict === undefined) return;
    if (!verdict.ok) {
      const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      const conditions = [
        ...(csr.status?.conditions ?? []),
        { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: verdict.message, lastUpdateTime: now, lastTransitionTime: now },
      ];
      await this.updateStatus(csr, { ...csr.status, conditions });
      return;
    }
    const max = this.opts.maxDurationSeconds ?? DEFAULT_DURATION_SECONDS;
    const ttl = csr.spec.expirationSeconds !== undefined ? Math.min(csr.spec.expirationSeconds, max) : max;
    const certPem = await this.opts.sign(requestPem, usages, ttl);
    await this.updateStatus(csr, { ...csr.status, certificate: Buffer.from(certPem).toString('base64') });
  }

  private async updateStatus(csr: CertificateSigningRequest, status: CertificateSigningRequest['status']): Promise<void> {
    const path = `${this.base}/${encodeURIComponent(csr.metadata.name)}/status`;
    try {
      await this.opts.client.expect('PUT', path, { ...csr, status });
    } catch (err) {
      // A conflict means a newer version is on its way through the watch; it is synced then.
      if (err instanceof ApiError && (err.status === 409 || err.status === 404)) return;
      throw err;
    }
  }
}
