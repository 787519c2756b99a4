/**
 * Container environment and downward-API references as upstream's ValidateEnv, ValidateEnvFrom,
 * validateObjectFieldSelector and validateContainerResourceFieldSelector (1.25).
 */
import { quantitySign, quantityString } from '../../machinery/quantity.js';
import { type FieldError, invalid, notSupported, required } from '../../machinery/status.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../../machinery/validation.js';
import { quantityOf } from './decoding.js';
import { isSet, type Rec, rec, records, str } from '../../machinery/fields.js';
import { validateLocalNonReservedPath } from './path-validation.js';
import { isConfigMapKey, isEnvVarName } from './value-validation.js';

const FILE_MODE_ERROR_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';

const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.podIP',
  'status.podIPs',
].sort();
const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const HUGE_PAGES_FIELD_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];
/** The field labels the v1 Pod converts for the downward API (upstream's ConvertDownwardAPIFieldLabel). */
const CONVERTIBLE_FIELD_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.podIP',
  'status.podIPs',
]);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']` -> path and subscript. */
function splitSubscripted(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return [s.slice(0, at), s.slice(at + 2)];
}

/** Upstream's ConvertDownwardAPIFieldLabel for v1 Pods: the internal field path, or the error. */
function convertFieldLabel(version: string, label: string): { path: string } | { error: string } {
  if (version !== 'v1') return { error: `unsupported pod version: ${version}` };
  const sub = splitSubscripted(label);
  if (sub) {
    return sub[0] === 'metadata.annotations' || sub[0] === 'metadata.labels' ? { path: label } : { error: `field label does not support subscript: ${label}` };
  }
  if (CONVERTIBLE_FIELD_LABELS.has(label)) return { path: label };
  if (label === 'spec.host') return { path: 'spec.nodeName' };
  return { error: `field label not supported: ${label}` };
}

function validateObjectFieldSelector(fs: Rec, expressions: readonly string[], fldPath: string): FieldError[] {
  const apiVersion = str(fs.apiVersion);
  const fieldPath = str(fs.fieldPath);
  if (!apiVersion) return [required(`${fldPath}.apiVersion`, '')];
  if (!fieldPath) return [required(`${fldPath}.fieldPath`, '')];
  const converted = convertFieldLabel(apiVersion, fieldPath);
  if ('error' in converted) return [invalid(`${fldPath}.fieldPath`, fieldPath, `error converting fieldPath: ${converted.error}`)];
  const sub = splitSubscripted(converted.path);
  if (sub) {
    const [path, subscript] = sub;
    if (path === 'metadata.annotations') return isQualifiedName(subscript.toLowerCase()).map((m) => invalid(fldPath, subscript.toLowerCase(), m));
    if (path === 'metadata.labels') return isQualifiedName(subscript).map((m) => invalid(fldPath, subscript, m));
    return [invalid(fldPath, path, 'does not support subscript')];
  }
  if (!expressions.includes(converted.path)) return [notSupported(`${fldPath}.fieldPath`, converted.path, [...expressions])];
  return [];
}

const ONE_OR_MILLI = new Set(['1m', '1']);
const BYTE_DIVISORS = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const BYTE_DIVISOR_LIST = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei';

