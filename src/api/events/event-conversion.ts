/**
 * events.<brand>/v1 Event <-> core v1 Event, as upstream's Convert_v1_Event_To_core_Event and
 * back. Both views share the core `events` storage; the stored form is core v1.
 */
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import type { Conversion } from '../types.js';
import { setOwn } from '../../machinery/own-property.js';

/** events/v1 field -> core v1 field; fields not listed (reason, type, action, eventTime, series, related, reportingInstance) keep their names. */
export const EVENT_FIELD_RENAMES: Readonly<Record<string, string>> = {
  note: 'message',
  regarding: 'involvedObject',
  reportingController: 'reportingComponent',
  deprecatedSource: 'source',
  deprecatedCount: 'count',
  deprecatedFirstTimestamp: 'firstTimestamp',
  deprecatedLastTimestamp: 'lastTimestamp',
};

const CORE_TO_EVENTS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(EVENT_FIELD_RENAMES).map(([served, stored]) => [stored, served]));

/**
 * Copies obj under new field names. A key that names a field of the other view only (a core
 * `message` sent to events/v1) is dropped, so it cannot overwrite the renamed field.
 * Nested values are shared, not copied.
 */
function renameFields(obj: Obj, renames: Readonly<Record<string, string>>, foreign: Readonly<Record<string, string>>, apiVersion: string): Obj {
  const out: Obj = { apiVersion, kind: 'Event' };
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'apiVersion' || key === 'kind') continue;
    // Own entries only: a client's `constructor` field is neither a rename nor a foreign field.
    const renamed = Object.hasOwn(renames, key) ? renames[key] : undefined;
    if (renamed !== undefined) out[renamed] = value;
    else if (!Object.hasOwn(foreign, key)) setOwn(out, key, value);
  }
  return out;
}

/** An events/v1 Event in its core v1 form (what is stored and what validation reads). */
export function eventToCore(obj: Obj): Obj {
  return renameFields(obj, EVENT_FIELD_RENAMES, CORE_TO_EVENTS, 'v1');
}

/** A core v1 Event in its events/v1 form under the brand's group. */
export function coreToEvent(obj: Obj, brand: Brand): Obj {
  return renameFields(obj, CORE_TO_EVENTS, EVENT_FIELD_RENAMES, `${brand.group('events', true)}/v1`);
}

/** The Conversion of the events/v1 view onto core v1 storage. */
export const eventConversion: Conversion = {
  toStorage: (obj) => eventToCore(obj),
  fromStorage: (obj, brand) => coreToEvent(obj, brand),
};
