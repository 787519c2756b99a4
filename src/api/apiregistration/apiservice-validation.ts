/**
 * APIService defaults and validation as kube-aggregator's (apiregistration v1): the service
 * port defaults to 443; the name must be `<version>.<group>`; only `v1` may have an empty
 * group; priorities are bounded; a local APIService (no service) takes neither a caBundle nor
 * insecureSkipTLSVerify, and a remote one not both.
 */
import { metaOf, type Obj } from '../../machinery/object.js';
import { bool, isSet, num, rec, str } from '../../machinery/fields.js';
import { type FieldError, invalid, required } from '../../machinery/status.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName } from '../../machinery/validation.js';
import { isValidPortNum } from '../core/value-validation.js';

/** Upstream's SetDefaults_ServiceReference: the port is 443 when not given. */
export function defaultAPIService(obj: Obj): void {
  const service = rec(obj.spec).service;
  if (isSet(service) && typeof service === 'object' && !isSet((service as Record<string, unknown>).port)) (service as Record<string, unknown>).port = 443;
}

/** Upstream's ValidateAPIService (the object meta checks are the generic store's). */
export function validateAPIService(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec = rec(obj.spec);
  const group = str(spec.group);
  const version = str(spec.version);
  const name = metaOf(obj).name ?? '';
  const requiredName = `${version}.${group}`;
  // The path-segment rule is the generic store's; only a name that passes it is compared.
  if (isValidPathSegmentName(name).length === 0 && name !== requiredName) {
    errs.push(invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`));
  }
  if (group === '' && version !== 'v1') errs.push(required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const e of isDNS1123Subdomain(group)) errs.push(invalid('spec.group', group, e));
  for (const e of isDNS1035Label(version)) errs.push(invalid('spec.version', version, e));
  const groupPriority = num(spec.groupPriorityMinimum);
  if (groupPriority <= 0 || groupPriority > 20000) errs.push(invalid('spec.groupPriorityMinimum', groupPriority, 'must be positive and less than 20000'));
  const versionPriority = num(spec.versionPriority);
  if (versionPriority <= 0 || versionPriority > 1000) errs.push(invalid('spec.versionPriority', versionPriority, 'must be positive and less than 1000'));
  const caBundle = str(spec.caBundle);
  const insecure = bool(spec.insecureSkipTLSVerify);
  if (!isSet(spec.service)) {
    if (caBundle !== '') errs.push(invalid('spec.caBundle', `${Buffer.from(caBundle, 'base64').length} bytes`, 'local APIServices may not have a caBundle'));
    if (insecure) errs.push(invalid('spec.insecureSkipTLSVerify', insecure, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  const service = rec(spec.service);
  if (str(service.namespace) === '') errs.push(required('spec.service.namespace', ''));
  if (str(service.name) === '') errs.push(required('spec.service.name', ''));
  const port = num(service.port);
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid('spec.service.port', port, `port is not valid: ${portErrs.join(', ')}`));
  if (insecure && caBundle !== '') errs.push(invalid('spec.insecureSkipTLSVerify', insecure, 'may not be true if caBundle is present'));
  return errs;
}
