/**
 * Upstream's default table convertor (apiserver's rest.NewDefaultTableConvertor): the name and
 * the creation time, for every kind without a printer of its own.
 */
import { NAME_COLUMN, column } from './columns.js';
import { META_V1 } from './descriptions.js';
import { timestampMillis } from './duration.js';
import { valueAt } from '../machinery/fields.js';
import { nameOf } from './format.js';
import type { TablePrinter } from './types.js';

/** Go's zero time formatted as RFC 3339, which an object without creationTimestamp prints. */
const ZERO_TIME_TEXT = '0001-01-01T00:00:00Z';

/** creationTimestamp in RFC 3339 UTC, second precision (time.RFC3339 of metav1.Time). */
function createdAt(value: unknown): string {
  const ms = timestampMillis(value);
  return ms === undefined ? ZERO_TIME_TEXT : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

export const DEFAULT_PRINTER: TablePrinter = {
  columns: [NAME_COLUMN, column('Created At', 'date', META_V1['ObjectMeta.creationTimestamp'])],
  rows: (obj) => [[nameOf(obj), createdAt(valueAt(obj, 'metadata.creationTimestamp'))]],
  nullRowsWhenEmpty: true,
};
