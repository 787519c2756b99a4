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
  /**
   * The same answer with a failure returned instead of thrown, for the union, which goes on to
   * the next method. A method that fails ordinary requests (the front proxy's, for every client
   * certificate it did not issue) offers it: V8 walks the stack for each throw's message.
   */
  attempt?(req: AuthenticationRequest): UserInfo | undefined | AuthenticationFailure | Promise<UserInfo | undefined>;
}

/**
 * Credentials were presented and rejected; the message is for logs, never for the client.
 * Raised on ordinary paths (every certificate the front-proxy CA did not issue is one, before
 * the x509 method accepts it), so it captures no stack: that capture cost more than the rest
 * of a GET.
 */
export class AuthenticationFailure extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

/** A value now or later: authenticators answer synchronously when they can (cache hits), so the hot path awaits nothing. */
export type Maybe<T> = T | Promise<T>;

/**
 * Tries methods in order until one finds a user: upstream's union. When none does, any failure
 * makes the request 401 (the failures thrown together), otherwise there is no user. Stays
 * synchronous while the methods do.
 */
export function firstFound<M, U>(methods: readonly M[], attempt: (m: M) => Maybe<U | undefined> | AuthenticationFailure): Maybe<U | undefined> {
  return tryFrom(methods, attempt, 0, undefined);
}

/**
 * firstFound from methods[start], with the failures of the methods before it. A plain loop until
 * a method answers later: every request passes here, and the usual answer is synchronous.
 */
function tryFrom<M, U>(
  methods: readonly M[],
  attempt: (m: M) => Maybe<U | undefined> | AuthenticationFailure,
  start: number,
  failures: string[] | undefined,
): Maybe<U | undefined> {
  for (let i = start; i < methods.length; i++) {
    let result: Maybe<U | undefined> | AuthenticationFailure;
    try {
      result = attempt(methods[i]);
    } catch (e) {
      if (!(e instanceof AuthenticationFailure)) throw e;
      (failures ??= []).push(e.message);
      continue;
    }
    if (result instanceof AuthenticationFailure) {
      (failures ??= []).push(result.message);
      continue;
    }
    if (result instanceof Promise) {
      const next = i + 1;
      return result.then(
        (user) => user ?? tryFrom(methods, attempt, next, failures),
        (e) => {
          if (!(e instanceof AuthenticationFailure)) throw e;
          (failures ??= []).push(e.message);
          return tryFrom(methods, attempt, next, failures);
        },
      );
    }
    if (result) return result;
  }
  if (failures !== undefined) throw new AuthenticationFailure(failures.join(', '));
  return undefined;
}

/** Upstream's request-authenticator union. */
export function unionAuthenticator(methods: readonly Authenticator[]): Authenticator {
  return { authenticate: (req) => firstFound(methods, (m) => (m.attempt !== undefined ? m.attempt(req) : m.authenticate(req))) };
}

/** Applies fn to a value now or later. */
export function mapMaybe<T, R>(value: Maybe<T>, fn: (v: T) => R): Maybe<R> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
