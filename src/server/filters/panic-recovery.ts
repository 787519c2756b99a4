/**
 * Every failure below this filter becomes a Status in the client's representation (JSON when it
 * cannot be had): a StatusError as itself, anything else as a 500 InternalError, never a crash.
 */
import type { Brand } from '../../machinery/brand.js';
import { parseAccept } from '../../codec/accept.js';
import { negotiate } from '../../codec/negotiation.js';
import { type Output, type Request, writeError } from '../http.js';
import type { Filter } from './chain.js';

export function withPanicRecovery(brand: Brand): Filter {
  return (state, next) => {
    const recover = (err: unknown) => writeError(state.res, err, errorOutput(state.req, brand));
    try {
      return next(state).catch(recover);
    } catch (err) {
      // A filter below threw before returning its promise (a malformed parameter).
      recover(err);
      return Promise.resolve();
    }
  };
}

/** Errors go out in the representation the client asked for, or JSON when it cannot be had. */
function errorOutput(req: Request, brand: Brand): Output | undefined {
  try {
    const { encodings, protobufMediaType } = negotiate(parseAccept(req.headers.accept as string | undefined), brand);
    return { encodings, pretty: false, protobufMediaType };
  } catch {
    return undefined;
  }
}
