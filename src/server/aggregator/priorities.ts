/**
 * The discovery order of the built-in group versions: kube-apiserver's apiVersionPriorities
 * (cmd/kube-apiserver/app/aggregator.go), by group stem so either brand finds its own names.
 * A served group version missing here gets no APIService, as upstream skips it ("it could
 * result in a CRD group version being permanently stuck in the APIServices list").
 */
import type { Brand } from '../../machinery/brand.js';

export interface APIServicePriority {
  groupPriorityMinimum: number;
  versionPriority: number;
}

/** [group stem, branded, version, groupPriorityMinimum, versionPriority] */
const TABLE: readonly [string, boolean, string, number, number][] = [
  ['', false, 'v1', 18000, 1],
  // extensions is above the rest for CLI compatibility (upstream's list while it served it).
  ['extensions', false, 'v1beta1', 17900, 1],
  ['apps', false, 'v1', 17800, 15],
  ['events', true, 'v1', 17750, 15],
  ['events', true, 'v1beta1', 17750, 5],
  ['authentication', true, 'v1', 17700, 15],
  ['authentication', true, 'v1beta1', 17700, 9],
  ['authentication', true, 'v1alpha1', 17700, 1],
  ['authorization', true, 'v1', 17600, 15],
  ['authorization', true, 'v1beta1', 17600, 9],
  ['autoscaling', false, 'v1', 17500, 15],
  ['autoscaling', false, 'v2', 17500, 30],
  ['autoscaling', false, 'v2beta1', 17500, 9],
  ['autoscaling', false, 'v2beta2', 17500, 1],
  ['batch', false, 'v1', 17400, 15],
  ['batch', false, 'v1beta1', 17400, 9],
  ['batch', false, 'v2alpha1', 17400, 9],
  ['certificates', true, 'v1', 17300, 15],
  ['certificates', true, 'v1beta1', 17300, 9],
  ['networking', true, 'v1', 17200, 15],
  ['networking', true, 'v1beta1', 17200, 9],
  ['networking', true, 'v1alpha1', 17200, 1],
  ['policy', false, 'v1', 17100, 15],
  ['policy', false, 'v1beta1', 17100, 9],
  ['rbac.authorization', true, 'v1', 17000, 15],
  ['rbac.authorization', true, 'v1beta1', 17000, 12],
  ['rbac.authorization', true, 'v1alpha1', 17000, 9],
  ['storage', true, 'v1', 16800, 15],
  ['storage', true, 'v1beta1', 16800, 9],
  ['storage', true, 'v1alpha1', 16800, 1],
  ['apiextensions', true, 'v1', 16700, 15],
  ['apiextensions', true, 'v1beta1', 16700, 9],
  ['admissionregistration', true, 'v1', 16700, 15],
  ['admissionregistration', true, 'v1beta1', 16700, 12],
  ['admissionregistration', true, 'v1alpha1', 16700, 9],
  ['scheduling', true, 'v1', 16600, 15],
  ['scheduling', true, 'v1beta1', 16600, 12],
  ['scheduling', true, 'v1alpha1', 16600, 9],
  ['coordination', true, 'v1', 16500, 15],
  ['coordination', true, 'v1beta1', 16500, 9],
  ['node', true, 'v1', 16300, 15],
  ['node', true, 'v1beta1', 16300, 9],
  ['node', true, 'v1alpha1', 16300, 1],
  ['discovery', true, 'v1', 16200, 15],
  ['discovery', true, 'v1beta1', 16200, 12],
  ['flowcontrol.apiserver', true, 'v1beta3', 16100, 18],
  ['flowcontrol.apiserver', true, 'v1beta2', 16100, 15],
  ['flowcontrol.apiserver', true, 'v1beta1', 16100, 12],
  ['flowcontrol.apiserver', true, 'v1alpha1', 16100, 9],
  ['internal.apiserver', true, 'v1alpha1', 16000, 9],
  ['resource', true, 'v1alpha1', 15900, 9],
];

/** Upstream's priorities of a CRD's group versions: below every built-in group ("CRDs should have relatively low priority"). */
export const CRD_PRIORITY: APIServicePriority = { groupPriorityMinimum: 1000, versionPriority: 100 };

/** The brand's built-in priorities by `<group>/<version>` (core: `/v1`). */
export function builtinPriorities(brand: Brand): ReadonlyMap<string, APIServicePriority> {
  return new Map(TABLE.map(([stem, branded, version, g, v]) => [`${brand.group(stem, branded)}/${version}`, { groupPriorityMinimum: g, versionPriority: v }]));
}
