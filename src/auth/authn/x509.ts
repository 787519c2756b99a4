/**
 * Client-certificate authentication (`--client-ca-file`), as upstream's x509 authenticator:
 * a certificate issued by one of the CAs, valid now and with the clientAuth usage, is the user
 * in its subject CN with each O as a group. A certificate that fails verification is an error
 * (401, never anonymous); no certificate, or an empty CN, is no opinion. The TLS layer only
 * collects the certificate; each authenticator verifies against its own CAs, so the front
 * proxy's CA never vouches for ordinary users. Results are cached per connection: its peer
 * never changes.
 */
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { UserInfo } from '../../machinery/user.js';
import { AuthenticationFailure, type Authenticator } from './authenticator.js';
import { identityFromCertificate } from '../../pki/client-identity.js';

const CLIENT_AUTH_USAGE = '1.3.6.1.5.5.7.3.2';
const ANY_USAGE = '2.5.29.37.0';

/** A verified peer certificate, or a reason it is not. */
export type PeerVerification = { cert: X509Certificate } | { error: string } | undefined;

/** Splits a PEM bundle into certificates; throws on anything unreadable. */
export function parseCertificateBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('no certificate found in the PEM data');
  return blocks.map((b) => new X509Certificate(b));
}

/** Verifies the connection's client certificate against roots (issued by one, in date, clientAuth). */
export function verifyPeer(socket: TLSSocket, roots: readonly X509Certificate[], now = Date.now()): PeerVerification {
  const raw = socket.getPeerX509Certificate?.();
  if (!raw) return undefined;
  const subject = raw.subject.split('\n').find((l) => l.startsWith('CN=')) ?? 'CN=';
  const fail = (why: string) => ({ error: `verifying certificate ${subject}, serial ${raw.serialNumber} failed: x509: ${why}` });
  if (Date.parse(raw.validFrom) > now || Date.parse(raw.validTo) < now) return fail('certificate has expired or is not yet valid');
  const issuer = roots.find((ca) => raw.checkIssued(ca) && raw.verify(ca.publicKey));
  if (!issuer) return fail('certificate signed by unknown authority');
  const usages = raw.keyUsage;
  if (usages !== undefined && !usages.includes(CLIENT_AUTH_USAGE) && !usages.includes(ANY_USAGE))
    return fail('certificate specifies an incompatible key usage');
  return { cert: raw };
}

/**
 * verifyPeer against roots, remembered per connection (its peer never changes): a certificate's
 * parse and signature check cost more than the rest of a GET, so each connection pays it once.
 */
export function cachedPeerVerifier(roots: readonly X509Certificate[]): (socket: TLSSocket) => PeerVerification {
  const cache = new WeakMap<object, { v: PeerVerification; at: number }>();
  return (socket) => {
    const now = Date.now();
    const hit = cache.get(socket);
    // Re-checked once a minute, so a connection outliving its certificate stops authenticating.
    if (hit !== undefined && now - hit.at < 60_000) return hit.v;
    const v = verifyPeer(socket, roots, now);
    cache.set(socket, { v, at: now });
    return v;
  };
}

/** Client certificates issued by caPem's CAs as an authentication method. */
export function x509Authenticator(caPem: string): Authenticator {
  const roots = parseCertificateBundle(caPem);
  const cache = new WeakMap<object, UserInfo | string | null>();
  return {
    authenticate(req) {
      let hit = cache.get(req.socket);
      if (hit === undefined) {
        hit = identify(req.socket, verifyPeer(req.socket, roots));
        cache.set(req.socket, hit);
      }
      if (typeof hit === 'string') throw new AuthenticationFailure(hit);
      return hit ?? undefined;
    },
  };
}

function identify(socket: TLSSocket, v: PeerVerification): UserInfo | string | null {
  if (v === undefined) return null;
  if ('error' in v) return v.error;
  const user = identityFromCertificate(socket.getPeerCertificate());
  return user.name === '' ? null : user;
}
