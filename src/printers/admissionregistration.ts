/** Printers of the admissionregistration group, keyed by kind. */
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { listAt } from '../machinery/fields.js';
import { ageOf, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

const webhookConfigurationPrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration'), AGE_COLUMN],
  rows: (obj, now) => [[nameOf(obj), listAt(obj, 'webhooks').length, ageOf(obj, now)]],
};

/** The admissionregistration group's printers by kind. */
export function admissionregistrationPrinters(): Record<string, TablePrinter> {
  return { MutatingWebhookConfiguration: webhookConfigurationPrinter, ValidatingWebhookConfiguration: webhookConfigurationPrinter };
}
