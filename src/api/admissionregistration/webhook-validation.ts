/**
 * Mutating/ValidatingWebhookConfiguration defaults and validation, as upstream's
 * admissionregistration v1 (SetDefaults_* and ValidateValidating/MutatingWebhookConfiguration):
 * fully qualified unique hook names, rules, failure/match/reinvocation policies, sideEffects
 * (required; only None or NoneOnDryRun in v1), timeoutSeconds 1..30, admissionReviewVersions
 * (required, one of v1/v1beta1), selectors, and exactly one of url (https, no user, query or
 * fragment) or service.
 */
import type { Obj } from '../../machinery/object.js';
import { isSet, list, num, rec, type Rec, records, str, strings } from '../../machinery/fields.js';
import { type LabelSelector, validateLabelSelector } from '../../machinery/label-selector.js';
import { duplicate, type FieldError, invalid, notSupported, PrintedValue, required } from '../../machinery/status.js';
import { goStringSlice, isDNS1035Label, isDNS1123Subdomain } from '../../machinery/validation.js';
import { isValidPortNum } from '../core/value-validation.js';

const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const NO_SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

const slice = (v: readonly string[]) => new PrintedValue(goStringSlice(v));

/** Upstream's v1 defaults of one webhook (mutating: also reinvocationPolicy). */
function defaultHook(w: Rec, mutating: boolean): void {
  if (!isSet(w.failurePolicy)) w.failurePolicy = 'Fail';
  if (!isSet(w.matchPolicy)) w.matchPolicy = 'Equivalent';
  if (!isSet(w.namespaceSelector)) w.namespaceSelector = {};
  if (!isSet(w.objectSelector)) w.objectSelector = {};
  if (!isSet(w.timeoutSeconds)) w.timeoutSeconds = 10;
  if (mutating && !isSet(w.reinvocationPolicy)) w.reinvocationPolicy = 'Never';
  for (const rule of records(w.rules)) if (!isSet(rule.scope)) rule.scope = '*';
  const cc = rec(w.clientConfig);
  if (isSet(cc.service)) {
    const service = rec(cc.service);
    if (!isSet(service.port)) service.port = 443;
  }
}

export function defaultWebhookConfiguration(mutating: boolean): (obj: Obj) => void {
  return (obj) => {
    for (const w of list(obj.webhooks)) if (w !== null && typeof w === 'object' && !Array.isArray(w)) defaultHook(w as Rec, mutating);
  };
}

