/**
 * The resource definitions a CustomResourceDefinition serves: one per served version, under its
 * accepted names, sharing one storage (`/registry/<group>/<plural>/`) in the storage version's
 * representation (conversion None rewrites apiVersion), each with its schema's pruning,
 * defaulting and validation, its subresources, printer columns, deprecation warning and
 * published schema. Built once per CRD change, so requests only look things up.
 */
import type { Conversion, PrinterColumn, ResourceDefinition, ScalePaths, Strategy } from '../../api/types.js';
import { isPlainObject, metaOf, type Obj } from '../../machinery/object.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { StatusError } from '../../machinery/status.js';
import { list, rec, str } from '../../machinery/fields.js';
import { openAPIDefinitions } from './openapi-schema.js';
import { applyDefaults, hasDefaults, prune } from './prune-default.js';
import { embeddedErrors, hasEmbedded } from './embedded.js';
import { hasListTypes, listTypeErrors } from './list-types.js';
import { SchemaValidator } from './schema-validator.js';

type Props = Record<string, unknown>;

/** The names a CRD is served under (status.acceptedNames once the naming controller accepted them). */
export interface AcceptedNames {
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  shortNames: string[];
  categories: string[];
}

function stringList(v: unknown): string[] {
  return list(v).filter((s): s is string => typeof s === 'string');
}

/** The names of a names object (spec.names or status.acceptedNames) with upstream's defaults. */
export function namesOf(names: Props): AcceptedNames {
  const kind = str(names.kind);
  return {
    plural: str(names.plural),
    singular: str(names.singular) || kind.toLowerCase(),
    kind,
    listKind: str(names.listKind) || `${kind}List`,
    shortNames: stringList(names.shortNames),
    categories: stringList(names.categories),
  };
}

/** What the CRD controller changes while a CRD is served: a deleting CRD takes no new instances. */
export interface Lifecycle {
  terminating: boolean;
}

/** Upstream's refusal of a create while the definition is deleting (its crdHandler's, 405). */
function terminatingError(group: string, plural: string): StatusError {
  return new StatusError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating', { group, kind: plural });
}

/** Upstream's custom resource strategy over one version's structural schema. */
function schemaStrategy(schema: Props, lifecycle: Lifecycle, group: string, plural: string, statusSubresource: boolean): Strategy {
  const validator = new SchemaValidator(schema);
  const defaulting = hasDefaults(schema);
  const embedded = hasEmbedded(schema);
  const listTypes = hasListTypes(schema);
  return {
    defaults(obj) {
      prune(obj, schema);
      if (defaulting) applyDefaults(obj, schema);
    },
    validate(obj) {
      const errs = validator.validate(obj);
      if (embedded) errs.push(...embeddedErrors(obj, schema));
      if (listTypes) errs.push(...listTypeErrors(obj, schema));
      return errs;
    },
    prune: (obj) => prune(obj, schema),
    prepareForCreate() {
      if (lifecycle.terminating) throw terminatingError(group, plural);
    },
    // Without a status subresource, status is part of what the generation counts (upstream's PrepareForUpdate).
    prepareForUpdate(obj, old) {
      if (!statusSubresource && !deepEqual(obj.status, old.status)) metaOf(obj).generation = (metaOf(old).generation ?? 0) + 1;
    },
  };
}

function printerColumnsOf(version: Props): PrinterColumn[] {
  return list(version.additionalPrinterColumns).map((c) => {
    const col = rec(c);
    return {
      name: str(col.name),
      type: str(col.type),
      format: str(col.format),
      description: str(col.description),
      priority: typeof col.priority === 'number' ? col.priority : 0,
      jsonPath: str(col.jsonPath),
    };
  });
}

function scalePathsOf(version: Props): ScalePaths | undefined {
  const scale = rec(version.subresources).scale;
  if (!isPlainObject(scale)) return undefined;
  const selector = str(scale.labelSelectorPath);
  return {
    specReplicasPath: str(scale.specReplicasPath),
    statusReplicasPath: str(scale.statusReplicasPath),
    ...(selector ? { labelSelectorPath: selector } : {}),
  };
}

/** Conversion None: the same object under the storage version's apiVersion. */
function noneConversion(storageApiVersion: string): Conversion {
  return {
    toStorage: (obj) => ({ ...obj, apiVersion: storageApiVersion }),
    fromStorage: (obj) => obj,
  };
}

/** The definitions a CRD serves under names (served versions only; the storage version owns the storage). */
export function definitionsOf(crd: Obj, names: AcceptedNames, lifecycle: Lifecycle = { terminating: false }): ResourceDefinition[] {
  const spec = rec(crd.spec);
  const group = str(spec.group);
  const versions = list(spec.versions).map(rec);
  const storageVersion = str(versions.find((v) => v.storage === true)?.name);
  const storagePrefix = `/registry/${group}/${names.plural}/`;
  return versions
    .filter((v) => v.served === true)
    .map((v): ResourceDefinition => {
      const version = str(v.name);
      const schema = rec(rec(v.schema).openAPIV3Schema);
      const subresources = rec(v.subresources);
      const scalePaths = scalePathsOf(v);
      return {
        groupStem: group,
        branded: false,
        version,
        kind: names.kind,
        listKind: names.listKind,
        plural: names.plural,
        singular: names.singular,
        shortNames: names.shortNames,
        categories: names.categories,
        namespaced: str(spec.scope) === 'Namespaced',
        subresources: { status: isPlainObject(subresources.status), scale: scalePaths !== undefined },
        nameRule: 'subdomain',
        storagePrefix,
        ...(version === storageVersion
          ? {}
          : { storage: { groupStem: group, plural: names.plural, conversion: noneConversion(`${group}/${storageVersion}`) } }),
        strategy: schemaStrategy(schema, lifecycle, group, names.plural, isPlainObject(subresources.status)),
        behaviour: { generation: true, anyFinalizerNames: true },
        ...(scalePaths ? { scalePaths } : {}),
        printerColumns: printerColumnsOf(v),
        ...(v.deprecated === true ? { deprecationWarning: str(v.deprecationWarning) || `${group}/${version} ${names.kind} is deprecated` } : {}),
        openAPI: openAPIDefinitions(group, version, names.kind, names.listKind, schema),
      };
    });
}
