/**
 * Event validation as upstream's pkg/apis/core/validation/events.go. Every rule reads the core
 * v1 form (events/v1 objects are converted first) and reports upstream's internal field paths
 * (`message`, `involvedObject.namespace`, `reportingController`...), whichever view was used.
 * Core v1 writes get only the legacy rules; events/v1 writes also get the strict ones.
 */
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { isPlainObject } from '../../machinery/object.js';
import { invalid, required, type FieldError } from '../../machinery/status.js';
import { exceedsBytes, isDNS1123Subdomain, isQualifiedName } from '../../machinery/validation.js';
import { rec, str } from '../../machinery/fields.js';
import { setOwn } from '../../machinery/own-property.js';

export const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
export const ACTION_LENGTH_LIMIT = 128;
export const REASON_LENGTH_LIMIT = 128;
export const NOTE_LENGTH_LIMIT = 1024;

/** Which rules apply: `legacy` for core v1 writes, `strict` for events/v1 writes. */
export type EventRules = 'legacy' | 'strict';

const FIELD_IMMUTABLE = 'field is immutable';

const ZERO_INSTANT = `${Date.parse('0001-01-01T00:00:00Z') / 1000}.000000000`;

/** A time as an exact, zone-free key ('' for the zero time), so equal instants compare equal. */
function instant(v: unknown): string {
  if (typeof v !== 'string' || v === '') return '';
  const m = /^(.*?)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/i.exec(v);
  const ms = Date.parse(m ? `${m[1]}${m[3]}` : v);
  if (Number.isNaN(ms)) return v;
  const key = `${ms / 1000}.${`${m?.[2] ?? ''}000000000`.slice(0, 9)}`;
  return key === ZERO_INSTANT ? '' : key;
}

function isZeroTime(v: unknown): boolean {
  return instant(v) === '';
}

/** A JSON value with Go's zero values removed, so absent, null, '', 0, {} and [] all compare equal. */
function withoutZeros(v: unknown): unknown {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return undefined;
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(withoutZeros);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const n = withoutZeros(x);
      if (n !== undefined) setOwn(out, k, n);
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}

/** apimachinery's Semantic.DeepEqual over JSON: zero values fold, times compare as instants. */
function semanticEqual(a: unknown, b: unknown, kind: 'value' | 'time' | 'pointer'): boolean {
  if (kind === 'time') return instant(a) === instant(b);
  if (kind === 'pointer' && (a === undefined || a === null) !== (b === undefined || b === null)) return false;
  return JSON.stringify(sortKeys(withoutZeros(a))) === JSON.stringify(sortKeys(withoutZeros(b)));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isPlainObject(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys(v[k])]),
  );
}

/** Upstream's legacyValidateEvent: applies to every Event write, whichever view. */
export function legacyEventErrors(ev: Obj, brand: Brand): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = str(rec(ev.metadata).namespace);
  const involvedNamespace = str(rec(ev.involvedObject).namespace);
  const mismatch = (): FieldError => invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (isZeroTime(ev.eventTime)) {
    // Old-style Events: the Event lives in its involved object's namespace (or default).
    if (involvedNamespace === '') {
      if (namespace !== '' && namespace !== 'default') errs.push(mismatch());
    } else if (namespace !== involvedNamespace) {
      errs.push(mismatch());
    }
  } else {
    if (involvedNamespace === '' && namespace !== 'default' && namespace !== brand.systemNamespace) errs.push(mismatch());
    const controller = str(ev.reportingComponent);
    if (controller === '') errs.push(required('reportingController', ''));
    for (const msg of isQualifiedName(controller)) errs.push(invalid('reportingController', controller, msg));
    errs.push(...requiredWithLimit('reportingInstance', str(ev.reportingInstance), REPORTING_INSTANCE_LENGTH_LIMIT));
    errs.push(...requiredWithLimit('action', str(ev.action), ACTION_LENGTH_LIMIT));
    errs.push(...requiredWithLimit('reason', str(ev.reason), REASON_LENGTH_LIMIT));
    if (exceedsBytes(str(ev.message), NOTE_LENGTH_LIMIT)) errs.push(atMost('message', NOTE_LENGTH_LIMIT));
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push(invalid('namespace', namespace, msg));
  return errs;
}