function validateDivisor(resource: string, divisor: unknown, fldPath: string): FieldError[] {
  const q = quantityOf(divisor);
  if (quantitySign(q) === 0) return [];
  const text = quantityString(q);
  const path = `${fldPath}.divisor`;
  const errs: FieldError[] = [];
  if (resource === 'limits.cpu' || resource === 'requests.cpu') {
    if (!ONE_OR_MILLI.has(text)) errs.push(invalid(path, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
  } else if (resource === 'limits.memory' || resource === 'requests.memory') {
    if (!BYTE_DIVISORS.has(text)) errs.push(invalid(path, resource, `only divisor's values ${BYTE_DIVISOR_LIST} are supported with the memory resource`));
  } else if (resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') {
    if (!BYTE_DIVISORS.has(text))
      errs.push(invalid(path, resource, `only divisor's values ${BYTE_DIVISOR_LIST} are supported with the local ephemeral storage resource`));
  }
  if (HUGE_PAGES_FIELD_PREFIXES.some((p) => resource.startsWith(p)) && !BYTE_DIVISORS.has(text)) {
    errs.push(invalid(path, resource, `only divisor's values ${BYTE_DIVISOR_LIST} are supported with the hugepages resource`));
  }
  return errs;
}

function validateResourceFieldSelector(fs: Rec, fldPath: string, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = str(fs.resource);
  if (volume && !str(fs.containerName)) errs.push(required(`${fldPath}.containerName`, ''));
  else if (!resource) errs.push(required(`${fldPath}.resource`, ''));
  else if (!RESOURCE_FIELD_PATHS.includes(resource) && !HUGE_PAGES_FIELD_PREFIXES.some((p) => resource.startsWith(p))) {
    errs.push(notSupported(`${fldPath}.resource`, resource, RESOURCE_FIELD_PATHS));
  }
  errs.push(...validateDivisor(resource, fs.divisor, fldPath));
  return errs;
}

/** Upstream's validateDownwardAPIVolumeFile; errors under the volume's (or projection's) path. */
export function validateDownwardAPIFile(file: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(file.path)) errs.push(required(`${fldPath}.path`, ''));
  errs.push(...validateLocalNonReservedPath(str(file.path), `${fldPath}.path`));
  if (isSet(file.fieldRef)) {
    errs.push(...validateObjectFieldSelector(rec(file.fieldRef), VOLUME_FIELD_PATHS, `${fldPath}.fieldRef`));
    if (isSet(file.resourceFieldRef)) errs.push(invalid(fldPath, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (isSet(file.resourceFieldRef)) {
    errs.push(...validateResourceFieldSelector(rec(file.resourceFieldRef), `${fldPath}.resourceFieldRef`, true));
  } else {
    errs.push(required(fldPath, 'one of fieldRef and resourceFieldRef is required'));
  }
  const mode = file.mode;
  if (typeof mode === 'number' && (mode > 0o777 || mode < 0)) errs.push(invalid(`${fldPath}.mode`, mode, FILE_MODE_ERROR_MSG));
  return errs;
}

function validateKeySelector(s: Rec, fldPath: string): FieldError[] {
  const errs = nameIsDNSSubdomain(str(s.name), false).map((m) => invalid(`${fldPath}.name`, str(s.name), m));
  const key = str(s.key);
  if (!key) errs.push(required(`${fldPath}.key`, ''));
  else errs.push(...isConfigMapKey(key).map((m) => invalid(`${fldPath}.key`, key, m)));
  return errs;
}

type SourceRule = readonly [key: string, validate: (ref: Rec, fldPath: string) => FieldError[]];

/** An env var's valueFrom sources, in upstream's order. */
const ENV_VAR_SOURCES: readonly SourceRule[] = [
  ['fieldRef', (ref, p) => validateObjectFieldSelector(ref, ENV_FIELD_PATHS, p)],
  ['resourceFieldRef', (ref, p) => validateResourceFieldSelector(ref, p, false)],
  ['configMapKeyRef', validateKeySelector],
  ['secretKeyRef', validateKeySelector],
];

/** An envFrom entry's sources. */
const ENV_FROM_SOURCES: readonly SourceRule[] = [
  ['configMapRef', validateEnvSourceName],
  ['secretRef', validateEnvSourceName],
];

/** Checks every source that is set (upstream checks them all, then judges the count); returns how many are. */
function validateSetSources(holder: Rec, sources: readonly SourceRule[], fldPath: string, errs: FieldError[]): number {
  let numSources = 0;
  for (const [key, validate] of sources) {
    if (!isSet(holder[key])) continue;
    numSources++;
    errs.push(...validate(rec(holder[key]), `${fldPath}.${key}`));
  }
  return numSources;
}

function validateEnvVarValueFrom(ev: Rec, fldPath: string): FieldError[] {
  if (!isSet(ev.valueFrom)) return [];
  const errs: FieldError[] = [];
  const numSources = validateSetSources(rec(ev.valueFrom), ENV_VAR_SOURCES, fldPath, errs);
  if (numSources === 0) errs.push(invalid(fldPath, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (str(ev.value)) errs.push(invalid(fldPath, '', 'may not be specified when `value` is not empty'));
  else if (numSources > 1) errs.push(invalid(fldPath, '', 'may not have more than one field specified at a time'));
  return errs;
}

/** Upstream's ValidateEnv. */
export function validateEnv(vars: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  records(vars).forEach((ev, i) => {
    const idxPath = `${fldPath}[${i}]`;
    const name = str(ev.name);
    if (!name) errs.push(required(`${idxPath}.name`, ''));
    else errs.push(...isEnvVarName(name).map((m) => invalid(`${idxPath}.name`, name, m)));
    errs.push(...validateEnvVarValueFrom(ev, `${idxPath}.valueFrom`));
  });
  return errs;
}

function validateEnvSourceName(ref: Rec, fldPath: string): FieldError[] {
  const name = str(ref.name);
  if (!name) return [required(`${fldPath}.name`, '')];
  return nameIsDNSSubdomain(name, true).map((m) => invalid(`${fldPath}.name`, name, m));
}

/** Upstream's ValidateEnvFrom. */
export function validateEnvFrom(sources: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  records(sources).forEach((ev, i) => {
    const idxPath = `${fldPath}[${i}]`;
    const prefix = str(ev.prefix);
    if (prefix) errs.push(...isEnvVarName(prefix).map((m) => invalid(`${idxPath}.prefix`, prefix, m)));
    const numSources = validateSetSources(ev, ENV_FROM_SOURCES, idxPath, errs);
    if (numSources === 0) errs.push(invalid(fldPath, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (numSources > 1) errs.push(invalid(fldPath, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
