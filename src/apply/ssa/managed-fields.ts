/**
 * metadata.managedFields <-> the managers' field sets (upstream's fieldmanager/internal
 * managedfields.go): each entry is keyed by its manager identifier — the entry's JSON without
 * time and fields, and without apiVersion for an applier — so one manager has one entry per
 * operation, version (for updates) and subresource.
 */
import { rfc3339 } from '../../machinery/object.js';
import { FieldSet } from './field-set.js';
import { goJsonString } from './value.js';
import { str } from '../../machinery/fields.js';
import type { Due } from '../../machinery/pace.js';
import { atOnceDue, Done, finished, type Steps, stepped, Work } from '../work.js';

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

/**
 * Every identifier built here, reached by its fields (manager, operation, apiVersion,
 * subresource: no string to build or hash on a hit), and what each one holds, so that encoding
 * entries and printing conflicts never parse one back. One table for the process: managers are
 * few, and a flood of names (each request may name its own) only empties it.
 */
interface IdNode {
  readonly next: Map<string, IdNode>;
  id?: string;
}
let idRoot: IdNode = { next: new Map() };
const KNOWN_IDS = new Map<string, Readonly<ManagerInfo>>();
const MAX_KNOWN_IDS = 10_000;

function idNode(node: IdNode, part: string): IdNode {
  let child = node.next.get(part);
  if (child === undefined) {
    child = { next: new Map() };
    node.next.set(part, child);
  }
  return child;
}

/** BuildManagerIdentifier: the entry's JSON as encoding/json writes it, empty fields omitted. */
export function managerIdentifier(info: ManagerInfo): string {
  const { manager, operation } = info;
  // An applier's entry is one for every version.
  const apiVersion = operation !== 'Apply' ? (info.apiVersion ?? '') : '';
  const subresource = info.subresource ?? '';
  if (KNOWN_IDS.size >= MAX_KNOWN_IDS) {
    KNOWN_IDS.clear();
    idRoot = { next: new Map() };
  }
  const node = idNode(idNode(idNode(idNode(idRoot, manager), operation), apiVersion), subresource);
  if (node.id !== undefined) return node.id;
  let body = '';
  if (manager) body += `,"manager":${goJsonString(manager)}`;
  if (operation) body += `,"operation":${goJsonString(operation)}`;
  if (apiVersion) body += `,"apiVersion":${goJsonString(apiVersion)}`;
  if (subresource) body += `,"subresource":${goJsonString(subresource)}`;
  const id = `{${body.slice(1)}}`;
  KNOWN_IDS.set(id, { manager, operation, apiVersion: apiVersion || undefined, subresource: subresource || undefined });
  node.id = id;
  return id;
}

/** The fields of a manager identifier (shared: not to be modified). */
export function parseManagerIdentifier(id: string): Readonly<ManagerInfo> {
  const known = KNOWN_IDS.get(id);
  if (known !== undefined) return known;
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
  for (const k of Object.keys(e)) {
    const v = (e as Record<string, unknown>)[k];
    if (v !== undefined && v !== null && v !== '') return false;
  }
  return true;
}

/** DecodeManagedFields: the managers of an object's managedFields (absent: none). */
export function decodeManagedFields(entries: unknown): Managed {
  return finished(decodeManagedFieldsSteps(entries, atOnceDue));
}

/**
 * decodeManagedFields, every entry's fields read in pieces of one Work (../work.ts), pausing
 * between them when due.
 */
export function decodeManagedFieldsSteps(entries: unknown, due: Due): Steps<Managed> {
  const managed = emptyManaged();
  if (entries === undefined || entries === null) return new Done(managed);
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list');
  const w = new Work();
  for (let i = 0; i < entries.length; i++) decodeEntry(entries[i], i, managed, w);
  return w.pending() ? drainDecoding(w, managed, due) : new Done(managed);
}

