/**
 * Printers of the policy group, keyed by kind. PodSecurityPolicy, which 1.25 no longer serves,
 * prints as the last release that did (1.24).
 */
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { POLICY_V1BETA1 } from './descriptions.js';
import { boolAt, isSetAt, listAt, numAt, strAt, valueAt } from '../machinery/fields.js';
import { ageOf, intOrStringText, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

/** An IntOrString field's text, "N/A" when absent. */
function intOrStringOrNA(obj: Obj, path: string): string {
  return isSetAt(obj, path) ? intOrStringText(valueAt(obj, path)) : 'N/A';
}

const podDisruptionBudgetPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    AGE_COLUMN,
  ],
  rows: (obj, now) => [
    [
      nameOf(obj),
      intOrStringOrNA(obj, 'spec.minAvailable'),
      intOrStringOrNA(obj, 'spec.maxUnavailable'),
      numAt(obj, 'status.disruptionsAllowed'),
      ageOf(obj, now),
    ],
  ],
};

const podSecurityPolicyPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Priv', 'string', POLICY_V1BETA1['PodSecurityPolicySpec.privileged']),
    column('Caps', 'string', POLICY_V1BETA1['PodSecurityPolicySpec.allowedCapabilities']),
    column('SELinux', 'string', POLICY_V1BETA1['PodSecurityPolicySpec.seLinux']),
    column('RunAsUser', 'string', POLICY_V1BETA1['PodSecurityPolicySpec.runAsUser']),
    column('FsGroup', 'string', POLICY_V1BETA1['PodSecurityPolicySpec.fsGroup']),
    column('SupGroup', 'string', POLICY_V1BETA1['PodSecurityPolicySpec.supplementalGroups']),
    column('ReadOnlyRootFs', 'string', POLICY_V1BETA1['PodSecurityPolicySpec.readOnlyRootFilesystem']),
    column('Volumes', 'string', POLICY_V1BETA1['PodSecurityPolicySpec.volumes']),
  ],
  rows: (obj) => [
    [
      nameOf(obj),
      String(boolAt(obj, 'spec.privileged')),
      listAt(obj, 'spec.allowedCapabilities').map(String).join(','),
      strAt(obj, 'spec.seLinux.rule'),
      strAt(obj, 'spec.runAsUser.rule'),
      strAt(obj, 'spec.fsGroup.rule'),
      strAt(obj, 'spec.supplementalGroups.rule'),
      boolAt(obj, 'spec.readOnlyRootFilesystem'),
      listAt(obj, 'spec.volumes').map(String).join(','),
    ],
  ],
};

/** The policy group's printers by kind. */
export function policyPrinters(): Record<string, TablePrinter> {
  return { PodDisruptionBudget: podDisruptionBudgetPrinter, PodSecurityPolicy: podSecurityPolicyPrinter };
}
