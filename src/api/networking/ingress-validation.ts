/**
 * Ingress validation as upstream's networking validation (1.25), on the networking/v1 form:
 * a default backend or rules; hosts that are DNS names (a leading `*.` allowed), not IPs; paths
 * with a known pathType (absolute and clean for Exact and Prefix); backends that name exactly
 * one of a resource or a service (with a port name or number); TLS hosts and secret names; the
 * class name; and the legacy class annotation not set together with the class field.
 */
import type { Brand } from '../../machinery/brand.js';
import { goNilSlice } from '../../machinery/go-format.js';
import type { Obj } from '../../machinery/object.js';
import { metaOf } from '../../machinery/object.js';
import { type FieldError, invalid, notSupported, required } from '../../machinery/status.js';
import { isDNS1123Subdomain, isValidPathSegmentName, isWildcardDNS1123Subdomain, nameIsDNS1035Label, nameIsDNSSubdomain } from '../../machinery/validation.js';
import { isSet, list, num, type Rec, rec, recOrNil, records, str, strings } from '../../machinery/fields.js';
import { isValidPortName, isValidPortNum, parseIP } from '../core/value-validation.js';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];

/** The legacy class annotation (`kubernetes.io/ingress.class` upstream). */
export function ingressClassAnnotation(brand: Brand): string {
  return `${brand.labelDomain}/ingress.class`;
}

/** Upstream's validateIngressTypedLocalObjectReference (also IngressClass parameters). */
export function typedLocalObjectReferenceErrors(ref: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(ref.apiGroup)) errs.push(...isDNS1123Subdomain(str(ref.apiGroup)).map((m) => invalid(`${fldPath}.apiGroup`, str(ref.apiGroup), m)));
  for (const key of ['kind', 'name']) {
    const v = str(ref[key]);
    if (v === '') errs.push(required(`${fldPath}.${key}`, `${key} is required`));
    else errs.push(...isValidPathSegmentName(v).map((m) => invalid(`${fldPath}.${key}`, v, m)));
  }
  return errs;
}

/** Upstream's validateIngressBackend. */
function backendErrors(backend: Rec, fldPath: string): FieldError[] {
  const resource = recOrNil(backend.resource);
  const service = recOrNil(backend.service);
  if (resource !== undefined && service !== undefined) return [invalid(fldPath, '', 'cannot set both resource and service backends')];
  if (resource !== undefined) return typedLocalObjectReferenceErrors(resource, `${fldPath}.resource`);
  if (service === undefined) return [invalid(fldPath, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const name = str(service.name);
  if (name === '') errs.push(required(`${fldPath}.service.name`, ''));
  else errs.push(...nameIsDNS1035Label(name, false).map((m) => invalid(`${fldPath}.service.name`, name, m)));
  const port = rec(service.port);
  const portName = str(port.name);
  const portNumber = num(port.number);
  if (portName !== '' && portNumber !== 0) errs.push(invalid(fldPath, '', 'cannot set both port name & port number'));
  else if (portName !== '') errs.push(...isValidPortName(portName).map((m) => invalid(`${fldPath}.service.port.name`, portName, m)));
  else if (portNumber !== 0) errs.push(...isValidPortNum(portNumber).map((m) => invalid(`${fldPath}.service.port.number`, portNumber, m)));
  else errs.push(required(fldPath, 'port name or number is required'));
  return errs;
}

/** Upstream's validateHTTPIngressPath. */
function pathErrors(p: Rec, fldPath: string): FieldError[] {
  if (!isSet(p.pathType)) return [required(`${fldPath}.pathType`, 'pathType must be specified')];
  const errs: FieldError[] = [];
  const path = str(p.path);
  const pathType = str(p.pathType);
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!path.startsWith('/')) errs.push(invalid(`${fldPath}.path`, path, 'must be an absolute path'));
    if (path !== '') {
      for (const seq of INVALID_PATH_SEQUENCES) if (path.includes(seq)) errs.push(invalid(`${fldPath}.path`, path, `must not contain '${seq}'`));
      for (const suffix of INVALID_PATH_SUFFIXES) if (path.endsWith(suffix)) errs.push(invalid(`${fldPath}.path`, path, `cannot end with '${suffix}'`));
    }
  } else if (pathType === 'ImplementationSpecific') {
    if (path !== '' && !path.startsWith('/')) errs.push(invalid(`${fldPath}.path`, path, 'must be an absolute path'));
  } else {
    errs.push(notSupported(`${fldPath}.pathType`, pathType, PATH_TYPES));
  }
  errs.push(...backendErrors(rec(p.backend), `${fldPath}.backend`));
  return errs;
}