function* drainDecoding(w: Work, managed: Managed, due: Due): Generator<void, Managed, void> {
  try {
    yield* w.drain(due);
  } catch (err) {
    throw decodingSetError(err);
  }
  return managed;
}

function decodingSetError(err: unknown): ManagedFieldsError {
  return new ManagedFieldsError(`error decoding versioned set: error decoding set: ${err instanceof Error ? err.message : String(err)}`);
}

// One entry into managed (its set complete once w is drained).
function decodeEntry(raw: unknown, i: number, managed: Managed, w: Work): void {
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
    set = FieldSet.fromFieldsV1(e.fieldsV1, w);
  } catch (err) {
    throw decodingSetError(err);
  }
  managed.fields.set(id, { set, apiVersion, applied: operation === 'Apply' });
  managed.times.set(id, normalizeTime(e.time));
}

// metav1.Time re-serializes in UTC with second precision. Entries keep the times of earlier
// writes, so the same few strings come back on every write of an object.
const NORMALIZED_TIMES = new Map<string, string | undefined>();
const MAX_NORMALIZED_TIMES = 1_000;

function normalizeTime(t: unknown): string | undefined {
  if (typeof t !== 'string' || t === '') return undefined;
  if (NORMALIZED_TIMES.has(t)) return NORMALIZED_TIMES.get(t);
  const ms = Date.parse(t);
  const normalized = Number.isNaN(ms) ? undefined : rfc3339(new Date(ms));
  if (NORMALIZED_TIMES.size >= MAX_NORMALIZED_TIMES) NORMALIZED_TIMES.clear();
  NORMALIZED_TIMES.set(t, normalized);
  return normalized;
}

/** Whole seconds of a normalized time (0 when absent), the order of entries and of updaters. */
export function timeSeconds(t: string | undefined): number {
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
  return finished(encodeManagedFieldsSteps(managed, atOnceDue));
}

/** encodeManagedFields, the sets written in pieces of one Work (../work.ts), pausing between them when due. */
export function encodeManagedFieldsSteps(managed: Managed, due: Due): Steps<ManagedFieldsEntry[] | undefined> {
  if (managed.fields.size === 0) return new Done(undefined);
  return stepped(
    (w) => {
      const entries: ManagedFieldsEntry[] = [];
      for (const [id, vs] of managed.fields) entries.push(encodeEntry(parseManagerIdentifier(id), vs, managed.times.get(id), vs.set.toFieldsV1(w)));
      return entries;
    },
    due,
    sortEntries,
  );
}

// Upstream's order of entries (each one's fields written by now).
function sortEntries(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  if (entries.length === 1) return entries;
  const keyed = entries.map((entry) => ({ entry, seconds: timeSeconds(entry.time) }));
  return keyed.sort(compareEntries).map((k) => k.entry);
}

// Fields assigned in upstream's order, which is the order JSON writes them in.
function encodeEntry(info: Readonly<ManagerInfo>, vs: VersionedSet, time: string | undefined, fieldsV1: Record<string, unknown>): ManagedFieldsEntry {
  const entry = {} as ManagedFieldsEntry;
  if (info.manager) entry.manager = info.manager;
  entry.operation = vs.applied ? 'Apply' : info.operation;
  entry.apiVersion = vs.apiVersion;
  if (time !== undefined) entry.time = time;
  entry.fieldsType = 'FieldsV1';
  entry.fieldsV1 = fieldsV1;
  if (info.subresource) entry.subresource = info.subresource;
  return entry;
}

function compareEntries(
  { entry: p, seconds: ps }: { entry: ManagedFieldsEntry; seconds: number },
  { entry: q, seconds: qs }: { entry: ManagedFieldsEntry; seconds: number },
): number {
  if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
  if (ps !== qs) return ps - qs;
  return cmp(p.manager ?? '', q.manager ?? '') || cmp(p.apiVersion, q.apiVersion) || cmp(p.subresource ?? '', q.subresource ?? '');
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
