/** Printers of the node group, keyed by kind. */
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { strAt } from '../machinery/fields.js';
import { ageOf, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

const runtimeClassPrinter: TablePrinter = {
  // Upstream describes Handler with ObjectMeta's (absent) "handler" doc: an empty description.
  columns: [NAME_COLUMN, column('Handler', 'string', ''), AGE_COLUMN],
  rows: (obj, now) => [[nameOf(obj), strAt(obj, 'handler'), ageOf(obj, now)]],
};

/** The node group's printers by kind. */
export function nodePrinters(): Record<string, TablePrinter> {
  return { RuntimeClass: runtimeClassPrinter };
}
