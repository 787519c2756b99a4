/** Endpoints (the kind and the resource are both plural): subsets validated as upstream's ValidateEndpoints. */
import { core } from '../groups.js';
import type { Obj } from '../../machinery/object.js';
import { type FieldError, invalid, notSupported, required } from '../../machinery/status.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../../machinery/validation.js';
import { childRecords, isSet, list, num, type Rec, records, str } from '../../machinery/fields.js';
import { dns1123LabelErrors } from './path-validation.js';
import { isValidIP, isValidPortNum, validateNonSpecialIP } from './value-validation.js';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** Upstream's SetDefaults_Endpoints: ports speak TCP unless told otherwise. */
function defaultEndpoints(ep: Obj): void {
  for (const subset of childRecords(ep as Rec, 'subsets')) {
    for (const port of childRecords(subset, 'ports')) if (!str(port.protocol)) port.protocol = 'TCP';
  }
}

function validateAddress(address: Rec, fldPath: string): FieldError[] {
  const ip = str(address.ip);
  const errs = isValidIP(ip).map((m) => invalid(`${fldPath}.ip`, ip, m));
  if (str(address.hostname)) errs.push(...dns1123LabelErrors(str(address.hostname), `${fldPath}.hostname`));
  if (isSet(address.nodeName)) {
    const nodeName = str(address.nodeName);
    errs.push(...nameIsDNSSubdomain(nodeName, false).map((m) => invalid(`${fldPath}.nodeName`, nodeName, m)));
  }
  errs.push(...validateNonSpecialIP(ip, `${fldPath}.ip`));
  return errs;
}

function validatePort(port: Rec, requireName: boolean, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(port.name);
  if (requireName && !name) errs.push(required(`${fldPath}.name`, ''));
  else if (name) errs.push(...dns1123LabelErrors(name, `${fldPath}.name`));
  errs.push(...isValidPortNum(num(port.port)).map((m) => invalid(`${fldPath}.port`, num(port.port), m)));
  const protocol = str(port.protocol);
  if (!protocol) errs.push(required(`${fldPath}.protocol`, ''));
  else if (!PROTOCOLS.includes(protocol)) errs.push(notSupported(`${fldPath}.protocol`, protocol, PROTOCOLS));
  if (isSet(port.appProtocol)) errs.push(...isQualifiedName(str(port.appProtocol)).map((m) => invalid(`${fldPath}.appProtocol`, str(port.appProtocol), m)));
  return errs;
}

/** Upstream's validateEndpointSubsets. */
function validateEndpoints(ep: Obj): FieldError[] {
  const errs: FieldError[] = [];
  records(ep.subsets).forEach((ss, i) => {
    const idxPath = `subsets[${i}]`;
    if (list(ss.addresses).length === 0 && list(ss.notReadyAddresses).length === 0) {
      errs.push(required(idxPath, 'must specify `addresses` or `notReadyAddresses`'));
    }
    records(ss.addresses).forEach((a, j) => {
      errs.push(...validateAddress(a, `${idxPath}.addresses[${j}]`));
    });
    records(ss.notReadyAddresses).forEach((a, j) => {
      errs.push(...validateAddress(a, `${idxPath}.notReadyAddresses[${j}]`));
    });
    const ports = records(ss.ports);
    ports.forEach((p, j) => {
      errs.push(...validatePort(p, ports.length > 1, `${idxPath}.ports[${j}]`));
    });
  });
  return errs;
}

export const endpoints = core({
  kind: 'Endpoints',
  plural: 'endpoints',
  shortNames: ['ep'],
  namespaced: true,
  strategy: {
    defaults: defaultEndpoints,
    validate: (obj) => validateEndpoints(obj),
    validateUpdate: (obj) => validateEndpoints(obj),
  },
});
