/** Printers of the apps group, keyed by kind. */
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column, containerColumns } from './columns.js';
import { APPS_V1, CORE_V1, EXTENSIONS_V1BETA1 } from './descriptions.js';
import { listAt, numAt, strAt, valueAt } from '../machinery/fields.js';
import { ageOf, containerCells, formatLabelSelector, formatLabelsAt, labelSelectorString, nameOf } from './format.js';
import type { TablePrinter } from './types.js';
import { READY_OF_DESIRED_COLUMN, readyOfDesired, replicaCountCells, replicaCountColumns, templateCells, templateColumns } from './workloads.js';

const replicaSetPrinter: TablePrinter = {
  columns: [NAME_COLUMN, ...replicaCountColumns(EXTENSIONS_V1BETA1, 'ReplicaSet'), ...templateColumns(EXTENSIONS_V1BETA1['ReplicaSetSpec.selector'])],
  rows: (obj, now) => [
    [nameOf(obj), ...replicaCountCells(obj), ...templateCells(obj, now, 'spec.template', formatLabelSelector(valueAt(obj, 'spec.selector')))],
  ],
};

const daemonSetPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', EXTENSIONS_V1BETA1['DaemonSetStatus.desiredNumberScheduled']),
    column('Current', 'integer', EXTENSIONS_V1BETA1['DaemonSetStatus.currentNumberScheduled']),
    column('Ready', 'integer', EXTENSIONS_V1BETA1['DaemonSetStatus.numberReady']),
    column('Up-to-date', 'integer', EXTENSIONS_V1BETA1['DaemonSetStatus.updatedNumberScheduled']),
    column('Available', 'integer', EXTENSIONS_V1BETA1['DaemonSetStatus.numberAvailable']),
    column('Node Selector', 'string', CORE_V1['PodSpec.nodeSelector']),
    ...templateColumns(EXTENSIONS_V1BETA1['DaemonSetSpec.selector']),
  ],
  rows: (obj, now) => [
    [
      nameOf(obj),
      numAt(obj, 'status.desiredNumberScheduled'),
      numAt(obj, 'status.currentNumberScheduled'),
      numAt(obj, 'status.numberReady'),
      numAt(obj, 'status.updatedNumberScheduled'),
      numAt(obj, 'status.numberAvailable'),
      formatLabelsAt(obj, 'spec.template.spec.nodeSelector'),
      ...templateCells(obj, now, 'spec.template', formatLabelSelector(valueAt(obj, 'spec.selector'))),
    ],
  ],
};

const deploymentPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    READY_OF_DESIRED_COLUMN,
    column('Up-to-date', 'string', EXTENSIONS_V1BETA1['DeploymentStatus.updatedReplicas']),
    column('Available', 'string', EXTENSIONS_V1BETA1['DeploymentStatus.availableReplicas']),
    ...templateColumns(EXTENSIONS_V1BETA1['DeploymentSpec.selector']),
  ],
  rows: (obj, now) => [
    [
      nameOf(obj),
      readyOfDesired(obj),
      numAt(obj, 'status.updatedReplicas'),
      numAt(obj, 'status.availableReplicas'),
      // Unlike the other workloads, a deployment prints its selector's text as is ("" when empty).
      ...templateCells(obj, now, 'spec.template', labelSelectorString(valueAt(obj, 'spec.selector')) ?? '<invalid>'),
    ],
  ],
};

const statefulSetPrinter: TablePrinter = {
  columns: [NAME_COLUMN, READY_OF_DESIRED_COLUMN, AGE_COLUMN, ...containerColumns(1)],
  rows: (obj, now) => [[nameOf(obj), readyOfDesired(obj), ageOf(obj, now), ...containerCells(obj, 'spec.template')]],
};

/** formatResourceName of the controller owner: "kind.group/name" lower-cased, "<none>" without one. */
function controllerName(obj: Obj): string {
  const ref = listAt(obj, 'metadata.ownerReferences').find((r) => valueAt(r, 'controller') === true);
  if (ref === undefined) return '<none>';
  const apiVersion = strAt(ref, 'apiVersion');
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = strAt(ref, 'kind');
  if (kind === '' && group === '') return strAt(ref, 'name');
  return `${(group === '' ? kind : `${kind}.${group}`).toLowerCase()}/${strAt(ref, 'name')}`;
}

const controllerRevisionPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller of the object'),
    column('Revision', 'string', APPS_V1['ControllerRevision.revision']),
    AGE_COLUMN,
  ],
  rows: (obj, now) => [[nameOf(obj), controllerName(obj), numAt(obj, 'revision'), ageOf(obj, now)]],
};

/** The apps group's printers by kind. */
export function appsPrinters(): Record<string, TablePrinter> {
  return {
    ReplicaSet: replicaSetPrinter,
    DaemonSet: daemonSetPrinter,
    Deployment: deploymentPrinter,
    StatefulSet: statefulSetPrinter,
    ControllerRevision: controllerRevisionPrinter,
  };
}
