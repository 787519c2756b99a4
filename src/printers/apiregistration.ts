/**
 * Printers of the apiregistration group: APIService as the aggregator's own table convertor
 * (kube-aggregator's apiservice REST storage) prints it.
 */
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { isSetAt, listAt, strAt } from '../machinery/fields.js';
import { ageOf, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

/** The Available condition's status, with its reason when not True; "Unknown" without one. */
function available(obj: Obj): string {
  const condition = listAt(obj, 'status.conditions').find((c) => strAt(c, 'type') === 'Available');
  if (condition === undefined) return 'Unknown';
  const status = strAt(condition, 'status');
  const reason = strAt(condition, 'reason');
  return status !== 'True' && reason !== '' ? `${status} (${reason})` : status;
}

const apiServicePrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    AGE_COLUMN,
  ],
  rows: (obj, now) => [
    [
      nameOf(obj),
      isSetAt(obj, 'spec.service') ? `${strAt(obj, 'spec.service.namespace')}/${strAt(obj, 'spec.service.name')}` : 'Local',
      available(obj),
      ageOf(obj, now),
    ],
  ],
};

/** The apiregistration group's printers by kind. */
export function apiregistrationPrinters(): Record<string, TablePrinter> {
  return { APIService: apiServicePrinter };
}
