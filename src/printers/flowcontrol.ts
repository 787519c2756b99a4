/** Printers of the flowcontrol.apiserver group (v1beta2, as 1.25 serves it), keyed by kind. */
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { FLOWCONTROL_V1BETA2 } from './descriptions.js';
import { isSetAt, listAt, numAt, strAt } from '../machinery/fields.js';
import { ageOf, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

/** Status of the Dangling condition ("True" when the priority level is missing), "?" without one. */
function missingPriorityLevel(fs: Obj): string {
  const dangling = listAt(fs, 'status.conditions').find((c) => strAt(c, 'type') === 'Dangling');
  return dangling === undefined ? '?' : strAt(dangling, 'status');
}

/** FlowSchemaSequence order: matching precedence, then name. */
function byPrecedence(a: Obj, b: Obj): number {
  const pa = numAt(a, 'spec.matchingPrecedence');
  const pb = numAt(b, 'spec.matchingPrecedence');
  if (pa !== pb) return pa - pb;
  const na = nameOf(a);
  const nb = nameOf(b);
  return na < nb ? -1 : na > nb ? 1 : 0;
}

const flowSchemaPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('PriorityLevel', 'string', FLOWCONTROL_V1BETA2['PriorityLevelConfigurationReference.name']),
    column('MatchingPrecedence', 'string', FLOWCONTROL_V1BETA2['FlowSchemaSpec.matchingPrecedence']),
    column('DistinguisherMethod', 'string', FLOWCONTROL_V1BETA2['FlowSchemaSpec.distinguisherMethod']),
    AGE_COLUMN,
    column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  rows: (fs, now) => [
    [
      nameOf(fs),
      strAt(fs, 'spec.priorityLevelConfiguration.name'),
      numAt(fs, 'spec.matchingPrecedence'),
      isSetAt(fs, 'spec.distinguisherMethod') ? strAt(fs, 'spec.distinguisherMethod.type') : '<none>',
      ageOf(fs, now),
      missingPriorityLevel(fs),
    ],
  ],
  sortList: (objects) => [...objects].sort(byPrecedence),
};

/** A queuing setting, "<none>" unless the level is limited and queues. */
function queuing(plc: Obj, field: string): unknown {
  return isSetAt(plc, 'spec.limited.limitResponse.queuing') ? numAt(plc, `spec.limited.limitResponse.queuing.${field}`) : '<none>';
}

const priorityLevelConfigurationPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', FLOWCONTROL_V1BETA2['PriorityLevelConfigurationSpec.type']),
    column('AssuredConcurrencyShares', 'string', FLOWCONTROL_V1BETA2['LimitedPriorityLevelConfiguration.assuredConcurrencyShares']),
    column('Queues', 'string', FLOWCONTROL_V1BETA2['QueuingConfiguration.queues']),
    column('HandSize', 'string', FLOWCONTROL_V1BETA2['QueuingConfiguration.handSize']),
    column('QueueLengthLimit', 'string', FLOWCONTROL_V1BETA2['QueuingConfiguration.queueLengthLimit']),
    AGE_COLUMN,
  ],
  rows: (plc, now) => [
    [
      nameOf(plc),
      strAt(plc, 'spec.type'),
      isSetAt(plc, 'spec.limited') ? numAt(plc, 'spec.limited.assuredConcurrencyShares') : '<none>',
      queuing(plc, 'queues'),
      queuing(plc, 'handSize'),
      queuing(plc, 'queueLengthLimit'),
      ageOf(plc, now),
    ],
  ],
};

/** The flowcontrol.apiserver group's printers by kind. */
export function flowcontrolPrinters(): Record<string, TablePrinter> {
  return { FlowSchema: flowSchemaPrinter, PriorityLevelConfiguration: priorityLevelConfigurationPrinter };
}
