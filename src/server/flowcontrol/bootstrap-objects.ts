/**
 * Upstream's APF bootstrap configuration (k8s.io/apiserver flowcontrol/bootstrap default.go of the
 * served release, in its v1beta2 shape): the mandatory `exempt` and `catch-all` objects that keep
 * the system working whatever operators do, and the suggested ones for an initial behaviour.
 * Names of the brand's own components, its system namespace and its coordination group come from
 * the Brand; every object carries the autoupdate annotation set to "true", as upstream's do.
 */
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { componentNames } from '../../api/rbac/bootstrap-objects.js';

/** `apf.kubernetes.io/autoupdate-spec` (orch: `apf.orch.io/autoupdate-spec`): whether the server keeps the spec as it suggests. */
export function autoUpdateAnnotation(brand: Brand): string {
  return `apf.${brand.labelDomain}/autoupdate-spec`;
}

/** The names upstream's API reserves (flowcontrol/v1beta2 constants). */
export const EXEMPT = 'exempt';
export const CATCH_ALL = 'catch-all';

const ALL = '*';

export interface BootstrapConfiguration {
  mandatoryPriorityLevels: Obj[];
  mandatoryFlowSchemas: Obj[];
  suggestedPriorityLevels: Obj[];
  suggestedFlowSchemas: Obj[];
}

type Subject = Record<string, unknown>;
type Rule = Record<string, unknown>;

function users(...names: string[]): Subject[] {
  return names.map((name) => ({ kind: 'User', user: { name } }));
}

function groups(...names: string[]): Subject[] {
  return names.map((name) => ({ kind: 'Group', group: { name } }));
}

function resourceRule(verbs: string[], apiGroups: string[], resources: string[], namespaces: string[], clusterScope: boolean): Rule {
  // Upstream's serialization leaves out a false clusterScope and empty namespaces (omitempty).
  return { verbs, apiGroups, resources, ...(clusterScope ? { clusterScope } : {}), ...(namespaces.length ? { namespaces } : {}) };
}

const EVERYTHING = {
  resourceRules: [resourceRule([ALL], [ALL], [ALL], [ALL], true)],
  nonResourceRules: [{ verbs: [ALL], nonResourceURLs: [ALL] }],
};

/** Upstream's bootstrap objects under the brand's names. */
export function bootstrapConfiguration(brand: Brand): BootstrapConfiguration {
  const annotations = { [autoUpdateAnnotation(brand)]: 'true' };
  const pl = (name: string, spec: Record<string, unknown>): Obj => ({ metadata: { name, annotations: { ...annotations } }, spec });
  const limited = (shares: number, queues: number, handSize: number, queueLengthLimit: number) => ({
    type: 'Limited',
    limited: { assuredConcurrencyShares: shares, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit } } },
  });
  const fs = (name: string, level: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | '', ...rules: Rule[]): Obj => ({
    metadata: { name, annotations: { ...annotations } },
    spec: {
      priorityLevelConfiguration: { name: level },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules,
    },
  });
  const systemServiceAccounts = (...names: string[]): Subject[] =>
    names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: brand.systemNamespace, name } }));
  const components = componentNames(brand);
  const coordination = brand.group('coordination', true);
  const leaseRule = resourceRule(['get', 'create', 'update'], [coordination], ['leases'], [ALL], false);

  return {
    mandatoryPriorityLevels: [
      pl(CATCH_ALL, { type: 'Limited', limited: { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } } }),
      pl(EXEMPT, { type: 'Exempt' }),
    ],
    mandatoryFlowSchemas: [
      // Sysadmins are always served, to prevent priority inversion.
      fs(EXEMPT, EXEMPT, 1, '', { subjects: groups('system:masters'), ...EVERYTHING }),
      // Reached only when the suggested global-default is gone: a minimal share, rejecting past it.
      fs(CATCH_ALL, CATCH_ALL, 10000, 'ByUser', { subjects: groups('system:unauthenticated', 'system:authenticated'), ...EVERYTHING }),
    ],
    suggestedPriorityLevels: [
      pl('system', limited(30, 64, 6, 50)),
      pl('node-high', limited(40, 64, 6, 50)),
      pl('leader-election', limited(10, 16, 4, 50)),
      pl('workload-high', limited(40, 128, 6, 50)),
      pl('workload-low', limited(100, 128, 6, 50)),
      pl('global-default', limited(20, 128, 6, 50)),
    ],
    suggestedFlowSchemas: [
      fs('system-nodes', 'system', 500, 'ByUser', { subjects: groups('system:nodes'), ...EVERYTHING }),
      fs('system-node-high', 'node-high', 400, 'ByUser', {
        subjects: groups('system:nodes'),
        resourceRules: [resourceRule([ALL], [''], ['nodes', 'nodes/status'], [ALL], true), resourceRule([ALL], [coordination], ['leases'], [ALL], false)],
      }),
      fs('probes', EXEMPT, 2, '', {
        subjects: groups('system:unauthenticated', 'system:authenticated'),
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
      }),
      fs('system-leader-election', 'leader-election', 100, 'ByUser', {
        subjects: [...users(components.controllerManagerUser, components.schedulerUser), ...systemServiceAccounts(ALL)],
        resourceRules: [leaseRule],
      }),
      // Ahead of workload-leader-election, so the endpoints controllers' writes are not taken for leader election.
      fs('endpoint-controller', 'workload-high', 150, 'ByUser', {
        subjects: [...users(components.controllerManagerUser), ...systemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller')],
        resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints'], [ALL], false)],
      }),
      fs('workload-leader-election', 'leader-election', 200, 'ByUser', {
        subjects: systemServiceAccounts(ALL),
        resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], [ALL], false), leaseRule],
      }),
      fs('kube-controller-manager', 'workload-high', 800, 'ByNamespace', { subjects: users(components.controllerManagerUser), ...EVERYTHING }),
      fs('kube-scheduler', 'workload-high', 800, 'ByNamespace', { subjects: users(components.schedulerUser), ...EVERYTHING }),
      fs(`${brand.word}-system-service-accounts`, 'workload-high', 900, 'ByNamespace', { subjects: systemServiceAccounts(ALL), ...EVERYTHING }),
      fs('service-accounts', 'workload-low', 9000, 'ByUser', { subjects: groups('system:serviceaccounts'), ...EVERYTHING }),
      fs('global-default', 'global-default', 9900, 'ByUser', { subjects: groups('system:unauthenticated', 'system:authenticated'), ...EVERYTHING }),
    ],
  };
}
