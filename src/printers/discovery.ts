/** Printers of the discovery group, keyed by kind. */
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { DISCOVERY_V1BETA1 } from './descriptions.js';
import { listAt, strAt, valueAt } from '../machinery/fields.js';
import { ageOf, listWithMore, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

const MAX_SHOWN = 3;

/** Up to three items, then "+ N more..." of the rest; "<unset>" for none. */
function firstOf(items: readonly string[]): string {
  return listWithMore(items.slice(0, MAX_SHOWN), items.length > MAX_SHOWN, items.length, MAX_SHOWN);
}

/** formatDiscoveryPorts: each port's number, else its name, else "*". */
function ports(slice: unknown): string {
  return firstOf(
    listAt(slice, 'ports').map((p) => {
      const port = valueAt(p, 'port');
      if (typeof port === 'number') return String(port);
      const name = valueAt(p, 'name');
      return typeof name === 'string' ? name : '*';
    }),
  );
}

/** formatDiscoveryEndpoints: every address of every endpoint. */
function endpoints(slice: unknown): string {
  return firstOf(listAt(slice, 'endpoints').flatMap((e) => listAt(e, 'addresses').map(String)));
}

const endpointSlicePrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('AddressType', 'string', DISCOVERY_V1BETA1['EndpointSlice.addressType']),
    column('Ports', 'string', DISCOVERY_V1BETA1['EndpointSlice.ports']),
    column('Endpoints', 'string', DISCOVERY_V1BETA1['EndpointSlice.endpoints']),
    AGE_COLUMN,
  ],
  rows: (obj, now) => [[nameOf(obj), strAt(obj, 'addressType'), ports(obj), endpoints(obj), ageOf(obj, now)]],
};

/** The discovery group's printers by kind. */
export function discoveryPrinters(): Record<string, TablePrinter> {
  return { EndpointSlice: endpointSlicePrinter };
}
