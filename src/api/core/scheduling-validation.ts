/**
 * The scheduling parts of a pod spec as upstream's (1.25) core validation: tolerations and
 * taint effects, node and pod (anti-)affinity, node selector terms and topology spread
 * constraints. Node taints reuse the taint-effect rule.
 */
import { type LabelSelector, validateLabelSelector, validateSetOperator } from '../../machinery/label-selector.js';
import { duplicate, type FieldError, invalid, notSupported, required } from '../../machinery/status.js';
import { isValidLabelValue, nameIsDNSLabel, nameIsDNSSubdomain, validateLabelName } from '../../machinery/validation.js';
import { isSet, list, num, numOrNil, type Rec, rec, records, str, strings } from '../../machinery/fields.js';

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** Upstream's validateTaintEffect. */
export function validateTaintEffect(effect: string, allowEmpty: boolean, fldPath: string): FieldError[] {
  if (!allowEmpty && effect === '') return [required(fldPath, '')];
  return TAINT_EFFECTS.includes(effect) ? [] : [notSupported(fldPath, effect, TAINT_EFFECTS)];
}

/** Upstream's ValidateTolerations. */
export function validateTolerations(tolerations: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  records(tolerations).forEach((t, i) => {
    const idxPath = `${fldPath}[${i}]`;
    const key = str(t.key);
    const operator = str(t.operator);
    const value = str(t.value);
    const effect = str(t.effect);
    if (key) errs.push(...validateLabelName(key, `${idxPath}.key`));
    if (!key && operator !== 'Exists') {
      errs.push(invalid(`${idxPath}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (isSet(t.tolerationSeconds) && effect !== 'NoExecute') {
      errs.push(invalid(`${idxPath}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0) errs.push(invalid(`${idxPath}.operator`, value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value) errs.push(invalid(`${idxPath}.operator`, value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(notSupported(`${idxPath}.operator`, operator, ['Equal', 'Exists']));
    }
    if (effect) errs.push(...validateTaintEffect(effect, true, `${idxPath}.effect`));
  });
  return errs;
}

/** Upstream's (1.25) ValidateNodeSelectorRequirement: the set operators, and Gt or Lt with one value. */
function validateNodeSelectorRequirement(rq: Rec, fldPath: string): FieldError[] {
  const values = list(rq.values);
  const operator = str(rq.operator);
  const numeric = operator === 'Gt' || operator === 'Lt';
  const errs = numeric ? [] : validateSetOperator(operator, values, fldPath);
  if (numeric && values.length !== 1) errs.push(required(`${fldPath}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  errs.push(...validateLabelName(str(rq.key), `${fldPath}.key`));
  return errs;
}

/** Upstream's ValidateNodeFieldSelectorRequirement: only metadata.name, one value. */
function validateNodeFieldSelectorRequirement(req: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const operator = str(req.operator);
  const values = strings(req.values);
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length !== 1) errs.push(required(`${fldPath}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(invalid(`${fldPath}.operator`, operator, 'not a valid selector operator'));
  }
  if (str(req.key) !== 'metadata.name') {
    errs.push(invalid(`${fldPath}.key`, str(req.key), 'not a valid field selector key'));
  } else {
    values.forEach((v, i) => {
      for (const m of nameIsDNSSubdomain(v, false)) errs.push(invalid(`${fldPath}.values[${i}]`, v, m));
    });
  }
  return errs;
}

/** Upstream's ValidateNodeSelectorTerm. */
export function validateNodeSelectorTerm(term: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  records(term.matchExpressions).forEach((rq, j) => {
    errs.push(...validateNodeSelectorRequirement(rq, `${fldPath}.matchExpressions[${j}]`));
  });
  records(term.matchFields).forEach((rq, j) => {
    errs.push(...validateNodeFieldSelectorRequirement(rq, `${fldPath}.matchFields[${j}]`));
  });
  return errs;
}

/** Upstream's ValidateNodeSelector: at least one term, each valid. */
export function validateNodeSelector(selector: Rec, fldPath: string): FieldError[] {
  const terms = records(selector.nodeSelectorTerms);
  const termPath = `${fldPath}.nodeSelectorTerms`;
  if (terms.length === 0) return [required(termPath, 'must have at least one node selector term')];
  return terms.flatMap((t, i) => validateNodeSelectorTerm(t, `${termPath}[${i}]`));
}

function weightErrors(weight: unknown, fldPath: string): FieldError[] {
  const w = num(weight);
  return w <= 0 || w > 100 ? [invalid(fldPath, w, 'must be in the range 1-100')] : [];
}

function validatePodAffinityTerm(term: Rec, fldPath: string): FieldError[] {
  const errs = [
    ...validateLabelSelector(term.labelSelector as LabelSelector | undefined, `${fldPath}.labelSelector`),
    ...validateLabelSelector(term.namespaceSelector as LabelSelector | undefined, `${fldPath}.namespaceSelector`),
  ];
  for (const name of strings(term.namespaces)) {
    for (const m of nameIsDNSLabel(name, false)) errs.push(invalid(`${fldPath}.namespace`, name, m));
  }
  const topologyKey = str(term.topologyKey);
  if (!topologyKey) errs.push(required(`${fldPath}.topologyKey`, 'can not be empty'));
  errs.push(...validateLabelName(topologyKey, `${fldPath}.topologyKey`));
  return errs;
}

function validatePodAffinityRules(affinity: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const requiredPath = `${fldPath}.requiredDuringSchedulingIgnoredDuringExecution`;
  records(affinity.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
    errs.push(...validatePodAffinityTerm(t, `${requiredPath}[${i}]`));
  });
  const preferredPath = `${fldPath}.preferredDuringSchedulingIgnoredDuringExecution`;
  records(affinity.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, j) => {
    errs.push(...weightErrors(t.weight, `${preferredPath}[${j}].weight`));
    errs.push(...validatePodAffinityTerm(rec(t.podAffinityTerm), `${preferredPath}[${j}].podAffinityTerm`));
  });
  return errs;
}

/** Upstream's validateAffinity. */
export function validateAffinity(affinity: unknown, fldPath: string): FieldError[] {
  if (!isSet(affinity)) return [];
  const a = rec(affinity);
  const errs: FieldError[] = [];
  if (isSet(a.nodeAffinity)) {
    const na = rec(a.nodeAffinity);
    const naPath = `${fldPath}.nodeAffinity`;
    if (isSet(na.requiredDuringSchedulingIgnoredDuringExecution)) {
      errs.push(...validateNodeSelector(rec(na.requiredDuringSchedulingIgnoredDuringExecution), `${naPath}.requiredDuringSchedulingIgnoredDuringExecution`));
    }
    const preferredPath = `${naPath}.preferredDuringSchedulingIgnoredDuringExecution`;
    records(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      errs.push(...weightErrors(t.weight, `${preferredPath}[${i}].weight`));
      errs.push(...validateNodeSelectorTerm(rec(t.preference), `${preferredPath}[${i}].preference`));
    });
  }
  if (isSet(a.podAffinity)) errs.push(...validatePodAffinityRules(rec(a.podAffinity), `${fldPath}.podAffinity`));
  if (isSet(a.podAntiAffinity)) errs.push(...validatePodAffinityRules(rec(a.podAntiAffinity), `${fldPath}.podAntiAffinity`));
  return errs;
}

const SCHEDULE_ACTIONS = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];

/** Upstream's (1.25) validateTopologySpreadConstraints. */
export function validateTopologySpreadConstraints(constraints: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const all = records(constraints);
  all.forEach((c, i) => {
    const p = `${fldPath}[${i}]`;
    const maxSkew = num(c.maxSkew);
    if (maxSkew <= 0) errs.push(invalid(`${p}.maxSkew`, maxSkew, 'must be greater than zero'));
    const topologyKey = str(c.topologyKey);
    if (!topologyKey) errs.push(required(`${p}.topologyKey`, 'can not be empty'));
    const action = str(c.whenUnsatisfiable);
    if (!SCHEDULE_ACTIONS.includes(action)) errs.push(notSupported(`${p}.whenUnsatisfiable`, action, SCHEDULE_ACTIONS));
    if (all.slice(i + 1).some((o) => str(o.topologyKey) === topologyKey && str(o.whenUnsatisfiable) === action)) {
      errs.push(duplicate(`${p}.{topologyKey, whenUnsatisfiable}`, `{${topologyKey}, ${action}}`));
    }
    const minDomains = numOrNil(c.minDomains);
    if (minDomains !== undefined) {
      if (minDomains <= 0) errs.push(invalid(`${p}.minDomains`, minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule')
        errs.push(invalid(`${p}.minDomains`, minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const key of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (isSet(c[key]) && !NODE_INCLUSION_POLICIES.includes(str(c[key]))) errs.push(notSupported(`${p}.${key}`, str(c[key]), NODE_INCLUSION_POLICIES));
    }
  });
  return errs;
}
