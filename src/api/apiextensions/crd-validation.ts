/**
 * CustomResourceDefinition's strategy (apiextensions' registry strategy): v1 defaults, the
 * stored versions recorded on create and update, validation of names, scope, versions,
 * subresources, printer columns and structural schemas with upstream's messages, and the
 * `customresourcecleanup` finalizer a deletion waits on while the instances are removed.
 */
import type { Strategy } from '../types.js';
import { type FieldError, invalid, notSupported, required, forbiddenField, duplicate } from '../../machinery/status.js';
import { isPlainObject, metaOf, type Obj } from '../../machinery/object.js';
import { list, rec, str } from '../../machinery/fields.js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from '../../machinery/validation.js';
import { structuralErrors } from './structural.js';

const PRINTER_COLUMN_TYPES = ['array', 'boolean', 'date', 'integer', 'number', 'object', 'string'];

/** The finalizer held while a deleting definition's instances are removed, in the definition's own group. */
export function cleanupFinalizer(crd: Obj): string {
  const apiVersion = str(crd.apiVersion);
  return `customresourcecleanup.${apiVersion.slice(0, apiVersion.indexOf('/'))}`;
}

/** Upstream's SetDefaults of a v1 CustomResourceDefinition: singular, listKind, conversion None. */
function defaults(crd: Obj): void {
  if (!isPlainObject(crd.spec)) return;
  const spec = crd.spec;
  if (isPlainObject(spec.names)) {
    const names = spec.names;
    const kind = str(names.kind);
    if (names.singular === undefined || names.singular === '') names.singular = kind.toLowerCase();
    if (names.listKind === undefined || names.listKind === '') names.listKind = `${kind}List`;
  }
  if (spec.conversion === undefined) spec.conversion = { strategy: 'None' };
}

/** Versions whose `storage` is true, appended to status.storedVersions when new (PrepareForCreate / PrepareForUpdate). */
function recordStoredVersion(crd: Obj): void {
  const status = rec(crd.status);
  const stored = list(status.storedVersions).filter((v): v is string => typeof v === 'string');
  for (const v of list(rec(crd.spec).versions)) {
    const name = str(rec(v).name);
    if (rec(v).storage === true && !stored.includes(name)) stored.push(name);
  }
  crd.status = { ...status, storedVersions: stored };
}

function labelErrors(field: string, value: string, check: (v: string) => string[]): FieldError[] {
  return check(value).map((m) => invalid(field, value, m));
}

function validateNames(names: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const plural = str(names.plural);
  const singular = str(names.singular);
  const kind = str(names.kind);
  const listKind = str(names.listKind);
  if (plural === '') errs.push(required(`${path}.plural`));
  else errs.push(...labelErrors(`${path}.plural`, plural, isDNS1123Label));
  if (singular !== '') errs.push(...labelErrors(`${path}.singular`, singular, isDNS1123Label));
  if (kind === '') errs.push(required(`${path}.kind`));
  else if (isDNS1035Label(kind.toLowerCase()).length > 0)
    errs.push(invalid(`${path}.kind`, kind, 'may have mixed case, but should otherwise match: [a-z]([-a-z0-9]*[a-z0-9])?'));
  if (listKind === '') errs.push(required(`${path}.listKind`));
  else if (listKind === kind) errs.push(invalid(`${path}.listKind`, listKind, 'kind and listKind may not be the same'));
  list(names.shortNames).forEach((s, i) => {
    errs.push(...labelErrors(`${path}.shortNames[${i}]`, str(s), isDNS1123Label));
  });
  return errs;
}

function validateVersion(v: Record<string, unknown>, path: string, seen: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(v.name);
  if (name === '') errs.push(required(`${path}.name`));
  else if (isDNS1035Label(name).length > 0)
    errs.push(
      invalid(
        `${path}.name`,
        name,
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ),
    );
  else if (seen.has(name)) errs.push(duplicate(`${path}.name`, name));
  seen.add(name);
  const schema = rec(v.schema).openAPIV3Schema;
  if (!isPlainObject(schema)) errs.push(required(`${path}.schema.openAPIV3Schema`, 'schemas are required'));
  else errs.push(...structuralErrors(schema, `${path}.schema.openAPIV3Schema`));
  const scale = rec(rec(v.subresources).scale);
  if (isPlainObject(rec(v.subresources).scale)) {
    const spath = `${path}.subresources.scale`;
    const specPath = str(scale.specReplicasPath);
    const statusPath = str(scale.statusReplicasPath);
    if (specPath === '') errs.push(required(`${spath}.specReplicasPath`));
    else if (!/^\.spec(\.[^.[\]]+)+$/.test(specPath)) errs.push(invalid(`${spath}.specReplicasPath`, specPath, 'should be a json path under .spec'));
    if (statusPath === '') errs.push(required(`${spath}.statusReplicasPath`));
    else if (!/^\.status(\.[^.[\]]+)+$/.test(statusPath)) errs.push(invalid(`${spath}.statusReplicasPath`, statusPath, 'should be a json path under .status'));
    const selectorPath = str(scale.labelSelectorPath);
    if (selectorPath !== '' && !/^\.(spec|status)(\.[^.[\]]+)+$/.test(selectorPath)) {
      errs.push(invalid(`${spath}.labelSelectorPath`, selectorPath, 'should be a json path under either .spec or .status'));
    }
  }
  list(v.additionalPrinterColumns).forEach((c, i) => {
    const col = rec(c);
    const cpath = `${path}.additionalPrinterColumns[${i}]`;
    if (str(col.name) === '') errs.push(required(`${cpath}.name`));
    if (str(col.type) === '') errs.push(required(`${cpath}.type`));
    else if (!PRINTER_COLUMN_TYPES.includes(str(col.type))) errs.push(notSupported(`${cpath}.type`, col.type, PRINTER_COLUMN_TYPES));
    if (str(col.jsonPath) === '') errs.push(required(`${cpath}.jsonPath`));
  });
  if (v.deprecationWarning !== undefined && v.deprecated !== true) {
    errs.push(invalid(`${path}.deprecationWarning`, v.deprecationWarning, 'can only be set for deprecated versions'));
  }
  return errs;
}

