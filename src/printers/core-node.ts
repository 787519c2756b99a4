/** Nodes, as upstream's printNode: Ready condition, scheduling, roles from well-known labels. */
import type { Brand } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column, wide } from './columns.js';
import { CORE_V1 } from './descriptions.js';
import { boolAt, listAt, strAt, stringMapAt } from '../machinery/fields.js';
import { ageOf, nameOf, sortedSet } from './format.js';
import type { TablePrinter } from './types.js';

/** "Ready" / "NotReady" from the last Ready condition, "Unknown" without one; then SchedulingDisabled. */
function nodeStatus(node: Obj): string {
  let ready: unknown;
  for (const cond of listAt(node, 'status.conditions')) if (strAt(cond, 'type') === 'Ready') ready = cond;
  const status = [ready === undefined ? 'Unknown' : strAt(ready, 'status') === 'True' ? 'Ready' : 'NotReady'];
  if (boolAt(node, 'spec.unschedulable')) status.push('SchedulingDisabled');
  return status.join(',');
}

/**
 * findNodeRoles: the <role> of every `node-role.<domain>/<role>` label and the value of a
 * `<domain>/role` label, sorted and unique.
 */
export function nodeRoles(node: Obj, brand: Brand): string[] {
  const rolePrefix = `node-role.${brand.labelDomain}/`;
  const roleLabel = `${brand.labelDomain}/role`;
  const roles: string[] = [];
  for (const [k, v] of Object.entries(stringMapAt(node, 'metadata.labels'))) {
    if (k.startsWith(rolePrefix)) {
      const role = k.slice(rolePrefix.length);
      if (role !== '') roles.push(role);
    } else if (k === roleLabel && v !== '') {
      roles.push(v);
    }
  }
  return sortedSet(roles);
}

/** The first address of a type, "<none>" without one. */
function nodeAddress(node: Obj, type: string): string {
  const address = listAt(node, 'status.addresses').find((a) => strAt(a, 'type') === type);
  return address === undefined ? '<none>' : strAt(address, 'address');
}

export function nodePrinter(brand: Brand): TablePrinter {
  return {
    columns: [
      NAME_COLUMN,
      column('Status', 'string', 'The status of the node'),
      column('Roles', 'string', 'The roles of the node'),
      AGE_COLUMN,
      column('Version', 'string', CORE_V1['NodeSystemInfo.kubeletVersion']),
      wide('Internal-IP', 'string', CORE_V1['NodeStatus.addresses']),
      wide('External-IP', 'string', CORE_V1['NodeStatus.addresses']),
      wide('OS-Image', 'string', CORE_V1['NodeSystemInfo.osImage']),
      wide('Kernel-Version', 'string', CORE_V1['NodeSystemInfo.kernelVersion']),
      wide('Container-Runtime', 'string', CORE_V1['NodeSystemInfo.containerRuntimeVersion']),
    ],
    rows: (node, now) => [
      [
        nameOf(node),
        nodeStatus(node),
        nodeRoles(node, brand).join(',') || '<none>',
        ageOf(node, now),
        strAt(node, 'status.nodeInfo.kubeletVersion'),
        nodeAddress(node, 'InternalIP'),
        nodeAddress(node, 'ExternalIP'),
        strAt(node, 'status.nodeInfo.osImage') || '<unknown>',
        strAt(node, 'status.nodeInfo.kernelVersion') || '<unknown>',
        strAt(node, 'status.nodeInfo.containerRuntimeVersion') || '<unknown>',
      ],
    ],
  };
}
