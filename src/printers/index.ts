/**
 * Which printer a resource's Table uses: its group's printer for the kind, else upstream's
 * default table (name and creation time). Group printers are built once per brand.
 */
import type { Brand } from '../machinery/brand.js';
import { admissionregistrationPrinters } from './admissionregistration.js';
import { apiregistrationPrinters } from './apiregistration.js';
import { appsPrinters } from './apps.js';
import { autoscalingPrinters } from './autoscaling.js';
import { batchPrinters } from './batch.js';
import { certificatesPrinters } from './certificates.js';
import { coordinationPrinters } from './coordination.js';
import { corePrinters } from './core.js';
import { DEFAULT_PRINTER } from './default.js';
import { discoveryPrinters } from './discovery.js';
import { eventsPrinters } from './events.js';
import { flowcontrolPrinters } from './flowcontrol.js';
import { extensionsPrinters, networkingPrinters } from './networking.js';
import { nodePrinters } from './node.js';
import { policyPrinters } from './policy.js';
import { rbacPrinters } from './rbac.js';
import { schedulingPrinters } from './scheduling.js';
import { storagePrinters } from './storage.js';
import type { TablePrinter } from './types.js';

export { DEFAULT_PRINTER } from './default.js';
export { customColumnsPrinter, type CustomColumn } from './custom-columns.js';
export { humanDuration, translateTimestampSince } from './duration.js';
export { buildTable, tableHead, tableRows, toPartialObjectMetadata, type IncludeObject, type TableOptions } from './table.js';
export type { TableColumnDefinition, TablePrinter, TableRowCondition } from './types.js';

/** Printers by group stem, then kind. */
type Registry = ReadonlyMap<string, Readonly<Record<string, TablePrinter>>>;

function buildRegistry(brand: Brand): Registry {
  return new Map<string, Record<string, TablePrinter>>([
    ['', corePrinters(brand)],
    ['admissionregistration', admissionregistrationPrinters()],
    ['apiregistration', apiregistrationPrinters()],
    ['apps', appsPrinters()],
    ['autoscaling', autoscalingPrinters(brand)],
    ['batch', batchPrinters()],
    ['certificates', certificatesPrinters()],
    ['coordination', coordinationPrinters()],
    ['discovery', discoveryPrinters()],
    ['events', eventsPrinters()],
    ['extensions', extensionsPrinters()],
    ['flowcontrol.apiserver', flowcontrolPrinters()],
    ['networking', networkingPrinters()],
    ['node', nodePrinters()],
    ['policy', policyPrinters()],
    ['rbac.authorization', rbacPrinters()],
    ['scheduling', schedulingPrinters()],
    ['storage', storagePrinters(brand)],
  ]);
}

const registries = new WeakMap<Brand, Registry>();

/** The printer of a kind in a group (by stem: '' core, 'apps', 'rbac.authorization', ...). */
export function printerFor(groupStem: string, kind: string, brand: Brand): TablePrinter {
  let registry = registries.get(brand);
  if (registry === undefined) {
    registry = buildRegistry(brand);
    registries.set(brand, registry);
  }
  const printers = registry.get(groupStem);
  return (printers !== undefined && Object.hasOwn(printers, kind) ? printers[kind] : undefined) ?? DEFAULT_PRINTER;
}
