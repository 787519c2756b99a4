/**
 * ObjectMeta validation as upstream's apimachinery pkg/api/validation (ValidateObjectMeta,
 * ValidateObjectMetaUpdate) plus the core wrapper's finalizer-name rule
 * (pkg/apis/core/validation validateKubeFinalizerName). Errors are FieldErrors under
 * `metadata.*`, in upstream's order and wording, for a 422 Invalid.
 */

import type { Brand } from './brand.js';
import type { ObjectMeta, OwnerReference } from './object.js';
import type { FieldError } from './status.js';
import { forbiddenField, invalid, required } from './status.js';
import {
  exceedsBytes,
  goStringSlice,
  isQualifiedName,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  utf8Length,
  type ValidateNameFunc,
  validateLabelsSteps,
  validatePathSegmentName,
} from './validation.js';
import { type Due, runAtOnce } from './pace.js';
import { str } from './fields.js';

/** Which of upstream's name validators a resource uses for metadata.name. */
export type NameRule = 'subdomain' | 'label' | 'dns1035' | 'path-segment';

const NAME_RULES: Readonly<Record<NameRule, ValidateNameFunc>> = {
  subdomain: nameIsDNSSubdomain,
  label: nameIsDNSLabel,
  dns1035: nameIsDNS1035Label,
  'path-segment': validatePathSegmentName,
};

export interface ObjectMetaRules {
  namespaced: boolean;
  /** A named rule, or a custom ValidateNameFunc (e.g. one that accepts any name). */
  nameRule: NameRule | ValidateNameFunc;
  /**
   * Built-in types run upstream's core rule that a finalizer without '/' must be a standard
   * one (see standardFinalizers). Omit for custom resources, which upstream does not check.
   */
  standardFinalizers?: ReadonlySet<string>;
}

export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10);
const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';
export const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';
export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';
const FIELD_MANAGER_MAX_LENGTH = 128;
const MAX_SUBRESOURCE_NAME_LENGTH = 256;

/** The finalizers upstream accepts without a domain: the namespace finalizer, orphan, foregroundDeletion. */
export function standardFinalizers(brand: Brand): ReadonlySet<string> {
  return new Set([brand.namespaceFinalizer, FINALIZER_ORPHAN_DEPENDENTS, FINALIZER_DELETE_DEPENDENTS]);
}

// Upstream's field.TooLong detail in 1.21–1.25 ("must have at most N bytes").
function tooLongBytes(field: string, value: unknown, max: number): FieldError {
  return { type: 'FieldValueTooLong', field, value, detail: `must have at most ${max} bytes` };
}

/** Upstream's ValidateObjectMeta (after name generation) plus the core finalizer rule when configured. */
export function validateObjectMeta(meta: ObjectMeta, rules: ObjectMetaRules): FieldError[] {
  return runAtOnce((due) => validateObjectMetaSteps(meta, rules, due));
}

/** validateObjectMeta as stepped work (machinery/pace.ts): its labels are checked in steps. */
export function* validateObjectMetaSteps(meta: ObjectMeta, rules: ObjectMetaRules, due: Due): Generator<void, FieldError[], void> {
  const nameFn = typeof rules.nameRule === 'function' ? rules.nameRule : NAME_RULES[rules.nameRule];
  const errs: FieldError[] = [];
  const generateName = str(meta.generateName);
  if (generateName.length !== 0) {
    for (const m of nameFn(generateName, true)) errs.push(invalid('metadata.generateName', generateName, m));
  }
  const name = str(meta.name);
  if (name.length === 0) errs.push(required('metadata.name', 'name or generateName is required'));
  else for (const m of nameFn(name, false)) errs.push(invalid('metadata.name', name, m));

  const namespace = str(meta.namespace);
  if (rules.namespaced) {
    if (namespace.length === 0) errs.push(required('metadata.namespace'));
    else for (const m of nameIsDNSLabel(namespace, false)) errs.push(invalid('metadata.namespace', namespace, m));
  } else if (namespace.length !== 0) {
    errs.push(forbiddenField('metadata.namespace', 'not allowed on this type'));
  }

  if (typeof meta.generation === 'number' && meta.generation < 0) {
    errs.push(invalid('metadata.generation', meta.generation, IS_NEGATIVE_ERROR_MSG));
  }
  errs.push(...(yield* validateLabelsSteps(meta.labels, 'metadata.labels', due)));
  errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errs.push(...validateOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences'));
  errs.push(...validateFinalizers(meta.finalizers, 'metadata.finalizers'));
  errs.push(...validateManagedFields(meta.managedFields, 'metadata.managedFields'));
  if (rules.standardFinalizers) errs.push(...validateKubeFinalizerNames(meta.finalizers, rules.standardFinalizers));
  return errs;
}

/**
 * Upstream's ValidateObjectMetaUpdate: name, namespace, uid, creationTimestamp, deletionTimestamp
 * and deletionGracePeriodSeconds are immutable; resourceVersion must be set (the store fills it
 * in for unconditional updates before validating); generation may not go down; no new finalizers
 * once deleting. generateName may change, as upstream allows.
 */
export function validateObjectMetaUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta, rules: Pick<ObjectMetaRules, 'standardFinalizers'> = {}): FieldError[] {
  return runAtOnce((due) => validateObjectMetaUpdateSteps(newMeta, oldMeta, rules, due));
}

