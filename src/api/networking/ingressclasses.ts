/**
 * IngressClass: parameters.scope defaults to Cluster; upstream's ValidateIngressClass (a
 * domain-prefixed controller of at most 250 characters, immutable; a valid parameters reference
 * whose scope decides whether it names a namespace).
 */
import type { Obj } from '../../machinery/object.js';
import { type FieldError, forbiddenField, invalid, notSupported, required, tooLong } from '../../machinery/status.js';
import { isDNS1123Subdomain, nameIsDNSLabel, regexError } from '../../machinery/validation.js';
import { isSet, type Rec, rec, recOrNil, str } from '../../machinery/fields.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../core/value-validation.js';
import { networking } from '../groups.js';
import { typedLocalObjectReferenceErrors } from './ingress-validation.js';

const MAX_CONTROLLER_LENGTH = 250;
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH_FMT}$`);
const SCOPES = ['Cluster', 'Namespace'];

/** Upstream's IsDomainPrefixedPath. */
function domainPrefixedPathErrors(value: string, fldPath: string): FieldError[] {
  if (value === '') return [required(fldPath, '')];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const path = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || path === '') return [invalid(fldPath, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDNS1123Subdomain(host).map((m) => invalid(fldPath, host, m));
  if (!HTTP_PATH_RE.test(path)) errs.push(invalid(fldPath, path, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

function parametersErrors(params: Rec | undefined): FieldError[] {
  if (params === undefined) return [];
  const path = 'spec.parameters';
  const errs = typedLocalObjectReferenceErrors(params, path);
  if (!isSet(params.scope)) return [...errs, required(`${path}.scope`, '')];
  const scope = str(params.scope);
  if (!SCOPES.includes(scope)) return [...errs, notSupported(`${path}.scope`, scope, SCOPES)];
  if (scope === 'Namespace') {
    if (!isSet(params.namespace)) errs.push(required(`${path}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else errs.push(...nameIsDNSLabel(str(params.namespace), false).map((m) => invalid(`${path}.namespace`, str(params.namespace), m)));
  }
  if (scope === 'Cluster' && isSet(params.namespace)) errs.push(forbiddenField(`${path}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

/** Upstream's validateIngressClassSpec (without the generic metadata checks). */
export function validateIngressClass(obj: Obj): FieldError[] {
  const spec = rec(obj.spec);
  const controller = str(spec.controller);
  const errs: FieldError[] = [];
  if (controller.length > MAX_CONTROLLER_LENGTH) errs.push(tooLong('spec.controller', controller, MAX_CONTROLLER_LENGTH));
  errs.push(...domainPrefixedPathErrors(controller, 'spec.controller'), ...parametersErrors(recOrNil(spec.parameters)));
  return errs;
}

/** Upstream's ValidateIngressClassUpdate: the controller never changes, then the class's own rules. */
export function validateIngressClassUpdate(obj: Obj, old: Obj): FieldError[] {
  const controller = str(rec(obj.spec).controller);
  const errs = controller === str(rec(old.spec).controller) ? [] : [invalid('spec.controller', controller, FIELD_IMMUTABLE_ERROR_MSG)];
  return [...errs, ...validateIngressClass(obj)];
}

export const ingressClasses = networking({
  kind: 'IngressClass',
  plural: 'ingressclasses',
  namespaced: false,
  behaviour: { generation: true },
  strategy: {
    defaults(obj) {
      const params = recOrNil(rec(obj.spec).parameters);
      if (params !== undefined && !isSet(params.scope)) params.scope = 'Cluster';
    },
    validate: validateIngressClass,
    validateUpdate: validateIngressClassUpdate,
  },
});