/** A host as upstream checks it: a DNS name (wildcard when it holds `*`), never an IP address. */
function hostErrors(host: string, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (parseIP(host) !== undefined) errs.push(invalid(fldPath, host, 'must be a DNS name, not an IP address'));
  const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
  errs.push(...msgs.map((m) => invalid(fldPath, host, m)));
  return errs;
}

/** Upstream's validateIngressRules. */
function rulesErrors(rules: Rec[]): FieldError[] {
  return rules.flatMap((rule, i) => {
    const path = `spec.rules[${i}]`;
    const host = str(rule.host);
    const errs = host === '' ? [] : hostErrors(host, `${path}.host`);
    const http = recOrNil(rule.http);
    if (http !== undefined) {
      const paths = records(http.paths);
      if (paths.length === 0) errs.push(required(`${path}.http.paths`, ''));
      for (const [j, p] of paths.entries()) errs.push(...pathErrors(p, `${path}.http.paths[${j}]`));
    }
    return errs;
  });
}

/** Upstream's validateIngressTLS. */
function tlsErrors(tls: Rec[]): FieldError[] {
  return tls.flatMap((t, i) => {
    const errs: FieldError[] = [];
    strings(t.hosts).forEach((host, j) => {
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      errs.push(...msgs.map((m) => invalid(`spec.tls[${i}].hosts[${j}]`, host, m)));
    });
    const secretName = str(t.secretName);
    if (secretName !== '') errs.push(...nameIsDNSSubdomain(secretName, false).map((m) => invalid(`spec.tls[${i}].secretName`, secretName, m)));
    return errs;
  });
}

/** Upstream's ValidateIngressSpec. */
export function ingressSpecErrors(spec: Rec): FieldError[] {
  const errs: FieldError[] = [];
  const rules = records(spec.rules);
  if (rules.length === 0 && !isSet(spec.defaultBackend)) {
    const shown = isSet(spec.rules) ? list(spec.rules) : goNilSlice('networking.IngressRule');
    errs.push(invalid('spec', shown, 'either `defaultBackend` or `rules` must be specified'));
  }
  const defaultBackend = recOrNil(spec.defaultBackend);
  if (defaultBackend !== undefined) errs.push(...backendErrors(defaultBackend, 'spec.defaultBackend'));
  if (rules.length > 0) errs.push(...rulesErrors(rules));
  errs.push(...tlsErrors(records(spec.tls)));
  if (isSet(spec.ingressClassName)) {
    const className = str(spec.ingressClassName);
    errs.push(...nameIsDNSSubdomain(className, false).map((m) => invalid('spec.ingressClassName', className, m)));
  }
  return errs;
}

/** Upstream's ValidateIngressCreate (without the generic metadata checks). */
export function validateIngress(obj: Obj, brand: Brand): FieldError[] {
  const spec = rec(obj.spec);
  const errs = ingressSpecErrors(spec);
  const annotation = ingressClassAnnotation(brand);
  const annotations = rec(metaOf(obj).annotations);
  if (Object.hasOwn(annotations, annotation) && isSet(spec.ingressClassName)) {
    // Upstream's path omits "metadata".
    errs.push(invalid(`annotations.${annotation}`, annotations[annotation], 'can not be set when the class field is also set'));
  }
  return errs;
}

/** Upstream's ValidateIngressUpdate: the spec's rules (the class annotation check is create-only). */
export function validateIngressUpdate(obj: Obj): FieldError[] {
  return ingressSpecErrors(rec(obj.spec));
}
