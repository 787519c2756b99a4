/**
 * ResourceQuota validation as upstream's (1.25) ValidateResourceQuota, ValidateResourceQuotaUpdate
 * and ValidateResourceQuotaStatusUpdate: quota resource names and values, scopes and the scope
 * selector; scopes never change.
 */
import type { Obj } from '../../machinery/object.js';
import { type FieldError, invalid, PrintedValue, required } from '../../machinery/status.js';
import { goStringSlice } from '../../machinery/validation.js';
import { canonicalResourceList, quantityOf } from './decoding.js';
import { type Rec, rec, records, str, strings } from '../../machinery/fields.js';
import { isStandardQuotaResourceName, validateResourceQuantityValue, validateResourceQuotaResourceName } from './resource-validation.js';

const SCOPES = new Set(['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity']);
const POD_COUNT_RESOURCES = new Set(['pods']);
const POD_COMPUTE_RESOURCES = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);
const EXISTS_ONLY_SCOPES = new Set(['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity']);
const CONFLICTING = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

/** Quantities of a quota are canonical (upstream's ResourceList defaults). */
export function defaultResourceQuota(rq: Obj): void {
  canonicalResourceList(rec(rq.spec).hard);
  const status = rec(rq.status);
  canonicalResourceList(status.hard);
  canonicalResourceList(status.used);
}

/** Upstream's IsResourceQuotaScopeValidForResource. */
function scopeValidFor(scope: string, resource: string): boolean {
  if (scope === 'BestEffort') return POD_COUNT_RESOURCES.has(resource);
  if (SCOPES.has(scope)) return POD_COUNT_RESOURCES.has(resource) || POD_COMPUTE_RESOURCES.has(resource);
  return true;
}

function validateResourceList(list: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(rec(list))) {
    const path = `${fldPath}[${k}]`;
    errs.push(...validateResourceQuotaResourceName(k, path), ...validateResourceQuantityValue(k, quantityOf(v), path));
  }
  return errs;
}

/** A scope list as Go's %#v prints it. */
function printedScopes(scopes: string[]): PrintedValue {
  if (scopes.length === 0) return new PrintedValue('[]core.ResourceQuotaScope(nil)');
  return new PrintedValue(`[]core.ResourceQuotaScope{${scopes.map((s) => JSON.stringify(s)).join(', ')}}`);
}

function validateScopes(spec: Rec): FieldError[] {
  const scopes = strings(spec.scopes);
  if (scopes.length === 0) return [];
  const errs: FieldError[] = [];
  const shown = printedScopes(scopes);
  const hard = Object.keys(rec(spec.hard)).sort();
  for (const scope of scopes) {
    if (!SCOPES.has(scope)) errs.push(invalid('spec.scopes', shown, 'unsupported scope'));
    for (const k of hard)
      if (isStandardQuotaResourceName(k) && !scopeValidFor(scope, k)) errs.push(invalid('spec.scopes', shown, 'unsupported scope applied to resource'));
  }
  for (const pair of CONFLICTING) if (pair.every((s) => scopes.includes(s))) errs.push(invalid('spec.scopes', shown, 'conflicting scopes'));
  return errs;
}

function validateScopeSelector(spec: Rec): FieldError[] {
  const selector = spec.scopeSelector;
  if (selector === undefined || selector === null) return [];
  const errs: FieldError[] = [];
  const fldPath = 'spec.scopeSelector.matchExpressions';
  const hard = Object.keys(rec(spec.hard)).sort();
  const seen = new Set<string>();
  for (const req of records(rec(selector).matchExpressions)) {
    const scope = str(req.scopeName);
    const operator = str(req.operator);
    const values = strings(req.values);
    if (!SCOPES.has(scope)) errs.push(invalid(`${fldPath}.scopeName`, scope, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !scopeValidFor(scope, k)) errs.push(invalid(fldPath, rec(selector), 'unsupported scope applied to resource'));
    }
    if (EXISTS_ONLY_SCOPES.has(scope) && operator !== 'Exists') {
      errs.push(
        invalid(
          `${fldPath}.operator`,
          operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) errs.push(required(`${fldPath}.values`, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length !== 0)
        errs.push(
          invalid(
            `${fldPath}.values`,
            new PrintedValue(goStringSlice(values)),
            "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
          ),
        );
    } else {
      errs.push(invalid(`${fldPath}.operator`, operator, 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  const shown = printedScopes(strings(spec.scopes));
  for (const pair of CONFLICTING) if (pair.every((s) => seen.has(s))) errs.push(invalid(fldPath, shown, 'conflicting scopes'));
  return errs;
}

/** Upstream's ValidateResourceQuotaSpec. */
function validateSpec(spec: Rec): FieldError[] {
  return [...validateResourceList(spec.hard, 'spec.hard'), ...validateScopes(spec), ...validateScopeSelector(spec)];
}

function validateStatus(status: Rec): FieldError[] {
  return [...validateResourceList(status.hard, 'status.hard'), ...validateResourceList(status.used, 'status.used')];
}

/** Upstream's ValidateResourceQuota (object metadata is the registry's). */
export function validateResourceQuota(rq: Obj): FieldError[] {
  return [...validateSpec(rec(rq.spec)), ...validateStatus(rec(rq.status))];
}

/** Upstream's ValidateResourceQuotaUpdate: the spec's rules, and scopes never change. */
export function validateResourceQuotaUpdate(rq: Obj, old: Obj): FieldError[] {
  const errs = validateSpec(rec(rq.spec));
  const scopes = strings(rec(rq.spec).scopes);
  const oldScopes = strings(rec(old.spec).scopes);
  const same = new Set(scopes).size === new Set(oldScopes).size && scopes.every((s) => oldScopes.includes(s));
  if (!same) {
    errs.push(invalid('spec.scopes', printedScopes(scopes), 'field is immutable'));
  }
  return errs;
}

/** Upstream's ValidateResourceQuotaStatusUpdate (beyond metadata). */
export function validateResourceQuotaStatusUpdate(rq: Obj): FieldError[] {
  return validateStatus(rec(rq.status));
}
