/**
 * Events, as upstream's printEvent over the core Event (the events/v1 view prints the same
 * columns from its core form). Times fall back from lastTimestamp to firstTimestamp to
 * eventTime, and a series reports its own count and last observation.
 */
import type { Obj } from '../machinery/object.js';
import { NAME_COLUMN, column, wide } from './columns.js';
import { CORE_V1 } from './descriptions.js';
import { timestampMillis, translateTimestampSince } from './duration.js';
import { at, has, int, str } from './fields.js';
import { firstNonEmpty, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

/** formatEventSource: component (or reporting controller), then ", host" (or reporting instance). */
function eventSource(event: Obj): string {
  const component = firstNonEmpty(str(event, 'source.component'), str(event, 'reportingComponent'));
  const instance = firstNonEmpty(str(event, 'source.host'), str(event, 'reportingInstance'));
  return instance === '' ? component : `${component}, ${instance}`;
}

/** "kind/name" of the involved object, lower-cased kind; the kind alone without a name. */
function eventTarget(event: Obj): string {
  const kind = str(event, 'involvedObject.kind').toLowerCase();
  const name = str(event, 'involvedObject.name');
  return name === '' ? kind : `${kind}/${name}`;
}

/** Cells of a core v1 Event. */
function eventRow(event: Obj, now: Date): unknown[] {
  const firstSeen =
    timestampMillis(at(event, 'firstTimestamp')) === undefined
      ? translateTimestampSince(at(event, 'eventTime'), now)
      : translateTimestampSince(at(event, 'firstTimestamp'), now);
  let lastSeen = timestampMillis(at(event, 'lastTimestamp')) === undefined ? firstSeen : translateTimestampSince(at(event, 'lastTimestamp'), now);
  let count = int(event, 'count');
  if (has(event, 'series')) {
    lastSeen = translateTimestampSince(at(event, 'series.lastObservedTime'), now);
    count = int(event, 'series.count');
  } else if (count === 0) {
    // Singleton events of the new API carry no count.
    count = 1;
  }
  return [
    lastSeen,
    str(event, 'type'),
    str(event, 'reason'),
    eventTarget(event),
    str(event, 'involvedObject.fieldPath'),
    eventSource(event),
    str(event, 'message').trim(),
    firstSeen,
    count,
    nameOf(event),
  ];
}

/** Prints core v1 Events; `toCore` maps another view of the same storage (events/v1) first. */
export function eventPrinter(toCore: (obj: Obj) => Obj = (obj) => obj): TablePrinter {
  return {
    columns: [
      column('Last Seen', 'string', CORE_V1['Event.lastTimestamp']),
      column('Type', 'string', CORE_V1['Event.type']),
      column('Reason', 'string', CORE_V1['Event.reason']),
      column('Object', 'string', CORE_V1['Event.involvedObject']),
      wide('Subobject', 'string', CORE_V1['ObjectReference.fieldPath']),
      wide('Source', 'string', CORE_V1['Event.source']),
      column('Message', 'string', CORE_V1['Event.message']),
      wide('First Seen', 'string', CORE_V1['Event.firstTimestamp']),
      wide('Count', 'string', CORE_V1['Event.count']),
      wide('Name', 'string', NAME_COLUMN.description, 'name'),
    ],
    rows: (obj, now) => [eventRow(toCore(obj), now)],
  };
}
