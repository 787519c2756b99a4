/** Printers of the rbac.authorization group (roles and cluster roles use the default table). */
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column, wide } from './columns.js';
import { RBAC_V1BETA1 } from './descriptions.js';
import { listAt, strAt } from '../machinery/fields.js';
import { ageOf, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

/** rbac.SubjectsStrings: users, groups and "namespace/name" service accounts, in subject order. */
function subjects(binding: Obj): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const s of listAt(binding, 'subjects')) {
    const kind = strAt(s, 'kind');
    if (kind === 'ServiceAccount') serviceAccounts.push(`${strAt(s, 'namespace')}/${strAt(s, 'name')}`);
    else if (kind === 'User') users.push(strAt(s, 'name'));
    else if (kind === 'Group') groups.push(strAt(s, 'name'));
  }
  return [users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
}

function bindingPrinter(roleRefDoc: string, noun: string): TablePrinter {
  return {
    columns: [
      NAME_COLUMN,
      column('Role', 'string', roleRefDoc),
      AGE_COLUMN,
      wide('Users', 'string', `Users in the ${noun}`),
      wide('Groups', 'string', `Groups in the ${noun}`),
      wide('ServiceAccounts', 'string', `ServiceAccounts in the ${noun}`),
    ],
    rows: (obj, now) => [[nameOf(obj), `${strAt(obj, 'roleRef.kind')}/${strAt(obj, 'roleRef.name')}`, ageOf(obj, now), ...subjects(obj)]],
  };
}

/** The rbac.authorization group's printers by kind. */
export function rbacPrinters(): Record<string, TablePrinter> {
  return {
    RoleBinding: bindingPrinter(RBAC_V1BETA1['RoleBinding.roleRef'], 'roleBinding'),
    ClusterRoleBinding: bindingPrinter(RBAC_V1BETA1['ClusterRoleBinding.roleRef'], 'clusterRoleBinding'),
  };
}
