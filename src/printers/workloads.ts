/**
 * What upstream's workload printers (ReplicaSet, ReplicationController, DaemonSet, Deployment,
 * StatefulSet, Job, CronJob) share: replica counts, and Age followed by the pod template's wide
 * Containers and Images and the wide Selector. Each pair is a column list and its cells.
 */
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, column, containerColumns, wide } from './columns.js';
import { numAt } from '../machinery/fields.js';
import { ageOf, containerCells } from './format.js';
import type { TableColumnDefinition } from './types.js';

/** Desired, Current and Ready of a replicated type, documented as `<type>Spec.replicas` and its status counts. */
export function replicaCountColumns(docs: Readonly<Record<string, string>>, type: string): TableColumnDefinition[] {
  const doc = (field: string): string => {
    const text = docs[`${type}${field}`];
    if (text === undefined) throw new Error(`no description of ${type}${field}`);
    return text;
  };
  return [
    column('Desired', 'integer', doc('Spec.replicas')),
    column('Current', 'integer', doc('Status.replicas')),
    column('Ready', 'integer', doc('Status.readyReplicas')),
  ];
}

/** The cells of replicaCountColumns. */
export function replicaCountCells(obj: Obj): number[] {
  return [numAt(obj, 'spec.replicas'), numAt(obj, 'status.replicas'), numAt(obj, 'status.readyReplicas')];
}

/** Deployment's and StatefulSet's Ready: ready replicas of desired, as one text. */
export const READY_OF_DESIRED_COLUMN: TableColumnDefinition = column('Ready', 'string', 'Number of the pod with ready state');

/** The cell of READY_OF_DESIRED_COLUMN ("2/3"). */
export function readyOfDesired(obj: Obj): string {
  return `${numAt(obj, 'status.readyReplicas')}/${numAt(obj, 'spec.replicas')}`;
}

/** Age, then the wide Containers and Images of the pod template and the wide Selector (documented by selectorDoc). */
export function templateColumns(selectorDoc: string): TableColumnDefinition[] {
  return [AGE_COLUMN, ...containerColumns(1), wide('Selector', 'string', selectorDoc)];
}

/** The cells of templateColumns: the template at templatePath, and the selector as the kind's printer writes it. */
export function templateCells(obj: Obj, now: Date, templatePath: string, selector: string): unknown[] {
  return [ageOf(obj, now), ...containerCells(obj, templatePath), selector];
}
