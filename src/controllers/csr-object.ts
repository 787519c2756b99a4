/** The CertificateSigningRequest fields the certificate controllers read, and its condition rules. */

export interface CsrCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CertificateSigningRequest {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; resourceVersion?: string; uid?: string };
  spec: {
    request?: string;
    signerName?: string;
    usages?: string[];
    expirationSeconds?: number;
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: { conditions?: CsrCondition[]; certificate?: string };
}

/** True when a condition of this type has status True (upstream's HasTrueCondition). */
export function hasTrueCondition(csr: CertificateSigningRequest, type: string): boolean {
  return (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** Approved and not Denied (upstream's IsCertificateRequestApproved). */
export function isApproved(csr: CertificateSigningRequest): boolean {
  return hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied');
}
