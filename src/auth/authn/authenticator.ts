/**
 * What an authentication method sees of a request and answers: the headers and the TLS peer,
 * never an HTTP object (auth/ knows no HTTP types), and a user, no opinion, or a failure.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { UserInfo } from '../../machinery/user.js';

export interface AuthenticationRequest {
  headers: IncomingHttpHeaders;
  /** The headers as sent, name and value alternating (repeated headers kept apart). */
  rawHeaders: readonly string[];
  /** The connection's TLS socket (client certificates live there). */
  socket: TLSSocket;
}

/**
 * One authentication method. Returns the user, or undefined when the request carries nothing
 * this method reads; throws AuthenticationFailure when it carries credentials that are wrong
 * (a bad certificate, an unknown token): those requests are 401, never anonymous.
 */
export interface Authenticator {
  authenticate(req: AuthenticationRequest): UserInfo | undefined | Promise<UserInfo | undefined>;
}

/** Credentials were presented and rejected; the message is for logs, never for the client. */
export class AuthenticationFailure extends Error {}

/**
 * Upstream's union: methods in order, the first user wins; when none finds a user, any failure
 * makes the request 401 (by throwing the failures together), otherwise it has no user.
 */
export function unionAuthenticator(methods: readonly Authenticator[]): Authenticator {
  return {
    async authenticate(req) {
      const failures: string[] = [];
      for (const m of methods) {
        try {
          const user = await m.authenticate(req);
          if (user) return user;
        } catch (e) {
          if (!(e instanceof AuthenticationFailure)) throw e;
          failures.push(e.message);
        }
      }
      if (failures.length > 0) throw new AuthenticationFailure(failures.join(', '));
      return undefined;
    },
  };
}
