/** Authentication: the union of the configured methods names the user, or the request is 401. */
import { type Authenticator, AuthenticationFailure } from '../../auth/authn/authenticator.js';
import type { UserInfo } from '../../machinery/user.js';
import { unauthorized } from '../../machinery/status.js';
import type { TLSSocket } from 'node:tls';
import type { Filter, Handler, RequestState } from './chain.js';

export function withAuthentication(authenticator: Authenticator): Filter {
  return (state, next) => {
    let found: ReturnType<Authenticator['authenticate']>;
    try {
      found = authenticator.authenticate({ headers: state.req.headers, rawHeaders: state.req.rawHeaders, socket: state.req.socket as TLSSocket });
    } catch (e) {
      return Promise.reject(refusal(e));
    }
    // A cached answer (certificates, tokens seen before) goes on without a turn of the event loop.
    if (!(found instanceof Promise)) return proceed(found, state, next);
    return found.then(
      (user) => proceed(user, state, next),
      (e) => Promise.reject(refusal(e)),
    );
  };
}

function proceed(user: UserInfo | undefined, state: RequestState, next: Handler): Promise<void> {
  if (!user) return Promise.reject(unauthorized());
  state.user = user;
  return next(state);
}

/** The reason stays in the server: a client learns only that its credentials failed. */
function refusal(e: unknown): unknown {
  return e instanceof AuthenticationFailure ? unauthorized() : e;
}