/** Upstream's ValidateCustomResourceDefinition for what orch serves of it. */
export function validateCustomResourceDefinition(crd: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec = rec(crd.spec);
  const group = str(spec.group);
  const names = rec(spec.names);
  const name = metaOf(crd).name ?? '';
  if (name !== `${str(names.plural)}.${group}`) errs.push(invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  if (group === '') errs.push(required('spec.group'));
  else {
    errs.push(...labelErrors('spec.group', group, isDNS1123Subdomain));
    if (!group.includes('.')) errs.push(invalid('spec.group', group, 'should be a domain with at least one dot'));
  }
  const scope = str(spec.scope);
  if (scope === '') errs.push(required('spec.scope'));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errs.push(notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));
  errs.push(...validateNames(names, 'spec.names'));
  const versions = list(spec.versions);
  if (versions.length === 0) errs.push(required('spec.versions', 'must have exactly one version marked as storage version'));
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    errs.push(...validateVersion(rec(v), `spec.versions[${i}]`, seen));
  });
  const storage = versions.filter((v) => rec(v).storage === true).length;
  if (versions.length > 0 && storage !== 1)
    errs.push(
      invalid(
        'spec.versions',
        versions.map((v) => str(rec(v).name)),
        'must have exactly one version marked as storage version',
      ),
    );
  const strategy = str(rec(spec.conversion).strategy);
  if (strategy !== 'None' && strategy !== 'Webhook') errs.push(notSupported('spec.conversion.strategy', strategy, ['None', 'Webhook']));
  if (strategy === 'Webhook') errs.push(forbiddenField('spec.conversion.strategy', 'Webhook conversion is not served by this server'));
  return errs;
}

function validateUpdate(next: Obj, old: Obj): FieldError[] {
  const errs = validateCustomResourceDefinition(next);
  const scope = str(rec(next.spec).scope);
  const oldScope = str(rec(old.spec).scope);
  if (scope !== oldScope) errs.push(invalid('spec.scope', scope, 'field is immutable'));
  const stored = list(rec(next.status).storedVersions);
  const versions = new Set(list(rec(next.spec).versions).map((v) => str(rec(v).name)));
  stored.forEach((v, i) => {
    if (!versions.has(str(v))) errs.push(invalid(`status.storedVersions[${i}]`, v, 'must appear in spec.versions'));
  });
  return errs;
}

export const customResourceDefinitionStrategy: Strategy = {
  defaults,
  prepareForCreate(crd) {
    crd.status = { acceptedNames: { kind: '', plural: '' } };
    recordStoredVersion(crd);
  },
  prepareForUpdate(crd, _old, ctx) {
    if (ctx.subresource === '') recordStoredVersion(crd);
  },
  validate: (crd) => validateCustomResourceDefinition(crd),
  validateUpdate: (crd, old, ctx) => (ctx.subresource === 'status' ? [] : validateUpdate(crd, old)),
  // A definition not yet deleting is held by the cleanup finalizer, which its deletion records.
  finalizers: (crd) => (metaOf(crd).deletionTimestamp === undefined ? [cleanupFinalizer(crd)] : []),
  prepareForDeletion(crd) {
    const meta = metaOf(crd);
    const finalizer = cleanupFinalizer(crd);
    if (!(meta.finalizers ?? []).includes(finalizer)) meta.finalizers = [...(meta.finalizers ?? []), finalizer];
    const status = rec(crd.status);
    const conditions = list(status.conditions).filter((c) => rec(c).type !== 'Terminating');
    conditions.push({
      type: 'Terminating',
      status: 'True',
      lastTransitionTime: meta.deletionTimestamp,
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
    crd.status = { ...status, conditions };
  },
};
