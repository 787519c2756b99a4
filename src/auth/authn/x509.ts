/**
 * Client-certificate authentication: a certificate verified against the client CA is the
 * user in its subject CN with its O fields as groups. The result is cached per connection,
 * since a TLS connection's peer never changes.
 */
import type { TLSSocket } from 'node:tls';
import type { UserInfo } from '../../machinery/user.js';
import { identityFromCertificate } from '../../pki/client-identity.js';
import type { Authenticator } from './authenticator.js';

const cache = new WeakMap<object, UserInfo | null>();

/** The user of a verified client certificate on this connection, or undefined. */
export function authenticateClientCertificate(socket: TLSSocket): UserInfo | undefined {
  const hit = cache.get(socket);
  if (hit !== undefined) return hit ?? undefined;
  let user: UserInfo | null = null;
  if (socket.authorized) {
    const cert = socket.getPeerCertificate();
    if (cert && Object.keys(cert).length > 0) user = identityFromCertificate(cert);
  }
  cache.set(socket, user);
  return user ?? undefined;
}

/** Client certificates as an authentication method. */
export const x509Authenticator: Authenticator = {
  authenticate: (req) => authenticateClientCertificate(req.socket),
};
