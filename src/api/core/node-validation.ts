/**
 * Node defaulting and validation as upstream's (1.25) v1 Node conversion and SetDefaults_NodeStatus,
 * ValidateNode and ValidateNodeUpdate: taints, resource quantities, pod CIDRs, and the spec fields
 * that may only be set once.
 */
import type { Obj } from '../../machinery/object.js';
import { type FieldError, forbiddenField, invalid, PrintedValue } from '../../machinery/status.js';
import { goStringSlice, isValidLabelValue, validateLabelName } from '../../machinery/validation.js';
import { canonicalResourceList, quantityOf } from './decoding.js';
import { child, isSet, type Rec, rec, records, str, strings } from '../../machinery/fields.js';
import { validateResourceQuantityValue } from './resource-validation.js';
import { validateTaintEffect } from './scheduling-validation.js';
import { parseCIDR } from './value-validation.js';

/** The v1 Node conversion (podCIDR and podCIDRs agree) and SetDefaults_NodeStatus. */
export function defaultNode(node: Obj): void {
  const spec = child(node, 'spec');
  const cidrs = strings(spec.podCIDRs);
  if (cidrs.length === 0 && str(spec.podCIDR)) spec.podCIDRs = [spec.podCIDR];
  else if (cidrs.length > 0) spec.podCIDR = cidrs[0];
  const status = rec(node.status);
  canonicalResourceList(status.capacity);
  canonicalResourceList(status.allocatable);
  if (!isSet(status.allocatable) && isSet(status.capacity)) status.allocatable = { ...rec(status.capacity) };
}

function printedTaint(t: Rec): PrintedValue {
  const added = isSet(t.timeAdded) ? `time.Date(${str(t.timeAdded)})` : '<nil>';
  return new PrintedValue(
    `core.Taint{Key:${JSON.stringify(str(t.key))}, Value:${JSON.stringify(str(t.value))}, Effect:${JSON.stringify(str(t.effect))}, TimeAdded:${added}}`,
  );
}

/** Upstream's validateNodeTaints (reported under `metadata.taints`, as upstream does). */
function validateNodeTaints(taints: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Map<string, Set<string>>();
  records(taints).forEach((t, i) => {
    const idxPath = `${fldPath}[${i}]`;
    const key = str(t.key);
    const effect = str(t.effect);
    errs.push(...validateLabelName(key, `${idxPath}.key`));
    const msgs = isValidLabelValue(str(t.value));
    if (msgs.length > 0) errs.push(invalid(`${idxPath}.value`, str(t.value), msgs.join(';')));
    errs.push(...validateTaintEffect(effect, false, `${idxPath}.effect`));
    if (unique.get(effect)?.has(key)) {
      errs.push({ type: 'FieldValueDuplicate', field: idxPath, value: printedTaint(t), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    if (!unique.has(effect)) unique.set(effect, new Set());
    unique.get(effect)?.add(key);
  });
  return errs;
}

function validateNodeResources(status: Rec): FieldError[] {
  const errs: FieldError[] = [];
  for (const list of ['capacity', 'allocatable']) {
    for (const [k, v] of Object.entries(rec(status[list]))) errs.push(...validateResourceQuantityValue(k, quantityOf(v), `status.${list}.${k}`));
  }
  return errs;
}

/** Upstream's (1.25) ValidateNode (object metadata is the registry's). */
export function validateNode(node: Obj): FieldError[] {
  const spec = rec(node.spec);
  const errs: FieldError[] = [];
  if (records(spec.taints).length > 0) errs.push(...validateNodeTaints(spec.taints, 'metadata.taints'));
  errs.push(...validateNodeResources(rec(node.status)));
  const cidrs = strings(spec.podCIDRs);
  const shown = new PrintedValue(goStringSlice(cidrs));
  cidrs.forEach((c, i) => {
    if (!parseCIDR(c)) errs.push(invalid(`spec.podCIDRs[${i}]`, shown, 'must be valid CIDR'));
  });
  if (cidrs.length > 1) {
    const families = cidrs.map((c) => parseCIDR(c)?.family);
    if (!(families.includes(4) && families.includes(6)) || cidrs.length > 2) {
      errs.push(invalid('spec.podCIDRs', shown, 'may specify no more than one CIDR for each IP family'));
    }
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push({ type: 'FieldValueDuplicate', field: `spec.podCIDRs[${i}]`, value: c });
      seen.add(c);
    });
  }
  return errs;
}

const PODCIDR_CHANGE = 'node updates may not change podCIDR except from "" to valid';

/** Upstream's (1.25) ValidateNodeUpdate (object metadata is the registry's). */
export function validateNodeUpdate(node: Obj, old: Obj): FieldError[] {
  const spec = rec(node.spec);
  const oldSpec = rec(old.spec);
  const errs = validateNodeResources(rec(node.status));
  const seen = new Set<string>();
  records(rec(node.status).addresses).forEach((a, i) => {
    const key = JSON.stringify([str(a.type), str(a.address)]);
    if (seen.has(key)) {
      const shown = new PrintedValue(`core.NodeAddress{Type:${JSON.stringify(str(a.type))}, Address:${JSON.stringify(str(a.address))}}`);
      errs.push({ type: 'FieldValueDuplicate', field: `status.addresses[${i}]`, value: shown });
    }
    seen.add(key);
  });
  const oldCidrs = strings(oldSpec.podCIDRs);
  const cidrs = strings(spec.podCIDRs);
  if (oldCidrs.length > 0) {
    if (oldCidrs.length !== cidrs.length) errs.push(forbiddenField('spec.podCIDRs', PODCIDR_CHANGE));
    else for (let i = 0; i < oldCidrs.length; i++) if (oldCidrs[i] !== cidrs[i]) errs.push(forbiddenField('spec.podCIDRs', PODCIDR_CHANGE));
  }
  if (str(oldSpec.providerID) && str(oldSpec.providerID) !== str(spec.providerID)) {
    errs.push(forbiddenField('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  if (records(spec.taints).length > 0) errs.push(...validateNodeTaints(spec.taints, 'metadata.taints'));
  if (str(spec.externalID) !== str(oldSpec.externalID)) errs.push(forbiddenField('spec.externalID', 'may not be updated'));
  return errs;
}
