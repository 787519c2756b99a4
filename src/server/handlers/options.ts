/**
 * The options of a request, decoded once from its query (and, for a delete, its body) into
 * upstream's typed CreateOptions / UpdateOptions / PatchOptions / DeleteOptions / ListOptions,
 * with upstream's validation: dryRun is 400 unless `All`; fieldManager, fieldValidation and
 * force are 422 Invalid on the options kind; a delete's policy and orphan flag 422 on
 * DeleteOptions. Handlers and the registry read only these, never the query.
 */
import { parseBoolError, parseGoBool, queryBool } from '../../machinery/go-bool.js';
import { queryInt64 } from '../../machinery/go-int.js';
import { validateFieldManager } from '../../machinery/object-meta-validation.js';
import { isPlainObject } from '../../machinery/object.js';
import type { Brand } from '../../machinery/brand.js';
import { badRequest, type FieldError, forbiddenField, invalidObject, notSupported, required, type StatusError } from '../../machinery/status.js';
import type { DeleteOptions, ListOptions } from '../../registry/context.js';

export type { DeleteOptions, ListOptions };

/** What a write does with unknown and repeated fields (upstream's fieldValidation directive). */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';
const DIRECTIVES: readonly FieldValidation[] = ['Ignore', 'Strict', 'Warn'];

/** CreateOptions as decoded from the query. */
export interface CreateOptions {
  dryRun: boolean;
  /** The fieldManager parameter as given ('' when absent). */
  fieldManager: string;
  fieldValidation: FieldValidation;
}

export type UpdateOptions = CreateOptions;

export interface PatchOptions extends CreateOptions {
  /** Apply only: take ownership of conflicting fields. */
  force: boolean;
}

type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

/** `dryRun=All` → true; absent → false; anything else is 400. */
function dryRunOf(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  if (values.length === 0) return false;
  for (const v of values) {
    if (v !== 'All') throw badRequest(`Invalid dryRun value: Unsupported value: "${v}": supported values: "All"`);
  }
  return true;
}

/**
 * An int64 parameter as upstream's parameter codec reads it (first value, strconv.ParseInt);
 * when it does not parse, 400 with Go's error text and nothing else, as upstream's handlers wrap
 * the conversion error in a BadRequest.
 */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const v = queryInt64(query.getAll(name));
  if (typeof v === 'object') throw badRequest(v.error);
  return v;
}

function boolParam(query: URLSearchParams, name: string): boolean {
  return queryBool(query.getAll(name));
}

/** 422 on the options kind (`PatchOptions.meta.orch.io "" is invalid: ...`), without a name. */
function invalidOptions(brand: Brand, kind: OptionsKind, errs: FieldError[]): StatusError {
  const err = invalidObject(kind, brand.metaGroup, '', errs);
  if (err.details) delete err.details.name;
  return err;
}

/** The fieldValidation directive; an unknown one is 422 on the options kind. */
function fieldValidationOf(query: URLSearchParams, brand: Brand, kind: OptionsKind): FieldValidation {
  const value = query.get('fieldValidation') ?? '';
  if (value === '') return 'Warn';
  if (!(DIRECTIVES as readonly string[]).includes(value)) {
    throw invalidObject(kind, brand.metaGroup, '', [notSupported('fieldValidation', value, ['', ...DIRECTIVES])]);
  }
  return value as FieldValidation;
}

/** CreateOptions or UpdateOptions (they validate alike). */
export function writeOptionsOf(query: URLSearchParams, brand: Brand, kind: 'CreateOptions' | 'UpdateOptions'): CreateOptions {
  const dryRun = dryRunOf(query);
  const fieldValidation = fieldValidationOf(query, brand, kind);
  const fieldManager = query.get('fieldManager') ?? '';
  const errs = validateFieldManager(fieldManager, 'fieldManager');
  if (errs.length > 0) throw invalidOptions(brand, kind, errs);
  return { dryRun, fieldManager, fieldValidation };
}

/**
 * PatchOptions: `force` parses as Go's ParseBool (400 otherwise) and is for apply only; apply
 * needs a fieldManager.
 */
export function patchOptionsOf(query: URLSearchParams, brand: Brand, apply: boolean): PatchOptions {
  const dryRun = dryRunOf(query);
  const raw = query.get('force');
  const force = raw === null ? undefined : parseGoBool(raw);
  if (raw !== null && force === undefined) throw badRequest(parseBoolError(raw));
  const fieldManager = query.get('fieldManager') ?? '';
  const errs: FieldError[] = [];
  if (!apply && force !== undefined) errs.push(forbiddenField('force', 'may not be specified for non-apply patch'));
  if (apply && fieldManager === '') errs.push(required('fieldManager', 'is required for apply patch'));
  errs.push(...validateFieldManager(fieldManager, 'fieldManager'));
  if (errs.length > 0) throw invalidOptions(brand, 'PatchOptions', errs);
  return { dryRun, fieldManager, fieldValidation: fieldValidationOf(query, brand, 'PatchOptions'), force: force ?? false };
}

/** GetOptions: the resourceVersion a get reads at ('' or absent: the most recent). */
export function getOptionsOf(query: URLSearchParams): { resourceVersion: string | undefined } {
  return { resourceVersion: query.get('resourceVersion') ?? undefined };
}

