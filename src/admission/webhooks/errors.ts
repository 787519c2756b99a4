/** Upstream's admission-webhook errors, with their exact texts. */
import type { Rec } from '../../machinery/fields.js';
import { badRequest, internalError, StatusError, type StatusReason } from '../../machinery/status.js';

/** A call that did not produce a usable answer (upstream's ErrCallingWebhook): failurePolicy decides. */
export class CallingWebhookError extends Error {
  constructor(
    readonly webhook: string,
    reason: string,
  ) {
    super(`failed calling webhook "${webhook}": ${reason}`);
  }
}

/** failurePolicy Fail: upstream's NewInternalError of the call's error. */
export function failedClosed(e: CallingWebhookError): StatusError {
  return internalError(e);
}

/** Upstream's NewDryRunUnsupportedErr. */
export function dryRunUnsupported(webhook: string): StatusError {
  return badRequest(`admission webhook "${webhook}" does not support dry run`);
}

/** Upstream's ToStatusErr: a denial as the request's error (at least 400, always a Failure). */
export function denied(webhook: string, status: Rec | undefined): StatusError {
  const by = `admission webhook "${webhook}" denied the request`;
  const s = status ?? {};
  const code = typeof s.code === 'number' && s.code >= 400 && s.code <= 599 ? s.code : 400;
  const message = typeof s.message === 'string' ? s.message : '';
  const reason = typeof s.reason === 'string' ? s.reason : '';
  const text = message !== '' ? `${by}: ${message}` : reason !== '' ? `${by}: ${reason}` : `${by} without explanation`;
  const details = s.details !== null && typeof s.details === 'object' ? (s.details as StatusError['details']) : undefined;
  return new StatusError(code, reason as StatusReason, text, details);
}
