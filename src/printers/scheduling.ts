/** Printers of the scheduling group, keyed by kind. */
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { SCHEDULING_V1 } from './descriptions.js';
import { boolAt, numAt } from '../machinery/fields.js';
import { ageOf, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

const priorityClassPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Value', 'integer', SCHEDULING_V1['PriorityClass.value']),
    column('Global-Default', 'boolean', SCHEDULING_V1['PriorityClass.globalDefault']),
    AGE_COLUMN,
  ],
  rows: (obj, now) => [[nameOf(obj), numAt(obj, 'value'), boolAt(obj, 'globalDefault'), ageOf(obj, now)]],
};

/** The scheduling group's printers by kind. */
export function schedulingPrinters(): Record<string, TablePrinter> {
  return { PriorityClass: priorityClassPrinter };
}