/** validateObjectMetaUpdate as stepped work (machinery/pace.ts): its labels are checked in steps. */
export function* validateObjectMetaUpdateSteps(
  newMeta: ObjectMeta,
  oldMeta: ObjectMeta,
  rules: Pick<ObjectMetaRules, 'standardFinalizers'>,
  due: Due,
): Generator<void, FieldError[], void> {
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp !== undefined && oldMeta.deletionTimestamp !== null) {
    errs.push(...validateNoNewFinalizers(newMeta.finalizers, oldMeta.finalizers, 'metadata.finalizers'));
  }
  if (str(newMeta.resourceVersion).length === 0) {
    errs.push(invalid('metadata.resourceVersion', str(newMeta.resourceVersion), 'must be specified for an update'));
  }
  const newGen = typeof newMeta.generation === 'number' ? newMeta.generation : 0;
  const oldGen = typeof oldMeta.generation === 'number' ? oldMeta.generation : 0;
  if (newGen < oldGen) errs.push(invalid('metadata.generation', newGen, 'must not be decremented'));

  // Go compares zero values: an absent string is "", an absent pointer nil.
  const immutableString = (field: 'name' | 'namespace' | 'uid'): void => {
    const n = str(newMeta[field]);
    if (n !== str(oldMeta[field])) errs.push(invalid(`metadata.${field}`, n, FIELD_IMMUTABLE_ERROR_MSG));
  };
  immutableString('name');
  immutableString('namespace');
  immutableString('uid');
  if (!sameTime(newMeta.creationTimestamp, oldMeta.creationTimestamp)) {
    errs.push(invalid('metadata.creationTimestamp', newMeta.creationTimestamp ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  }
  if (!sameTime(newMeta.deletionTimestamp, oldMeta.deletionTimestamp)) {
    errs.push(invalid('metadata.deletionTimestamp', newMeta.deletionTimestamp ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  }
  if ((newMeta.deletionGracePeriodSeconds ?? null) !== (oldMeta.deletionGracePeriodSeconds ?? null)) {
    errs.push(invalid('metadata.deletionGracePeriodSeconds', newMeta.deletionGracePeriodSeconds ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  }

  errs.push(...(yield* validateLabelsSteps(newMeta.labels, 'metadata.labels', due)));
  errs.push(...validateAnnotations(newMeta.annotations, 'metadata.annotations'));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, 'metadata.ownerReferences'));
  errs.push(...validateManagedFields(newMeta.managedFields, 'metadata.managedFields'));
  if (rules.standardFinalizers) errs.push(...validateKubeFinalizerNames(newMeta.finalizers, rules.standardFinalizers));
  return errs;
}

// Upstream compares metav1.Time semantically (same instant), and a zero time equals an absent one.
function sameTime(a: string | undefined | null, b: string | undefined | null): boolean {
  const x = a ?? '';
  const y = b ?? '';
  if (x === y) return true;
  if (x === '' || y === '') return false;
  const tx = Date.parse(x);
  const ty = Date.parse(y);
  return !Number.isNaN(tx) && tx === ty;
}

/** Upstream's ValidateAnnotations: keys qualified (checked lower-cased), total size ≤ 256 KiB. */
export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined | null, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (annotations === undefined || annotations === null) return errs;
  let total = 0;
  let tooBig = false;
  for (const k of Object.keys(annotations)) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalid(fldPath, k, m));
    if (!tooBig) {
      // Go's len counts UTF-8 bytes; Buffer.byteLength counts them natively (values can be large).
      total += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(str(annotations[k]), 'utf8');
      tooBig = total > TOTAL_ANNOTATION_SIZE_LIMIT_B;
    }
  }
  if (tooBig) errs.push(tooLongBytes(fldPath, '', TOTAL_ANNOTATION_SIZE_LIMIT_B));
  return errs;
}

/** Upstream's ValidateFinalizers: each a qualified name; orphan and foregroundDeletion exclusive. */
export function validateFinalizers(finalizers: readonly string[] | undefined | null, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!finalizers) return errs;
  let orphan = false;
  let foreground = false;
  for (const f of finalizers) {
    for (const m of isQualifiedName(f)) errs.push(invalid(fldPath, f, m));
    if (f === FINALIZER_ORPHAN_DEPENDENTS) orphan = true;
    if (f === FINALIZER_DELETE_DEPENDENTS) foreground = true;
  }
  if (orphan && foreground) {
    errs.push(invalid(fldPath, [...finalizers], `finalizer ${FINALIZER_ORPHAN_DEPENDENTS} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`));
  }
  return errs;
}

