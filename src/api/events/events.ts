/** events.<brand>/v1 Event: a view of the core `events` storage with the strict validation. */
import { events as eventsGroup } from '../groups.js';
import { text } from '../define.js';
import type { Obj } from '../../machinery/object.js';
import { validateEventCreate, validateEventUpdate } from '../core/event-validation.js';
import { eventConversion, eventToCore } from './event-conversion.js';

const sourceComponent = text('deprecatedSource.component');
const reporting = text('reportingController');
/** The `source` field selector: the source component, else the reporting one. */
const sourceField = (obj: Obj) => sourceComponent(obj) || reporting(obj);

export const events = eventsGroup({
  kind: 'Event',
  plural: 'events',
  shortNames: ['ev'],
  namespaced: true,
  storage: { groupStem: '', plural: 'events', conversion: eventConversion },
  strategy: {
    validate: (obj, ctx) => validateEventCreate(eventToCore(obj), 'strict', ctx.brand),
    validateUpdate: (obj, old, ctx) => validateEventUpdate(eventToCore(obj), eventToCore(old), 'strict', ctx.brand),
  },
  // Upstream maps these events/v1 labels onto the core selectable fields.
  fieldSelectors: {
    'regarding.kind': text('regarding.kind'),
    'regarding.namespace': text('regarding.namespace'),
    'regarding.name': text('regarding.name'),
    'regarding.uid': text('regarding.uid'),
    'regarding.apiVersion': text('regarding.apiVersion'),
    'regarding.resourceVersion': text('regarding.resourceVersion'),
    'regarding.fieldPath': text('regarding.fieldPath'),
    reason: text('reason'),
    reportingController: text('reportingController'),
    source: sourceField,
    type: text('type'),
  },
});
