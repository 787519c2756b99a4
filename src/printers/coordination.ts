/** Printers of the coordination group, keyed by kind. */
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { COORDINATION_V1 } from './descriptions.js';
import { strAt } from '../machinery/fields.js';
import { ageOf, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

const leasePrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Holder', 'string', COORDINATION_V1['LeaseSpec.holderIdentity']), AGE_COLUMN],
  rows: (obj, now) => [[nameOf(obj), strAt(obj, 'spec.holderIdentity'), ageOf(obj, now)]],
};

/** The coordination group's printers by kind. */
export function coordinationPrinters(): Record<string, TablePrinter> {
  return { Lease: leasePrinter };
}
