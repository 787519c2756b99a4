/** Mapping a verified TLS client certificate to a user, as Kubernetes' x509 authenticator does. */
import type { PeerCertificate } from 'node:tls';

export interface CertificateIdentity {
  name: string;
  groups: string[];
}

/** Group every authenticated user belongs to. */
export const AUTHENTICATED_GROUP = 'system:authenticated';

/**
 * CN is the user name, each O a group, plus `system:authenticated`; the caller has already
 * checked `socket.authorized` — this function trusts the certificate it is given.
 */
export function identityFromCertificate(cert: PeerCertificate): CertificateIdentity {
  const subject = (cert.subject ?? {}) as unknown as Record<string, string | string[] | undefined>;
  // Node gives a repeated attribute as an array and a single one as a string.
  const name = first(subject.CN) ?? '';
  const groups = all(subject.O);
  // Like upstream's AuthenticatedGroupAdder: add the group once, even if a certificate names it.
  if (!groups.includes(AUTHENTICATED_GROUP)) groups.push(AUTHENTICATED_GROUP);
  return { name, groups };
}

function all(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...value] : [value];
}

function first(value: string | string[] | undefined): string | undefined {
  return all(value)[0];
}
