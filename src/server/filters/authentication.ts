/** Authentication: the union of the configured methods names the user, or the request is 401. */
import { type Authenticator, AuthenticationFailure } from '../../auth/authn/authenticator.js';
import { unauthorized } from '../../machinery/status.js';
import type { TLSSocket } from 'node:tls';
import type { Filter } from './chain.js';

export function withAuthentication(authenticator: Authenticator): Filter {
  return async (state, next) => {
    let user: Awaited<ReturnType<Authenticator['authenticate']>>;
    try {
      user = await authenticator.authenticate({ headers: state.req.headers, rawHeaders: state.req.rawHeaders, socket: state.req.socket as TLSSocket });
    } catch (e) {
      // The reason stays in the server: a client learns only that its credentials failed.
      if (e instanceof AuthenticationFailure) throw unauthorized();
      throw e;
    }
    if (!user) throw unauthorized();
    state.user = user;
    return next(state);
  };
}
