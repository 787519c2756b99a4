/**
 * RBAC validation as upstream's pkg/apis/rbac/validation (1.25): policy rules (verbs required;
 * resource rules need groups and resources; non-resource URLs only in cluster roles), aggregation
 * selectors, role references (the RBAC group, Role or ClusterRole, immutable), and subjects
 * (ServiceAccount, User or Group), plus the v1 defaults of reference and subject groups.
 */
import type { Brand } from '../../machinery/brand.js';
import { goStringStruct } from '../../machinery/go-format.js';
import { type LabelSelector, validateLabelSelector } from '../../machinery/label-selector.js';
import type { Obj } from '../../machinery/object.js';
import { type FieldError, invalid, notSupported, PrintedValue, required } from '../../machinery/status.js';
import { goStringSlice, nameIsDNSSubdomain, validatePathSegmentName } from '../../machinery/validation.js';
import { child, childRecords, isSet, list, type Rec, rec, recOrNil, records, str, strings } from '../../machinery/fields.js';
import { compileSelector, labelSelectorOf } from '../apps/workload-validation.js';

/** The RBAC API group as the brand spells it (`rbac.authorization.k8s.io` upstream). */
export function rbacGroup(brand: Brand): string {
  return brand.group('rbac.authorization', true);
}

/** Upstream's ValidatePolicyRule. */
function policyRuleErrors(rule: Rec, namespaced: boolean, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (list(rule.verbs).length === 0) errs.push(required(`${fldPath}.verbs`, 'verbs must contain at least one value'));
  const urls = list(rule.nonResourceURLs);
  if (urls.length > 0) {
    const shown = new PrintedValue(goStringSlice(strings(urls), false));
    if (namespaced) errs.push(invalid(`${fldPath}.nonResourceURLs`, shown, 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule.apiGroups).length > 0 || list(rule.resources).length > 0 || list(rule.resourceNames).length > 0) {
      errs.push(invalid(`${fldPath}.nonResourceURLs`, shown, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (list(rule.apiGroups).length === 0) errs.push(required(`${fldPath}.apiGroups`, 'resource rules must supply at least one api group'));
  if (list(rule.resources).length === 0) errs.push(required(`${fldPath}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

function rulesErrors(obj: Obj, namespaced: boolean): FieldError[] {
  return records(obj.rules).flatMap((r, i) => policyRuleErrors(r, namespaced, `rules[${i}]`));
}

/** Upstream's ValidateRole (without the generic metadata checks). */
export function validateRole(obj: Obj): FieldError[] {
  return rulesErrors(obj, true);
}

/** Upstream's ValidateClusterRole: rules, and an aggregation rule with at least one valid selector. */
export function validateClusterRole(obj: Obj): FieldError[] {
  const errs = rulesErrors(obj, false);
  const aggregation = recOrNil(obj.aggregationRule);
  if (aggregation !== undefined) {
    const selectors = list(aggregation.clusterRoleSelectors);
    if (selectors.length === 0) {
      errs.push(required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    }
    selectors.forEach((raw, i) => {
      const path = `aggregationRule.clusterRoleSelectors[${i}]`;
      const sel: LabelSelector = labelSelectorOf(raw) ?? {};
      errs.push(...validateLabelSelector(sel, path));
      if (compileSelector(sel) === undefined) errs.push(invalid(path, null, 'invalid label selector.'));
    });
  }
  return errs;
}

/** A role reference as upstream prints it (`rbac.RoleRef{APIGroup:"…", Kind:"…", Name:"…"}`). */
function roleRefValue(ref: Rec) {
  return goStringStruct('rbac.RoleRef', [
    ['APIGroup', ref.apiGroup],
    ['Kind', ref.kind],
    ['Name', ref.name],
  ]);
}

function roleRefErrors(ref: Rec, kinds: string[], group: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiGroup = str(ref.apiGroup);
  if (apiGroup !== group) errs.push(notSupported('roleRef.apiGroup', apiGroup, [group]));
  const kind = str(ref.kind);
  if (!kinds.includes(kind)) errs.push(notSupported('roleRef.kind', kind, kinds));
  const name = str(ref.name);
  if (name === '') errs.push(required('roleRef.name', ''));
  else for (const m of validatePathSegmentName(name, false)) errs.push(invalid('roleRef.name', name, m));
  return errs;
}

/** Upstream's ValidateRoleBindingSubject. */
function subjectErrors(subject: Rec, namespaced: boolean, fldPath: string, group: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(subject.name);
  const apiGroup = str(subject.apiGroup);
  if (name === '') errs.push(required(`${fldPath}.name`, ''));
  switch (str(subject.kind)) {
    case 'ServiceAccount':
      if (name !== '') for (const m of nameIsDNSSubdomain(name, false)) errs.push(invalid(`${fldPath}.name`, name, m));
      if (apiGroup !== '') errs.push(notSupported(`${fldPath}.apiGroup`, apiGroup, ['']));
      if (!namespaced && str(subject.namespace) === '') errs.push(required(`${fldPath}.namespace`, ''));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== group) errs.push(notSupported(`${fldPath}.apiGroup`, apiGroup, [group]));
      break;
    default:
      errs.push(notSupported(`${fldPath}.kind`, str(subject.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

/** Upstream's ValidateRoleBinding / ValidateClusterRoleBinding (namespaced picks which). */
export function validateBinding(obj: Obj, namespaced: boolean, brand: Brand): FieldError[] {
  const group = rbacGroup(brand);
  const errs = roleRefErrors(rec(obj.roleRef), namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'], group);
  for (const [i, s] of records(obj.subjects).entries()) errs.push(...subjectErrors(s, namespaced, `subjects[${i}]`, group));
  return errs;
}

/** A binding's update: its own rules, and a role reference that never changes. */
export function validateBindingUpdate(obj: Obj, old: Obj, namespaced: boolean, brand: Brand): FieldError[] {
  const errs = validateBinding(obj, namespaced, brand);
  const ref = rec(obj.roleRef);
  const oldRef = rec(old.roleRef);
  if (['apiGroup', 'kind', 'name'].some((k) => str(ref[k]) !== str(oldRef[k]))) errs.push(invalid('roleRef', roleRefValue(ref), 'cannot change roleRef'));
  return errs;
}

/** rbac/v1's SetDefaults_RoleBinding / _ClusterRoleBinding / _Subject: the RBAC group where it is implied. */
export function defaultBinding(obj: Obj, brand: Brand): void {
  const group = rbacGroup(brand);
  const ref = child(obj, 'roleRef');
  if (str(ref.apiGroup) === '') ref.apiGroup = group;
  for (const s of childRecords(obj, 'subjects')) {
    if (isSet(s.apiGroup) && str(s.apiGroup) !== '') continue;
    // A ServiceAccount's group is the core group, '' (omitted on the wire).
    if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = group;
  }
}
