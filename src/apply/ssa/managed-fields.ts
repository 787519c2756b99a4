/**
 * metadata.managedFields <-> the managers' field sets (upstream's fieldmanager/internal
 * managedfields.go): each entry is keyed by its manager identifier — the entry's JSON without
 * time and fields, and without apiVersion for an applier — so one manager has one entry per
 * operation, version (for updates) and subresource.
 */
import { rfc3339 } from '../../machinery/object.js';
import { FieldSet } from './field-set.js';
import { goJsonString } from './value.js';

export type Operation = 'Apply' | 'Update';

/** A manager's fields at the version it used, and whether it applied them. */
export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  readonly applied: boolean;
}

/** Every manager's fields and the time of its last change, by manager identifier. */
export interface Managed {
  fields: Map<string, VersionedSet>;
  times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

export function copyManaged(m: Managed): Managed {
  return { fields: new Map(m.fields), times: new Map(m.times) };
}

/** What a manager identifier holds. */
export interface ManagerInfo {
  manager: string;
  operation: string;
  apiVersion?: string;
  subresource?: string;
}

/** BuildManagerIdentifier: the entry's JSON as encoding/json writes it, empty fields omitted. */
export function managerIdentifier(info: ManagerInfo): string {
  const parts: string[] = [];
  if (info.manager) parts.push(`"manager":${goJsonString(info.manager)}`);
  if (info.operation) parts.push(`"operation":${goJsonString(info.operation)}`);
  if (info.operation !== 'Apply' && info.apiVersion) parts.push(`"apiVersion":${goJsonString(info.apiVersion)}`);
  if (info.subresource) parts.push(`"subresource":${goJsonString(info.subresource)}`);
  return `{${parts.join(',')}}`;
}

/** The fields of a manager identifier. */
export function parseManagerIdentifier(id: string): ManagerInfo {
  try {
    const v = JSON.parse(id) as Record<string, unknown>;
    return {
      manager: str(v.manager),
      operation: str(v.operation),
      apiVersion: str(v.apiVersion) || undefined,
      subresource: str(v.subresource) || undefined,
    };
  } catch {
    return { manager: id, operation: '' };
  }
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Thrown when managedFields cannot be decoded. */
export class ManagedFieldsError extends Error {}

/** isResetManagedFields: `[]` or `[{}]` asks for the ownership records to be dropped. */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && isEmptyEntry(entries[0]);
}

// The zero ManagedFieldsEntry: every field absent or empty, as Go's DeepEqual to {} sees it.
function isEmptyEntry(e: unknown): boolean {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
  for (const v of Object.values(e)) if (v !== undefined && v !== null && v !== '') return false;
  return true;
}

/** DecodeManagedFields: the managers of an object's managedFields (absent: none). */
export function decodeManagedFields(entries: unknown): Managed {
  const managed = emptyManaged();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list');
  entries.forEach((raw, i) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ManagedFieldsError(`managed fields entry ${i} is not an object`);
    const e = raw as Record<string, unknown>;
    const operation = str(e.operation);
    if (operation !== 'Apply' && operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    const apiVersion = str(e.apiVersion);
    if (apiVersion === '') throw new ManagedFieldsError('apiVersion must not be empty');
    const fieldsType = str(e.fieldsType);
    if (fieldsType === '') throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`invalid fieldsType "${fieldsType}" in managed fields entry ${i}`);
    const id = managerIdentifier({ manager: str(e.manager), operation, apiVersion, subresource: str(e.subresource) });
    let set: FieldSet;
    try {
      set = FieldSet.fromFieldsV1(e.fieldsV1);
    } catch (err) {
      throw new ManagedFieldsError(`error decoding versioned set: error decoding set: ${err instanceof Error ? err.message : String(err)}`);
    }
    managed.fields.set(id, { set, apiVersion, applied: operation === 'Apply' });
    managed.times.set(id, normalizeTime(e.time));
  });
  return managed;
}

// metav1.Time re-serializes in UTC with second precision.
function normalizeTime(t: unknown): string | undefined {
  if (typeof t !== 'string' || t === '') return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : rfc3339(new Date(ms));
}

function seconds(t: string | undefined): number {
  if (t === undefined) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** One managedFields entry, fields in upstream's order. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation: string;
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

/**
 * encodeManagedFields: one entry per manager, sorted by operation (Apply first), time in
 * seconds, manager, apiVersion and subresource; undefined when no manager is left.
 */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const info = parseManagerIdentifier(id);
    const time = managed.times.get(id);
    entries.push({
      ...(info.manager ? { manager: info.manager } : {}),
      operation: vs.applied ? 'Apply' : info.operation,
      apiVersion: vs.apiVersion,
      ...(time !== undefined ? { time } : {}),
      fieldsType: 'FieldsV1',
      fieldsV1: vs.set.toFieldsV1(),
      ...(info.subresource ? { subresource: info.subresource } : {}),
    });
  }
  return entries.sort(compareEntries);
}

function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
  const ps = seconds(p.time);
  const qs = seconds(q.time);
  if (ps !== qs) return ps - qs;
  return cmp(p.manager ?? '', q.manager ?? '') || cmp(p.apiVersion, q.apiVersion) || cmp(p.subresource ?? '', q.subresource ?? '');
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
