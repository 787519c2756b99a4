/**
 * The controller roles of upstream 1.25 (bootstrappolicy/controller_policy.go): one ClusterRole
 * `system:controller:<name>` per controller, each bound to the service account `<name>` in the
 * system namespace (what kube-controller-manager uses with --use-service-account-credentials).
 * Only the roles 1.25 enables by default: feature-gated ones (resource claims, disruption
 * conditions, PVC auto-deletion) are left out as upstream's defaults leave them out.
 */
import type { Brand } from '../../machinery/brand.js';
import type { PolicyRule } from '../../machinery/authorization.js';
import type { Obj } from '../../machinery/object.js';
import { CONTROLLER_ROLE_PREFIX, clusterBinding, role, serviceAccount } from './bootstrap-objects.js';
import { eventsRule, type PolicyGroups, policyGroups, READ, rule } from './policy-rules.js';

/** Every controller's rules, in upstream's order. */
function controllerRules(brand: Brand, g: PolicyGroups): [string, PolicyRule[]][] {
  const events = eventsRule(g);
  const signer = (name: string) => `${brand.labelDomain}/${name}`;
  return [
    [
      'attachdetach-controller',
      [
        rule(['list', 'watch'], [g.core], ['persistentvolumes', 'persistentvolumeclaims']),
        rule(READ, [g.core], ['nodes']),
        rule(['patch', 'update'], [g.core], ['nodes/status']),
        rule(['list', 'watch'], [g.core], ['pods']),
        events,
        rule(['get', 'create', 'delete', 'list', 'watch'], [g.storage], ['volumeattachments']),
        rule(READ, [g.storage], ['csidrivers']),
        rule(READ, [g.storage], ['csinodes']),
      ],
    ],
    // Must be able to write any rules into aggregated roles, hence escalate.
    ['clusterrole-aggregation-controller', [rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [g.rbac], ['clusterroles'])]],
    [
      'cronjob-controller',
      [
        rule(['get', 'list', 'watch', 'update'], [g.batch], ['cronjobs']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], [g.batch], ['jobs']),
        rule(['update'], [g.batch], ['cronjobs/status']),
        rule(['update'], [g.batch], ['cronjobs/finalizers']),
        rule(['list', 'watch', 'delete'], [g.core], ['pods']),
        events,
      ],
    ],
    [
      'daemon-set-controller',
      [
        rule(READ, [g.extensions, g.apps], ['daemonsets']),
        rule(['update'], [g.extensions, g.apps], ['daemonsets/status']),
        rule(['update'], [g.extensions, g.apps], ['daemonsets/finalizers']),
        rule(['list', 'watch'], [g.core], ['nodes']),
        rule(['list', 'watch', 'create', 'delete', 'patch'], [g.core], ['pods']),
        rule(['create'], [g.core], ['pods/binding']),
        rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], [g.apps], ['controllerrevisions']),
        events,
      ],
    ],
    [
      'deployment-controller',
      [
        rule(['get', 'list', 'watch', 'update'], [g.extensions, g.apps], ['deployments']),
        rule(['update'], [g.extensions, g.apps], ['deployments/status']),
        rule(['update'], [g.extensions, g.apps], ['deployments/finalizers']),
        rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], [g.apps, g.extensions], ['replicasets']),
        // update: upstream issue 36897 (pods adopted by label).
        rule(['get', 'list', 'watch', 'update'], [g.core], ['pods']),
        events,
      ],
    ],
    [
      'disruption-controller',
      [
        rule(READ, [g.extensions, g.apps], ['deployments']),
        rule(READ, [g.apps, g.extensions], ['replicasets']),
        rule(READ, [g.core], ['replicationcontrollers']),
        rule(READ, [g.policy], ['poddisruptionbudgets']),
        rule(READ, [g.apps], ['statefulsets']),
        rule(['update'], [g.policy], ['poddisruptionbudgets/status']),
        rule(['get'], ['*'], ['*/scale']),
        events,
      ],
    ],
    [
      'endpoint-controller',
      [
        rule(READ, [g.core], ['services', 'pods']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [g.core], ['endpoints']),
        rule(['create'], [g.core], ['endpoints/restricted']),
        events,
      ],
    ],
    [
      'endpointslice-controller',
      [
        rule(READ, [g.core], ['services', 'pods', 'nodes']),
        // Setting a service's finalizers lets it own slices with blockOwnerDeletion.
        rule(['update'], [g.core], ['services/finalizers']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [g.discovery], ['endpointslices']),
        events,
      ],
    ],
    [
      'endpointslicemirroring-controller',
      [
        rule(READ, [g.core], ['services', 'endpoints']),
        rule(['update'], [g.core], ['services/finalizers']),
        rule(['update'], [g.core], ['endpoints/finalizers']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [g.discovery], ['endpointslices']),
        events,
      ],
    ],
    [
      'expand-controller',
      [
        rule(['get', 'list', 'watch', 'update', 'patch'], [g.core], ['persistentvolumes']),
        rule(['update', 'patch'], [g.core], ['persistentvolumeclaims/status']),
        rule(READ, [g.core], ['persistentvolumeclaims']),
        // glusterfs
        rule(READ, [g.storage], ['storageclasses']),
        rule(['get'], [g.core], ['services', 'endpoints']),
        rule(['get'], [g.core], ['secrets']),
        events,
      ],
    ],
    [
      'ephemeral-volume-controller',
      [
        rule(READ, [g.core], ['pods']),
        rule(['update'], [g.core], ['pods/finalizers']),
        rule(['get', 'list', 'watch', 'create'], [g.core], ['persistentvolumeclaims']),
        events,
      ],
    ],
    // Reads, patches, updates and deletes anything to collect orphans and dependents.
    ['generic-garbage-collector', [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']), events]],
    [
      'horizontal-pod-autoscaler',
      [
        rule(READ, [g.autoscaling], ['horizontalpodautoscalers']),
        rule(['update'], [g.autoscaling], ['horizontalpodautoscalers/status']),
        rule(['get', 'update'], ['*'], ['*/scale']),
        rule(['list'], [g.core], ['pods']),
        // Resource, custom and external metrics.
        rule(['list'], [g.resourceMetrics], ['pods']),
        rule(['get', 'list'], [g.customMetrics], ['*']),
        rule(['get', 'list'], [g.externalMetrics], ['*']),
        events,
      ],
    ],
    [
      'job-controller',
      [
        rule(['get', 'list', 'watch', 'update', 'patch'], [g.batch], ['jobs']),
        rule(['update'], [g.batch], ['jobs/status']),
        rule(['update'], [g.batch], ['jobs/finalizers']),
        rule(['list', 'watch', 'create', 'delete', 'patch'], [g.core], ['pods']),
        events,
      ],
    ],
    [
      'namespace-controller',
      [
        rule(['get', 'list', 'watch', 'delete'], [g.core], ['namespaces']),
        rule(['update'], [g.core], ['namespaces/finalize', 'namespaces/status']),
        rule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
      ],
    ],
    [
      'node-controller',
      [
        rule(['get', 'list', 'update', 'delete', 'patch'], [g.core], ['nodes']),
        rule(['patch', 'update'], [g.core], ['nodes/status']),
        // Pod deletion on lost nodes.
        rule(['patch', 'update'], [g.core], ['pods/status']),
        rule(['list', 'delete'], [g.core], ['pods']),
        events,
      ],
    ],
    [
      'persistent-volume-binder',
      [
        rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [g.core], ['persistentvolumes']),
        rule(['update'], [g.core], ['persistentvolumes/status']),
        rule(['get', 'list', 'watch', 'update'], [g.core], ['persistentvolumeclaims']),
        rule(['update'], [g.core], ['persistentvolumeclaims/status']),
        rule(['list', 'watch', 'get', 'create', 'delete'], [g.core], ['pods']),
        // glusterfs
        rule(READ, [g.storage], ['storageclasses']),
        rule(['get', 'create', 'update', 'delete'], [g.core], ['endpoints']),
        rule(['get', 'create', 'delete'], [g.core], ['services']),
        rule(['get'], [g.core], ['secrets']),
        // openstack
        rule(['get', 'list'], [g.core], ['nodes']),
        // recyclerClient.WatchPod
        rule(['watch'], [g.core], ['events']),
        events,
      ],
    ],
    ['pod-garbage-collector', [rule(['list', 'watch', 'delete'], [g.core], ['pods']), rule(['list'], [g.core], ['nodes'])]],
    [
      'replicaset-controller',
      [
        rule(['get', 'list', 'watch', 'update'], [g.apps, g.extensions], ['replicasets']),
        rule(['update'], [g.apps, g.extensions], ['replicasets/status']),
        rule(['update'], [g.apps, g.extensions], ['replicasets/finalizers']),
        rule(['list', 'watch', 'patch', 'create', 'delete'], [g.core], ['pods']),
        events,
      ],
    ],
    [
      'replication-controller',
      [
        // 1.0 controllers needed get and update: old controllers keep working on new servers.
        rule(['get', 'list', 'watch', 'update'], [g.core], ['replicationcontrollers']),
        rule(['update'], [g.core], ['replicationcontrollers/status']),
        rule(['update'], [g.core], ['replicationcontrollers/finalizers']),
        rule(['list', 'watch', 'patch', 'create', 'delete'], [g.core], ['pods']),
        events,
      ],
    ],
    [
      'resourcequota-controller',
      [
        // Quota may count anything, so it must see everything.
        rule(['list', 'watch'], ['*'], ['*']),
        rule(['update'], [g.core], ['resourcequotas/status']),
        events,
      ],
    ],
    ['route-controller', [rule(['list', 'watch'], [g.core], ['nodes']), rule(['patch'], [g.core], ['nodes/status']), events]],
    ['service-account-controller', [rule(['create'], [g.core], ['serviceaccounts']), events]],
    [
      'service-controller',
      [rule(READ, [g.core], ['services']), rule(['patch', 'update'], [g.core], ['services/status']), rule(['list', 'watch'], [g.core], ['nodes']), events],
    ],
    [
      'statefulset-controller',
      [
        rule(['list', 'watch'], [g.core], ['pods']),
        rule(READ, [g.apps], ['statefulsets']),
        rule(['update'], [g.apps], ['statefulsets/status']),
        rule(['update'], [g.apps], ['statefulsets/finalizers']),
        rule(['get', 'create', 'delete', 'update', 'patch'], [g.core], ['pods']),
        rule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], [g.apps], ['controllerrevisions']),
        rule(['get', 'create'], [g.core], ['persistentvolumeclaims']),
        rule(['update'], [g.core], ['pods/finalizers']),
        events,
      ],
    ],
    ['ttl-controller', [rule(['update', 'patch', 'list', 'watch'], [g.core], ['nodes']), events]],
    [
      'certificate-controller',
      [
        rule(['get', 'list', 'watch', 'delete'], [g.certificates], ['certificatesigningrequests']),
        rule(['update'], [g.certificates], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
        rule(['approve'], [g.certificates], ['signers'], [signer('kube-apiserver-client-kubelet')]),
        rule(
          ['sign'],
          [g.certificates],
          ['signers'],
          [signer('legacy-unknown'), signer('kube-apiserver-client'), signer('kube-apiserver-client-kubelet'), signer('kubelet-serving')],
        ),
        rule(['create'], [g.authorization], ['subjectaccessreviews']),
        events,
      ],
    ],
    [
      'pvc-protection-controller',
      [rule(['get', 'list', 'watch', 'update'], [g.core], ['persistentvolumeclaims']), rule(['list', 'watch', 'get'], [g.core], ['pods']), events],
    ],
    ['pv-protection-controller', [rule(['get', 'list', 'watch', 'update'], [g.core], ['persistentvolumes']), events]],
    ['ttl-after-finished-controller', [rule(['get', 'list', 'watch', 'delete'], [g.batch], ['jobs']), events]],
    ['root-ca-cert-publisher', [rule(['create', 'update'], [g.core], ['configmaps']), events]],
  ];
}

/** The controller ClusterRoles and, for each, its ClusterRoleBinding to the controller's service account. */
export function controllerRoles(brand: Brand): { roles: Obj[]; bindings: Obj[] } {
  const roles: Obj[] = [];
  const bindings: Obj[] = [];
  for (const [controller, rules] of controllerRules(brand, policyGroups(brand))) {
    const name = CONTROLLER_ROLE_PREFIX + controller;
    roles.push(role(brand, name, undefined, rules));
    bindings.push(clusterBinding(brand, name, [serviceAccount(brand.systemNamespace, controller)]));
  }
  return { roles, bindings };
}