/** The core types' rule: a finalizer without '/' must be a standard one; errors at `metadata.finalizers[i]`. */
export function validateKubeFinalizerNames(finalizers: readonly string[] | undefined | null, standard: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  if (!finalizers) return errs;
  finalizers.forEach((f, i) => {
    if (!f.includes('/') && !standard.has(f)) {
      errs.push(invalid(`metadata.finalizers[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

/** Upstream's ValidateNoNewFinalizers: a deleting object may drop finalizers but not gain any. */
export function validateNoNewFinalizers(
  newFinalizers: readonly string[] | undefined | null,
  oldFinalizers: readonly string[] | undefined | null,
  fldPath: string,
): FieldError[] {
  const old = new Set(oldFinalizers ?? []);
  const extra = [...new Set((newFinalizers ?? []).filter((f) => !old.has(f)))].sort();
  if (extra.length === 0) return [];
  return [forbiddenField(fldPath, `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`)];
}

/** Upstream's ValidateOwnerReferences: required parts, no Event owners, at most one controller. */
export function validateOwnerReferences(refs: readonly OwnerReference[] | undefined | null, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!refs) return errs;
  let controllerName = '';
  for (const ref of refs) {
    errs.push(...validateOwnerReference(ref, fldPath));
    if (ref.controller === true) {
      if (controllerName !== '') {
        errs.push(
          invalid(fldPath, refs, `Only one reference can have Controller set to true. Found "true" in references for ${controllerName} and ${str(ref.name)}`),
        );
      } else controllerName = str(ref.name);
    }
  }
  return errs;
}

// Upstream's schema.ParseGroupVersion; a malformed apiVersion yields an empty group and version.
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const first = apiVersion.indexOf('/');
  if (first < 0) return { group: '', version: apiVersion };
  if (apiVersion.indexOf('/', first + 1) >= 0) return { group: '', version: '' };
  return { group: apiVersion.slice(0, first), version: apiVersion.slice(first + 1) };
}

function validateOwnerReference(ref: OwnerReference, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(ref.apiVersion);
  const kind = str(ref.kind);
  const gv = parseGroupVersion(apiVersion);
  if (gv.version.length === 0) errs.push(invalid(`${fldPath}.apiVersion`, apiVersion, 'version must not be empty'));
  if (kind.length === 0) errs.push(invalid(`${fldPath}.kind`, kind, 'kind must not be empty'));
  if (str(ref.name).length === 0) errs.push(invalid(`${fldPath}.name`, str(ref.name), 'name must not be empty'));
  if (str(ref.uid).length === 0) errs.push(invalid(`${fldPath}.uid`, str(ref.uid), 'uid must not be empty'));
  // Events may never own objects (upstream's BannedOwners).
  if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
    errs.push(invalid(fldPath, ref, `${gv.group}/${gv.version}, Kind=${kind} is disallowed from being an owner`));
  }
  return errs;
}

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const NOT_PRINTABLE = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

/** Upstream's ValidateManagedFields: operation, fieldsType, manager and subresource of each entry. */
export function validateManagedFields(entries: readonly unknown[] | undefined | null, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!entries) return errs;
  entries.forEach((raw, i) => {
    const e = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const p = `${fldPath}[${i}]`;
    const operation = str(e.operation);
    if (operation !== 'Apply' && operation !== 'Update') errs.push(invalid(`${p}.operation`, operation, 'must be `Apply` or `Update`'));
    const fieldsType = str(e.fieldsType);
    if (fieldsType.length > 0 && fieldsType !== 'FieldsV1') errs.push(invalid(`${p}.fieldsType`, fieldsType, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(str(e.manager), `${p}.manager`));
    const subresource = str(e.subresource);
    if (exceedsBytes(subresource, MAX_SUBRESOURCE_NAME_LENGTH)) {
      errs.push(tooLongBytes(`${p}.subresource`, subresource, MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}

/** Upstream's ValidateFieldManager: at most 128 bytes, printable characters only. */
export function validateFieldManager(manager: string, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (exceedsBytes(manager, FIELD_MANAGER_MAX_LENGTH)) errs.push(tooLongBytes(fldPath, manager, FIELD_MANAGER_MAX_LENGTH));
  if (NOT_PRINTABLE.test(manager)) {
    let byteOffset = 0;
    for (const ch of manager) {
      if (NOT_PRINTABLE.test(ch)) errs.push(invalid(fldPath, manager, `invalid character ${goRuneU(ch)} (at position ${byteOffset})`));
      byteOffset += utf8Length(ch);
    }
  }
  return errs;
}

// Go's %#U: "U+0009" for an unprintable rune (the quoted glyph is only added for printable ones).
function goRuneU(ch: string): string {
  return `U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
}