/** What a Table row carries of its object (TableOptions' includeObject; default Metadata). */
export type IncludeObject = 'None' | 'Metadata' | 'Object';
const INCLUDE_OBJECT: readonly IncludeObject[] = ['None', 'Metadata', 'Object'];

/** TableOptions, read when a Table is asked for; an unknown includeObject is 400. */
export function tableOptionsOf(query: URLSearchParams): { includeObject: IncludeObject } {
  const v = query.get('includeObject') ?? '';
  if (v === '') return { includeObject: 'Metadata' };
  if (!(INCLUDE_OBJECT as readonly string[]).includes(v))
    throw badRequest(`includeObject: Unsupported value: "${v}": supported values: "None", "Metadata", "Object"`);
  return { includeObject: v as IncludeObject };
}

/** List options of a list, or of a deletecollection (which neither pages nor watches). */
export function listOptionsOf(query: URLSearchParams, collectionDelete = false): ListOptions {
  const limit = intParam(query, 'limit');
  // Decoded (and so refused when malformed) on every list, as upstream's ListOptions, though only watches use it.
  intParam(query, 'timeoutSeconds');
  const opts: ListOptions = {
    labelSelector: query.get('labelSelector') ?? undefined,
    fieldSelector: query.get('fieldSelector') ?? undefined,
    limit,
    continue: query.get('continue') ?? undefined,
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: query.get('resourceVersionMatch') ?? undefined,
  };
  if (collectionDelete) return { ...opts, limit: undefined, continue: undefined };
  opts.sendInitialEvents = query.get('sendInitialEvents') ?? undefined;
  return opts;
}

/** The longest delay setTimeout honours (2^31-1 ms), in whole seconds. */
const MAX_TIMER_SECONDS = Math.floor(0x7fffffff / 1000);

/** Upstream's default watch timeout: a random duration between --min-request-timeout and twice it. */
function defaultTimeoutSeconds(minRequestTimeoutSeconds: number): number {
  return minRequestTimeoutSeconds * (1 + Math.random());
}

/**
 * List options of a watch; `name` (the deprecated /watch/.../<name>) watches one object, as
 * upstream adds a metadata.name field selector. timeoutSeconds=0 asks for the server's default.
 */
export function watchOptionsOf(query: URLSearchParams, name: string, minRequestTimeoutSeconds: number): ListOptions & { timeoutSeconds: number } {
  const opts = listOptionsOf(query);
  if (name !== '') opts.fieldSelector = [opts.fieldSelector, `metadata.name=${name}`].filter((s) => s !== undefined && s !== '').join(',');
  opts.allowWatchBookmarks = boolParam(query, 'allowWatchBookmarks');
  const requested = intParam(query, 'timeoutSeconds');
  if (requested === undefined || requested === 0) return { ...opts, timeoutSeconds: defaultTimeoutSeconds(minRequestTimeoutSeconds) };
  // A negative timeout ends the watch at once, as Go's timer with a negative duration fires at
  // once; a longer one than a Node timer holds (~24.8 days) would fire at once too, so it is capped.
  return { ...opts, timeoutSeconds: Math.min(Math.max(requested, 0), MAX_TIMER_SECONDS) };
}

const POLICIES = ['Foreground', 'Background', 'Orphan'] as const;

/**
 * DeleteOptions from the query and the optional body (the query wins, as upstream), validated
 * as upstream's ValidateDeleteOptions (422 Invalid of kind DeleteOptions).
 */
export function deleteOptionsOf(query: URLSearchParams, body: unknown, brand: Brand): DeleteOptions {
  const dryRun = dryRunOf(query);
  const b = isPlainObject(body) ? body : {};
  const errs: FieldError[] = [];
  const grace = intParam(query, 'gracePeriodSeconds') ?? (typeof b.gracePeriodSeconds === 'number' ? b.gracePeriodSeconds : undefined);
  const policy = query.get('propagationPolicy') ?? (typeof b.propagationPolicy === 'string' ? b.propagationPolicy : undefined);
  const orphanParam = query.get('orphanDependents');
  const orphan = orphanParam !== null ? boolParam(query, 'orphanDependents') : typeof b.orphanDependents === 'boolean' ? b.orphanDependents : undefined;
  if (policy !== undefined && !(POLICIES as readonly string[]).includes(policy)) {
    errs.push(notSupported('propagationPolicy', policy, [...POLICIES]));
  }
  if (policy !== undefined && orphan !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'propagationPolicy', value: policy, detail: 'orphanDependents and deletionPropagation cannot be both set' });
  }
  if (errs.length > 0) throw invalidObject('DeleteOptions', brand.metaGroup, '', errs);
  const pre = isPlainObject(b.preconditions) ? b.preconditions : undefined;
  return {
    dryRun,
    gracePeriodSeconds: grace,
    propagationPolicy: (policy ?? (orphan === true ? 'Orphan' : undefined)) as DeleteOptions['propagationPolicy'],
    preconditions: pre ? { uid: pre.uid as string | undefined, resourceVersion: pre.resourceVersion as string | undefined } : undefined,
  };
}
