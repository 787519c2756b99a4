/** Printers of the core group, keyed by kind (kinds without one use the default table). */
import type { Brand } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { compareGoStrings } from '../machinery/validation.js';
import { AGE_COLUMN, NAME_COLUMN, column, containerColumns } from './columns.js';
import { eventPrinter } from './core-event.js';
import { nodePrinter } from './core-node.js';
import { podPrinter } from './core-pod.js';
import { endpointsPrinter, servicePrinter } from './core-service.js';
import { persistentVolumeClaimPrinter, persistentVolumePrinter } from './core-volume.js';
import { CORE_V1 } from './descriptions.js';
import { listAt, recAt, strAt } from '../machinery/fields.js';
import { ageOf, containerCells, formatLabelsAt, nameOf, quantityText } from './format.js';
import type { TablePrinter } from './types.js';
import { replicaCountCells, replicaCountColumns, templateCells, templateColumns } from './workloads.js';

const podTemplatePrinter: TablePrinter = {
  columns: [NAME_COLUMN, ...containerColumns(0), column('Pod Labels', 'string', 'The labels for the pod template.')],
  rows: (obj) => [[nameOf(obj), ...containerCells(obj, 'template'), formatLabelsAt(obj, 'template.metadata.labels')]],
};

const replicationControllerPrinter: TablePrinter = {
  columns: [NAME_COLUMN, ...replicaCountColumns(CORE_V1, 'ReplicationController'), ...templateColumns(CORE_V1['ReplicationControllerSpec.selector'])],
  rows: (obj, now) => [[nameOf(obj), ...replicaCountCells(obj), ...templateCells(obj, now, 'spec.template', formatLabelsAt(obj, 'spec.selector'))]],
};

const namespacePrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
  rows: (obj, now) => [[nameOf(obj), strAt(obj, 'status.phase'), ageOf(obj, now)]],
};

const secretPrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Type', 'string', CORE_V1['Secret.type']), column('Data', 'string', CORE_V1['Secret.data']), AGE_COLUMN],
  rows: (obj, now) => [[nameOf(obj), strAt(obj, 'type'), Object.keys(recAt(obj, 'data')).length, ageOf(obj, now)]],
};

const serviceAccountPrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Secrets', 'string', CORE_V1['ServiceAccount.secrets']), AGE_COLUMN],
  rows: (obj, now) => [[nameOf(obj), listAt(obj, 'secrets').length, ageOf(obj, now)]],
};

const configMapPrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Data', 'string', CORE_V1['ConfigMap.data']), AGE_COLUMN],
  rows: (obj, now) => [[nameOf(obj), Object.keys(recAt(obj, 'data')).length + Object.keys(recAt(obj, 'binaryData')).length, ageOf(obj, now)]],
};

/** Status, message and error of the Healthy condition; "Unknown" without one. */
const componentStatusPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Status of the component conditions'),
    column('Message', 'string', 'Message of the component conditions'),
    column('Error', 'string', 'Error of the component conditions'),
  ],
  rows(obj) {
    const healthy = listAt(obj, 'conditions').find((c) => strAt(c, 'type') === 'Healthy');
    if (healthy === undefined) return [[nameOf(obj), 'Unknown', '', '']];
    return [[nameOf(obj), strAt(healthy, 'status') === 'True' ? 'Healthy' : 'Unhealthy', strAt(healthy, 'message'), strAt(healthy, 'error')]];
  },
};

/** "resource: used/hard" of every hard limit, `limits.*` in the Limit column, the rest in Request. */
function quotaCells(obj: Obj): [string, string] {
  const hard = recAt(obj, 'status.hard');
  const used = recAt(obj, 'status.used');
  const request: string[] = [];
  const limit: string[] = [];
  for (const resource of Object.keys(hard).sort(compareGoStrings)) {
    const pieces = resource.split('.');
    const target = pieces.length > 1 && pieces[0] === 'limits' ? limit : request;
    target.push(`${resource}: ${quantityText(used[resource])}/${quantityText(hard[resource])}`);
  }
  return [request.join(', '), limit.join(', ')];
}

const resourceQuotaPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  rows: (obj, now) => [[nameOf(obj), ageOf(obj, now), ...quotaCells(obj)]],
};

/** The core group's printers by kind. */
export function corePrinters(brand: Brand): Record<string, TablePrinter> {
  return {
    Pod: podPrinter,
    PodTemplate: podTemplatePrinter,
    ReplicationController: replicationControllerPrinter,
    Service: servicePrinter,
    Endpoints: endpointsPrinter,
    Node: nodePrinter(brand),
    Event: eventPrinter(),
    Namespace: namespacePrinter,
    Secret: secretPrinter,
    ServiceAccount: serviceAccountPrinter,
    PersistentVolume: persistentVolumePrinter(brand),
    PersistentVolumeClaim: persistentVolumeClaimPrinter(brand),
    ComponentStatus: componentStatusPrinter,
    ConfigMap: configMapPrinter,
    ResourceQuota: resourceQuotaPrinter,
  };
}
