/**
 * Events, as upstream's printEvent over the core Event (the events/v1 view prints the same
 * columns from its core form). Times fall back from lastTimestamp to firstTimestamp to
 * eventTime, and a series reports its own count and last observation.
 */
import type { Obj } from '../machinery/object.js';
import { NAME_COLUMN, column, wide } from './columns.js';
import { CORE_V1 } from './descriptions.js';
import { timestampMillis, translateTimestampSince } from './duration.js';
import { isSetAt, numAt, strAt, valueAt } from '../machinery/fields.js';
import { firstNonEmpty, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

/** formatEventSource: component (or reporting controller), then ", host" (or reporting instance). */
function eventSource(event: Obj): string {
  const component = firstNonEmpty(strAt(event, 'source.component'), strAt(event, 'reportingComponent'));
  const instance = firstNonEmpty(strAt(event, 'source.host'), strAt(event, 'reportingInstance'));
  return instance === '' ? component : `${component}, ${instance}`;
}

/** "kind/name" of the involved object, lower-cased kind; the kind alone without a name. */
function eventTarget(event: Obj): string {
  const kind = strAt(event, 'involvedObject.kind').toLowerCase();
  const name = strAt(event, 'involvedObject.name');
  return name === '' ? kind : `${kind}/${name}`;
}

/** Cells of a core v1 Event. */
function eventRow(event: Obj, now: Date): unknown[] {
  const firstSeen =
    timestampMillis(valueAt(event, 'firstTimestamp')) === undefined
      ? translateTimestampSince(valueAt(event, 'eventTime'), now)
      : translateTimestampSince(valueAt(event, 'firstTimestamp'), now);
  let lastSeen = timestampMillis(valueAt(event, 'lastTimestamp')) === undefined ? firstSeen : translateTimestampSince(valueAt(event, 'lastTimestamp'), now);
  let count = numAt(event, 'count');
  if (isSetAt(event, 'series')) {
    lastSeen = translateTimestampSince(valueAt(event, 'series.lastObservedTime'), now);
    count = numAt(event, 'series.count');
  } else if (count === 0) {
    // Singleton events of the new API carry no count.
    count = 1;
  }
  return [
    lastSeen,
    strAt(event, 'type'),
    strAt(event, 'reason'),
    eventTarget(event),
    strAt(event, 'involvedObject.fieldPath'),
    eventSource(event),
    strAt(event, 'message').trim(),
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
