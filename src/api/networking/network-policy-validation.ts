/**
 * NetworkPolicy validation as upstream's networking validation (1.25): selectors, ports (TCP,
 * UDP or SCTP; a number or a name; endPort only after a numeric port), peers (at least one kind;
 * an ipBlock alone, its exceptions strictly inside its CIDR) and at most the two policy types.
 */
import { validateLabelSelector } from '../../machinery/label-selector.js';
import type { Obj } from '../../machinery/object.js';
import { type FieldError, forbiddenField, invalid, notSupported, PrintedValue, required } from '../../machinery/status.js';
import { goStringSlice } from '../../machinery/validation.js';
import { child, childRecords, isSet, list, numOrNil, type Rec, rec, recOrNil, records, str, strings } from '../../machinery/fields.js';
import { isValidPortName, isValidPortNum, parseCIDR } from '../core/value-validation.js';
import { labelSelectorOf } from '../apps/workload-validation.js';

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

function selectorErrors(raw: unknown, fldPath: string): FieldError[] {
  const sel = labelSelectorOf(raw);
  return sel === undefined ? [] : validateLabelSelector(sel, fldPath);
}

/** Upstream's ValidateNetworkPolicyPort. */
function portErrors(port: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(port.protocol) && !PROTOCOLS.includes(str(port.protocol))) errs.push(notSupported(`${fldPath}.protocol`, str(port.protocol), PROTOCOLS));
  const endPort = numOrNil(port.endPort);
  if (!isSet(port.port)) {
    if (endPort !== undefined) errs.push(invalid(`${fldPath}.endPort`, endPort, 'may not be specified when `port` is not specified'));
    return errs;
  }
  if (typeof port.port === 'number') {
    const p = port.port;
    errs.push(...isValidPortNum(p).map((m) => invalid(`${fldPath}.port`, p, m)));
    if (endPort !== undefined) {
      // Upstream reports the start port as the value here.
      if (endPort < p) errs.push(invalid(`${fldPath}.endPort`, p, 'must be greater than or equal to `port`'));
      errs.push(...isValidPortNum(endPort).map((m) => invalid(`${fldPath}.endPort`, endPort, m)));
    }
    return errs;
  }
  if (endPort !== undefined) errs.push(invalid(`${fldPath}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
  const name = str(port.port);
  errs.push(...isValidPortName(name).map((m) => invalid(`${fldPath}.port`, name, m)));
  return errs;
}

/** A CIDR's network as bits and prefix length, for containment. */
function network(cidr: string): { family: 4 | 6; bits: number[]; prefix: number } | undefined {
  const ip = parseCIDR(cidr);
  if (ip === undefined) return undefined;
  const prefix = Number(cidr.slice(cidr.indexOf('/') + 1));
  const bits = ip.bytes.flatMap((b) => [7, 6, 5, 4, 3, 2, 1, 0].map((s) => (b >> s) & 1));
  return { family: ip.family, bits, prefix };
}

/** Upstream's ValidateIPBlock: a CIDR, and exceptions strictly inside it. */
function ipBlockErrors(block: Rec, fldPath: string): FieldError[] {
  const cidr = str(block.cidr);
  if (cidr === '') return [required(`${fldPath}.cidr`, '')];
  const outer = network(cidr);
  if (outer === undefined) return [invalid(`${fldPath}.cidr`, cidr, 'not a valid CIDR')];
  const errs: FieldError[] = [];
  for (const [i, except] of strings(block.except).entries()) {
    const path = `${fldPath}.except[${i}]`;
    const inner = network(except);
    if (inner === undefined) return [...errs, invalid(path, except, 'not a valid CIDR')];
    const inside = inner.family === outer.family && outer.bits.slice(0, outer.prefix).every((b, j) => b === inner.bits[j]);
    if (!inside || outer.prefix >= inner.prefix) errs.push(invalid(path, except, 'must be a strict subset of `cidr`'));
  }
  return errs;
}

/** Upstream's ValidateNetworkPolicyPeer. */
function peerErrors(peer: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  if (isSet(peer.podSelector)) {
    peers++;
    errs.push(...selectorErrors(peer.podSelector, `${fldPath}.podSelector`));
  }
  if (isSet(peer.namespaceSelector)) {
    peers++;
    errs.push(...selectorErrors(peer.namespaceSelector, `${fldPath}.namespaceSelector`));
  }
  const ipBlock = recOrNil(peer.ipBlock);
  if (ipBlock !== undefined) {
    peers++;
    errs.push(...ipBlockErrors(ipBlock, `${fldPath}.ipBlock`));
  }
  if (peers === 0) errs.push(required(fldPath, 'must specify a peer'));
  else if (peers > 1 && ipBlock !== undefined) errs.push(forbiddenField(fldPath, 'may not specify both ipBlock and another peer'));
  return errs;
}

function rulesErrors(rules: unknown, kind: 'ingress' | 'egress', peersKey: 'from' | 'to'): FieldError[] {
  return records(rules).flatMap((rule, i) => {
    const path = `spec.${kind}[${i}]`;
    return [
      ...records(rule.ports).flatMap((p, j) => portErrors(p, `${path}.ports[${j}]`)),
      ...records(rule[peersKey]).flatMap((p, j) => peerErrors(p, `${path}.${peersKey}[${j}]`)),
    ];
  });
}

/** Upstream's ValidateNetworkPolicySpec (without the generic metadata checks). */
export function validateNetworkPolicy(obj: Obj): FieldError[] {
  const spec = rec(obj.spec);
  const errs = [
    ...validateLabelSelector(labelSelectorOf(spec.podSelector) ?? {}, 'spec.podSelector'),
    ...rulesErrors(spec.ingress, 'ingress', 'from'),
    ...rulesErrors(spec.egress, 'egress', 'to'),
  ];
  const types = list(spec.policyTypes);
  if (types.length > POLICY_TYPES.length) {
    errs.push(
      invalid(
        'spec.policyTypes',
        new PrintedValue(goStringSlice(strings(types), false).replace('[]string', '[]networking.PolicyType')),
        'may not specify more than two policyTypes',
      ),
    );
    return errs;
  }
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(str(t))) errs.push(notSupported(`spec.policyTypes[${i}]`, str(t), POLICY_TYPES));
  });
  return errs;
}

/** networking/v1's SetDefaults_NetworkPolicy and _NetworkPolicyPort. */
export function defaultNetworkPolicy(obj: Obj): void {
  const spec = child(obj, 'spec');
  for (const rule of [...childRecords(spec, 'ingress'), ...childRecords(spec, 'egress')]) {
    for (const port of childRecords(rule, 'ports')) if (!isSet(port.protocol)) port.protocol = 'TCP';
  }
  // A policy without types applies to ingress, and to egress when it has egress rules.
  if (list(spec.policyTypes).length === 0) spec.policyTypes = list(spec.egress).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
}
