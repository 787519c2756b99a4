/** Core v1 Event: owns the `events` storage that events/v1 also serves. Legacy validation only. */
import { core } from '../groups.js';
import { text } from '../define.js';
import type { Obj } from '../../machinery/object.js';
import { validateEventCreate, validateEventUpdate } from './event-validation.js';

const sourceComponent = text('source.component');
const reporting = text('reportingComponent');
/** The `source` field selector: the source component, else the reporting one. */
const sourceField = (obj: Obj) => sourceComponent(obj) || reporting(obj);

export const coreEvents = core({
  kind: 'Event',
  plural: 'events',
  shortNames: ['ev'],
  namespaced: true,
  // Upstream's v1 Event validation never checks the name beyond the generic path-segment rule.
  nameRule: 'path-segment',
  strategy: {
    validate: (obj, ctx) => validateEventCreate(obj, 'legacy', ctx.brand),
    validateUpdate: (obj, old, ctx) => validateEventUpdate(obj, old, 'legacy', ctx.brand),
  },
  fieldSelectors: {
    'involvedObject.kind': text('involvedObject.kind'),
    'involvedObject.namespace': text('involvedObject.namespace'),
    'involvedObject.name': text('involvedObject.name'),
    'involvedObject.uid': text('involvedObject.uid'),
    'involvedObject.apiVersion': text('involvedObject.apiVersion'),
    'involvedObject.resourceVersion': text('involvedObject.resourceVersion'),
    'involvedObject.fieldPath': text('involvedObject.fieldPath'),
    reason: text('reason'),
    reportingComponent: text('reportingComponent'),
    source: sourceField,
    type: text('type'),
  },
});
