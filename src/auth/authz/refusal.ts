/**
 * What a request the authorizer did not allow is answered with (upstream's responsewriters
 * Forbidden and InternalError), shared by the API server and the components' secure ports.
 */
import type { Attributes, Authorization } from '../../machinery/authorization.js';
import { StatusError } from '../../machinery/status.js';
import { forbiddenMessage } from './authorizer.js';

/** A module error is 500; otherwise 403 with the modules' reason. */
export function refusal(attrs: Attributes, answer: Authorization): StatusError {
  if (answer.error !== undefined)
    return new StatusError(500, 'InternalError', `Internal error occurred: ${answer.error}`, { causes: [{ message: answer.error }] });
  return forbidden(attrs, answer.reason);
}

/** Upstream's responsewriters sanitizer: the message may be shown in a browser. */
function sanitize(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** Upstream's 403: `<resource>.<group> "<name>" is forbidden: User "u" cannot ...[: reason]`. */
export function forbidden(attrs: Attributes, reason = ''): StatusError {
  const msg = sanitize(forbiddenMessage(attrs));
  const err = reason ? `${msg}: ${reason}` : msg;
  const qualified = attrs.apiGroup ? `${attrs.resource}.${attrs.apiGroup}` : attrs.resource;
  const message = qualified === '' ? `forbidden: ${err}` : `${qualified}${attrs.name ? ` ${JSON.stringify(attrs.name)}` : ''} is forbidden: ${err}`;
  return new StatusError(403, 'Forbidden', message, { name: attrs.name || undefined, group: attrs.apiGroup || undefined, kind: attrs.resource || undefined });
}
