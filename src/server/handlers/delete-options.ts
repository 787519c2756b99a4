/**
 * DeleteOptions from the query and the optional body, validated as upstream's
 * ValidateDeleteOptions (422 Invalid of kind DeleteOptions).
 */
import type { DeleteOptions } from '../../registry/context.js';
import { invalidObject, notSupported, type FieldError } from '../../machinery/status.js';
import { isPlainObject } from '../../machinery/object.js';
import type { Brand } from '../../machinery/brand.js';
import { intParam } from './resource-request.js';

const POLICIES = ['Foreground', 'Background', 'Orphan'] as const;

/** Merges body and query delete options (the query wins, as upstream) and validates them. */
export function deleteOptionsOf(query: URLSearchParams, body: unknown, dryRun: boolean, brand: Brand): DeleteOptions {
  const b = isPlainObject(body) ? body : {};
  const errs: FieldError[] = [];
  const grace = intParam(query, 'gracePeriodSeconds') ?? (typeof b.gracePeriodSeconds === 'number' ? b.gracePeriodSeconds : undefined);
  const policy = query.get('propagationPolicy') ?? (typeof b.propagationPolicy === 'string' ? b.propagationPolicy : undefined);
  const orphanParam = query.get('orphanDependents');
  const orphan = orphanParam !== null ? orphanParam === 'true' : typeof b.orphanDependents === 'boolean' ? b.orphanDependents : undefined;
  if (policy !== undefined && !(POLICIES as readonly string[]).includes(policy)) {
    errs.push(notSupported('propagationPolicy', policy, [...POLICIES]));
  }
  if (policy !== undefined && orphan !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'propagationPolicy', value: policy, detail: 'orphanDependents and deletionPropagation cannot be both set' });
  }
  if (errs.length > 0) throw invalidObject('DeleteOptions', brand.metaGroup, '', errs);
  const pre = isPlainObject(b.preconditions) ? b.preconditions : undefined;
  return {
    dryRun,
    gracePeriodSeconds: grace,
    propagationPolicy: (policy ?? (orphan === true ? 'Orphan' : undefined)) as DeleteOptions['propagationPolicy'],
    preconditions: pre ? { uid: pre.uid as string | undefined, resourceVersion: pre.resourceVersion as string | undefined } : undefined,
  };
}
