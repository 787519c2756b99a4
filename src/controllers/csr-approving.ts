/**
 * The csrapproving controller (upstream's `pkg/controller/certificates/approver/sarapprove.go`):
 * a pending kubelet client request (signer `<labelDomain>/kube-apiserver-client-kubelet`, a
 * valid node client subject and usages) is approved when its requester may `create`
 * `certificatesigningrequests/selfnodeclient` (requesting for itself) or `/nodeclient`, as a
 * SubjectAccessReview for the requester answers. The approval goes through `/approval`.
 */
import type { RestClient } from '../client/rest-client.js';
import { ApiError } from '../client/rest-client.js';
import { type ListWatch, listAndWatch } from '../client/list-watch.js';
import type { Brand } from '../machinery/brand.js';
import { type RequestSubject, judgeRequest, signerNames } from './csr-signer-rules.js';
import { type CertificateSigningRequest, hasTrueCondition } from './csr-object.js';
import { KeyedQueue } from './keyed-queue.js';

export interface CsrApprovingControllerOptions {
  client: RestClient;
  brand: Brand;
  /** Parses (and verifies the self-signature of) a PEM request; throws when it cannot. */
  parse: (csrPem: string) => Promise<RequestSubject>;
  log?: (line: string) => void;
}

interface Recognizer {
  subresource: string;
  successMessage: string;
  recognize(csr: CertificateSigningRequest, req: RequestSubject): boolean;
}

export class CsrApprovingController {
  private listWatch: ListWatch | undefined;
  private readonly known = new Map<string, CertificateSigningRequest>();
  private readonly queue: KeyedQueue;
  private readonly base: string;
  private readonly recognizers: Recognizer[];

  constructor(private readonly opts: CsrApprovingControllerOptions) {
    this.base = `/apis/${opts.brand.group('certificates', true)}/v1/certificatesigningrequests`;
    const kubeletClient = signerNames(opts.brand).kubeletClient;
    const isNodeClient = (csr: CertificateSigningRequest, req: RequestSubject) =>
      csr.spec.signerName === kubeletClient && judgeRequest(opts.brand, kubeletClient, req, csr.spec.usages ?? [])?.ok === true;
    // Upstream's order: a node asking for itself first, then anyone allowed to ask for nodes.
    this.recognizers = [
      {
        subresource: 'selfnodeclient',
        successMessage: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
        recognize: (csr, req) => csr.spec.username === req.commonName && isNodeClient(csr, req),
      },
      {
        subresource: 'nodeclient',
        successMessage: 'Auto approving kubelet client certificate after SubjectAccessReview.',
        recognize: isNodeClient,
      },
    ];
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
    if (!csr || csr.status?.certificate) return;
    // Upstream looks for the condition types, whatever their status.
    if ((csr.status?.conditions ?? []).some((c) => c.type === 'Approved' || c.type === 'Denied')) return;
    if (hasTrueCondition(csr, 'Failed')) return;
    let req: RequestSubject;
    try {
      req = await this.opts.parse(Buffer.from(csr.spec.request ?? '', 'base64').toString('utf8'));
    } catch (err) {
      throw new Error(`unable to parse csr "${name}": ${(err as Error).message}`);
    }
    const tried: string[] = [];
    for (const r of this.recognizers) {
      if (!r.recognize(csr, req)) continue;
      tried.push(r.subresource);
      if (!(await this.allowed(csr, r.subresource))) continue;
      const conditions = [...(csr.status?.conditions ?? []), { type: 'Approved', status: 'True', reason: 'AutoApproved', message: r.successMessage }];
      try {
        await this.opts.client.expect('PUT', `${this.base}/${encodeURIComponent(name)}/approval`, { ...csr, status: { ...csr.status, conditions } });
      } catch (err) {
        if (err instanceof ApiError && (err.status === 409 || err.status === 404)) return;
        throw err;
      }
      return;
    }
    // Upstream's IgnorableError: logged, not retried until the request changes.
    if (tried.length > 0) this.log(`I recognized csr "${name}" as [${tried.join(' ')}] but subject access review was not approved`);
  }

  private async allowed(csr: CertificateSigningRequest, subresource: string): Promise<boolean> {
    const group = this.opts.brand.group('authorization', true);
    const review = await this.opts.client.expect<{ status?: { allowed?: boolean } }>('POST', `/apis/${group}/v1/subjectaccessreviews`, {
      apiVersion: `${group}/v1`,
      kind: 'SubjectAccessReview',
      spec: {
        user: csr.spec.username,
        uid: csr.spec.uid,
        groups: csr.spec.groups,
        extra: csr.spec.extra,
        resourceAttributes: {
          group: this.opts.brand.group('certificates', true),
          resource: 'certificatesigningrequests',
          verb: 'create',
          subresource,
          version: '*',
        },
      },
    });
    return review.status?.allowed === true;
  }
}