function atMost(field: string, limit: number): FieldError {
  return invalid(field, '', `can have at most ${limit} characters`);
}

function requiredWithLimit(field: string, value: string, limit: number): FieldError[] {
  if (value === '') return [required(field, '')];
  return exceedsBytes(value, limit) ? [atMost(field, limit)] : [];
}

/** Upstream's validateV1EventSeries: a series counts at least 2 and has a lastObservedTime. */
function seriesErrors(ev: Obj): FieldError[] {
  if (ev.series === undefined || ev.series === null) return [];
  const series = rec(ev.series);
  const errs: FieldError[] = [];
  const seen = typeof series.count === 'number' ? series.count : 0;
  if (seen < 2) errs.push(invalid('series.count', '', 'should be at least 2'));
  if (isZeroTime(series.lastObservedTime)) errs.push(required('series.lastObservedTime', ''));
  return errs;
}

/** Upstream's ValidateEventCreate on the core form of a new Event. */
export function validateEventCreate(ev: Obj, rules: EventRules, brand: Brand): FieldError[] {
  const errs = legacyEventErrors(ev, brand);
  if (rules === 'legacy') return errs;
  errs.push(...seriesErrors(ev));
  if (isZeroTime(ev.eventTime)) errs.push(required('eventTime', ''));
  const type = str(ev.type);
  if (type !== 'Normal' && type !== 'Warning') errs.push(invalid('type', '', `has invalid value: ${type}`));
  // The deprecated fields exist for old readers; events/v1 writers may not set them.
  if (!isZeroTime(ev.firstTimestamp)) errs.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (!isZeroTime(ev.lastTimestamp)) errs.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if (typeof ev.count === 'number' && ev.count !== 0) errs.push(invalid('count', '', 'needs to be unset'));
  const source = rec(ev.source);
  if (str(source.component) !== '' || str(source.host) !== '') errs.push(invalid('source', '', 'needs to be unset'));
  return errs;
}

/**
 * The immutable fields of an events/v1 update, in upstream's order: internal path, core v1
 * JSON field, how to compare it, and its zero value (reported when the new value is absent).
 * `reason` appears twice, as it does upstream (a changed reason yields two errors).
 */
const IMMUTABLE_EVENT_FIELDS: ReadonlyArray<[path: string, field: string, kind: 'value' | 'time' | 'pointer', zero: unknown]> = [
  ['involvedObject', 'involvedObject', 'value', {}],
  ['reason', 'reason', 'value', ''],
  ['message', 'message', 'value', ''],
  ['source', 'source', 'value', {}],
  ['firstTimestamp', 'firstTimestamp', 'time', null],
  ['lastTimestamp', 'lastTimestamp', 'time', null],
  ['count', 'count', 'value', 0],
  ['reason', 'reason', 'value', ''],
  ['type', 'type', 'value', ''],
  ['eventTime', 'eventTime', 'time', null],
  ['action', 'action', 'value', ''],
  ['related', 'related', 'pointer', null],
  ['reportingController', 'reportingComponent', 'value', ''],
  ['reportingInstance', 'reportingInstance', 'value', ''],
];

/** Upstream's ValidateEventUpdate on the core forms of the new and the stored Event. */
export function validateEventUpdate(ev: Obj, old: Obj, rules: EventRules, brand: Brand): FieldError[] {
  const errs = legacyEventErrors(ev, brand);
  if (rules === 'legacy') return errs;
  if (!semanticEqual(ev.series, old.series, 'pointer')) errs.push(...seriesErrors(ev));
  for (const [path, field, kind, zero] of IMMUTABLE_EVENT_FIELDS) {
    if (!semanticEqual(ev[field], old[field], kind)) errs.push(invalid(path, ev[field] ?? zero, FIELD_IMMUTABLE));
  }
  return errs;
}