/** Upstream's IsFullyQualifiedName. */
function fullyQualifiedNameErrors(fld: string, name: string): FieldError[] {
  if (name === '') return [required(fld, '')];
  const n = name.endsWith('.') ? name.slice(0, -1) : name;
  const errs = isDNS1123Subdomain(n);
  if (errs.length > 0) return [invalid(fld, n, errs.join(','))];
  if (n.split('.').length < 3) return [invalid(fld, n, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** Upstream's validateResources (subresources allowed). */
function resourcesErrors(resources: string[], fld: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(fld, ''));
  const wildcardSub = new Set<string>();
  const wildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(`${fld}[${i}]`, ''));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSub = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (wildcardSub.has(res)) errs.push(invalid(`${fld}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (wildcardRes.has(sub)) errs.push(invalid(`${fld}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') wildcardSub.add(res);
    if (res === '*') wildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalid(fld, slice(resources), "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) errs.push(invalid(fld, slice(resources), "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** Upstream's validateRuleWithOperations. */
function ruleErrors(rule: Rec, fld: string): FieldError[] {
  const errs: FieldError[] = [];
  const operations = strings(rule.operations);
  if (operations.length === 0) errs.push(required(`${fld}.operations`, ''));
  if (operations.length > 1 && operations.includes('*'))
    errs.push(invalid(`${fld}.operations`, slice(operations), "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(notSupported(`${fld}.operations[${i}]`, op, OPERATIONS));
  });
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) errs.push(required(`${fld}.apiGroups`, ''));
  if (groups.length > 1 && groups.includes('*')) errs.push(invalid(`${fld}.apiGroups`, slice(groups), "if '*' is present, must not specify other API groups"));
  const versions = strings(rule.apiVersions);
  if (versions.length === 0) errs.push(required(`${fld}.apiVersions`, ''));
  if (versions.length > 1 && versions.includes('*'))
    errs.push(invalid(`${fld}.apiVersions`, slice(versions), "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(`${fld}.apiVersions[${i}]`, ''));
  });
  errs.push(...resourcesErrors(strings(rule.resources), `${fld}.resources`));
  if (isSet(rule.scope) && !SCOPES.includes(str(rule.scope))) errs.push(notSupported(`${fld}.scope`, str(rule.scope), SCOPES));
  return errs;
}

/** Upstream's ValidateWebhookURL with https forced. */
function urlErrors(fld: string, text: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return [required(fld, `url must be a valid URL: parse ${JSON.stringify(text)}: invalid URI for request${form}`)];
  }
  const errs: FieldError[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') errs.push(notSupported(fld, scheme, ['https']));
  if (u.host === '') errs.push(invalid(fld, u.host, `host must be specified${form}`));
  if (u.username !== '' || u.password !== '')
    errs.push(invalid(fld, u.password === '' ? u.username : `${u.username}:${u.password}`, 'user information is not permitted in the URL'));
  if (u.hash.length > 1) errs.push(invalid(fld, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search.length > 1) errs.push(invalid(fld, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

/** Upstream's ValidateWebhookService. */
function serviceErrors(fld: string, s: Rec): FieldError[] {
  const errs: FieldError[] = [];
  if (str(s.name) === '') errs.push(required(`${fld}.name`, 'service name is required'));
  if (str(s.namespace) === '') errs.push(required(`${fld}.namespace`, 'service namespace is required'));
  const port = num(s.port);
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid(`${fld}.port`, port, `port is not valid: ${portErrs.join(', ')}`));
  if (!isSet(s.path)) return errs;
  const path = str(s.path);
  if (path === '/' || path === '') return errs;
  if (path === '//') return [...errs, invalid(`${fld}.path`, path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errs.push(invalid(`${fld}.path`, path, "must start with a '/'"));
  let check = path.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step === '') errs.push(invalid(`${fld}.path`, path, `segment[${i}] may not be empty`));
    else for (const f of isDNS1123Subdomain(step)) errs.push(invalid(`${fld}.path`, path, `segment[${i}]: ${f}`));
  });
  return errs;
}

/** Upstream's validateAdmissionReviewVersions (a recognized version required, as on create). */
function reviewVersionErrors(versions: string[], fld: string): FieldError[] {
  if (versions.length === 0) return [required(fld, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(`${fld}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const e of isDNS1035Label(v)) errs.push(invalid(`${fld}[${i}]`, v, e));
  });
  if (!versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v))) {
    errs.push(invalid(fld, slice(versions), `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

function hookErrors(w: Rec, fld: string, mutating: boolean): FieldError[] {
  const errs = fullyQualifiedNameErrors(`${fld}.name`, str(w.name));
  records(w.rules).forEach((rule, i) => {
    errs.push(...ruleErrors(rule, `${fld}.rules[${i}]`));
  });
  if (isSet(w.failurePolicy) && !FAILURE_POLICIES.includes(str(w.failurePolicy)))
    errs.push(notSupported(`${fld}.failurePolicy`, str(w.failurePolicy), FAILURE_POLICIES));
  if (isSet(w.matchPolicy) && !MATCH_POLICIES.includes(str(w.matchPolicy))) errs.push(notSupported(`${fld}.matchPolicy`, str(w.matchPolicy), MATCH_POLICIES));
  if (!isSet(w.sideEffects)) errs.push(required(`${fld}.sideEffects`, `must specify one of ${NO_SIDE_EFFECT_CLASSES.join(', ')}`));
  else if (!NO_SIDE_EFFECT_CLASSES.includes(str(w.sideEffects))) errs.push(notSupported(`${fld}.sideEffects`, str(w.sideEffects), NO_SIDE_EFFECT_CLASSES));
  if (isSet(w.timeoutSeconds) && (num(w.timeoutSeconds) > 30 || num(w.timeoutSeconds) < 1)) {
    errs.push(invalid(`${fld}.timeoutSeconds`, num(w.timeoutSeconds), 'the timeout value must be between 1 and 30 seconds'));
  }
  if (isSet(w.namespaceSelector)) errs.push(...validateLabelSelector(rec(w.namespaceSelector) as LabelSelector, `${fld}.namespaceSelector`));
  if (isSet(w.objectSelector)) errs.push(...validateLabelSelector(rec(w.objectSelector) as LabelSelector, `${fld}.objectSelector`));
  if (mutating && isSet(w.reinvocationPolicy) && !REINVOCATION_POLICIES.includes(str(w.reinvocationPolicy))) {
    errs.push(notSupported(`${fld}.reinvocationPolicy`, str(w.reinvocationPolicy), REINVOCATION_POLICIES));
  }
  const cc = rec(w.clientConfig);
  const hasUrl = isSet(cc.url);
  const hasService = isSet(cc.service);
  if (hasUrl === hasService) errs.push(required(`${fld}.clientConfig`, 'exactly one of url or service is required'));
  else if (hasUrl) errs.push(...urlErrors(`${fld}.clientConfig.url`, str(cc.url)));
  else errs.push(...serviceErrors(`${fld}.clientConfig.service`, rec(cc.service)));
  return errs;
}

/** Upstream's validate{Mutating,Validating}WebhookConfiguration (without the generic metadata checks). */
export function validateWebhookConfiguration(mutating: boolean): (obj: Obj) => FieldError[] {
  return (obj) => {
    const errs: FieldError[] = [];
    const names = new Set<string>();
    records(obj.webhooks).forEach((w, i) => {
      const fld = `webhooks[${i}]`;
      errs.push(...hookErrors(w, fld, mutating));
      errs.push(...reviewVersionErrors(strings(w.admissionReviewVersions), `${fld}.admissionReviewVersions`));
      const name = str(w.name);
      if (name !== '') {
        if (names.has(name)) errs.push(duplicate(`${fld}.name`, name));
        else names.add(name);
      }
    });
    return errs;
  };
}
