/**
 * The default ClusterRoles and ClusterRoleBindings of upstream 1.25's bootstrap policy
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go: ClusterRoles(),
 * ClusterRoleBindings()), in upstream's order, with the Brand's groups and names.
 */
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { aggregateToLabel, clusterBinding, componentNames, group, role, serviceAccount, user } from './bootstrap-objects.js';
import { nodeRules } from './node-rules.js';
import { eventsRule, policyGroups, READ, READ_UPDATE, READ_WRITE, rule, urlRule, WRITE } from './policy-rules.js';

/** The aggregated user-facing roles and the roles whose rules they gather. */
function userFacingRoles(brand: Brand): Obj[] {
  const g = policyGroups(brand);
  const to = (r: 'admin' | 'edit' | 'view') => ({ [aggregateToLabel(brand, r)]: 'true' });
  return [
    role(brand, 'admin', undefined, null, { aggregates: [to('admin')] }),
    role(brand, 'edit', undefined, null, { labels: to('admin'), aggregates: [to('edit')] }),
    role(brand, 'view', undefined, null, { labels: to('edit'), aggregates: [to('view')] }),
    role(
      brand,
      'system:aggregate-to-admin',
      undefined,
      [rule(['create'], [g.authorization], ['localsubjectaccessreviews']), rule(READ_WRITE, [g.rbac], ['roles', 'rolebindings'])],
      { labels: to('admin') },
    ),
    role(
      brand,
      'system:aggregate-to-edit',
      undefined,
      [
        // Reading these escalates (exec, secrets), so only edit has them.
        rule(READ, [g.core], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
        rule(['impersonate'], [g.core], ['serviceaccounts']),
        rule(WRITE, [g.core], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
        rule(['create'], [g.core], ['pods/eviction']),
        rule(
          WRITE,
          [g.core],
          [
            'replicationcontrollers',
            'replicationcontrollers/scale',
            'serviceaccounts',
            'services',
            'services/proxy',
            'persistentvolumeclaims',
            'configmaps',
            'secrets',
            'events',
          ],
        ),
        rule(['create'], [g.core], ['serviceaccounts/token']),
        rule(
          WRITE,
          [g.apps],
          ['statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale'],
        ),
        rule(WRITE, [g.autoscaling], ['horizontalpodautoscalers']),
        rule(WRITE, [g.batch], ['jobs', 'cronjobs']),
        rule(
          WRITE,
          [g.extensions],
          [
            'daemonsets',
            'deployments',
            'deployments/scale',
            'deployments/rollback',
            'ingresses',
            'replicasets',
            'replicasets/scale',
            'replicationcontrollers/scale',
            'networkpolicies',
          ],
        ),
        rule(WRITE, [g.policy], ['poddisruptionbudgets']),
        rule(WRITE, [g.networking], ['networkpolicies', 'ingresses']),
        rule(READ_WRITE, [g.coordination], ['leases']),
      ],
      { labels: to('edit') },
    ),
    role(
      brand,
      'system:aggregate-to-view',
      undefined,
      [
        rule(
          READ,
          [g.core],
          [
            'pods',
            'replicationcontrollers',
            'replicationcontrollers/scale',
            'serviceaccounts',
            'services',
            'services/status',
            'endpoints',
            'persistentvolumeclaims',
            'persistentvolumeclaims/status',
            'configmaps',
          ],
        ),
        rule(
          READ,
          [g.core],
          [
            'limitranges',
            'resourcequotas',
            'bindings',
            'events',
            'pods/status',
            'resourcequotas/status',
            'namespaces/status',
            'replicationcontrollers/status',
            'pods/log',
          ],
        ),
        // Reading namespaces at namespace scope reads *this* namespace: which ones one may use.
        rule(READ, [g.core], ['namespaces']),
        rule(READ, [g.discovery], ['endpointslices']),
        rule(
          READ,
          [g.apps],
          [
            'controllerrevisions',
            'statefulsets',
            'statefulsets/status',
            'statefulsets/scale',
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/status',
            'deployments/scale',
            'replicasets',
            'replicasets/status',
            'replicasets/scale',
          ],
        ),
        rule(READ, [g.autoscaling], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
        rule(READ, [g.batch], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
        rule(
          READ,
          [g.extensions],
          [
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/scale',
            'deployments/status',
            'ingresses',
            'ingresses/status',
            'replicasets',
            'replicasets/scale',
            'replicasets/status',
            'replicationcontrollers/scale',
            'networkpolicies',
          ],
        ),
        rule(READ, [g.policy], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
        rule(READ, [g.networking], ['ingresses', 'ingresses/status', 'networkpolicies']),
      ],
      { labels: to('view') },
    ),
  ];
}

/** Roles of the signers of certificates.k8s.io: who may request and approve which certificates. */
function certificateRoles(brand: Brand): Obj[] {
  const g = policyGroups(brand);
  const prefix = `system:${g.certificates}`;
  const approver = (signer: string) =>
    role(brand, `${prefix}:${signer}-approver`, undefined, [rule(['approve'], [g.certificates], ['signers'], [`${brand.labelDomain}/${signer}`])]);
  return [
    role(brand, `${prefix}:certificatesigningrequests:nodeclient`, undefined, [rule(['create'], [g.certificates], ['certificatesigningrequests/nodeclient'])]),
    role(brand, `${prefix}:certificatesigningrequests:selfnodeclient`, undefined, [
      rule(['create'], [g.certificates], ['certificatesigningrequests/selfnodeclient']),
    ]),
    approver('legacy-unknown'),
    approver('kubelet-serving'),
    approver('kube-apiserver-client'),
    approver('kube-apiserver-client-kubelet'),
  ];
}

/** Upstream's ClusterRoles() without the controller roles. */
export function clusterRoles(brand: Brand): Obj[] {
  const g = policyGroups(brand);
  const names = componentNames(brand);
  return [
    // A root role that may do anything.
    role(brand, 'cluster-admin', undefined, [rule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])]),
    // Just enough to find out whether the server is ready and which APIs it serves.
    role(brand, 'system:discovery', undefined, [
      urlRule(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*']),
    ]),
    role(brand, 'system:monitoring', undefined, [urlRule(['get'], ['/metrics', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'])]),
    // What a "normal" user needs to learn about themselves.
    role(brand, 'system:basic-user', undefined, [
      rule(['create'], [g.authorization], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      // Upstream from 1.26, with the API (served here for `kubectl auth whoami`).
      rule(['create'], [g.authentication], ['selfsubjectreviews']),
    ]),
    role(brand, 'system:public-info-viewer', undefined, [urlRule(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])]),
    ...userFacingRoles(brand),
    role(brand, 'system:heapster', undefined, [rule(READ, [g.core], ['events', 'pods', 'nodes', 'namespaces']), rule(READ, [g.extensions], ['deployments'])]),
    role(brand, 'system:node', undefined, nodeRules(brand)),
    role(brand, 'system:node-problem-detector', undefined, [rule(['get'], [g.core], ['nodes']), rule(['patch'], [g.core], ['nodes/status']), eventsRule(g)]),
    // Full access to the kubelet API.
    role(brand, 'system:kubelet-api-admin', undefined, [
      rule(READ, [g.core], ['nodes']),
      rule(['proxy'], [g.core], ['nodes']),
      rule(['*'], [g.core], ['nodes/proxy', 'nodes/metrics', 'nodes/spec', 'nodes/stats', 'nodes/log']),
    ]),
    role(brand, 'system:node-bootstrapper', undefined, [rule(['create', 'get', 'list', 'watch'], [g.certificates], ['certificatesigningrequests'])]),
    // Delegated authentication and authorization (these creates are non-mutating).
    role(brand, 'system:auth-delegator', undefined, [
      rule(['create'], [g.authentication], ['tokenreviews']),
      rule(['create'], [g.authorization], ['subjectaccessreviews']),
    ]),
    role(brand, 'system:kube-aggregator', undefined, [rule(READ, [g.core], ['services', 'endpoints'])]),
    // The controller manager itself: its informers, its lock and the service accounts of controllers.
    role(brand, names.controllerManagerUser, undefined, [
      eventsRule(g),
      rule(['create'], [g.coordination], ['leases']),
      rule(['get', 'update'], [g.coordination], ['leases'], [names.controllerManager]),
      rule(['create'], [g.core], ['endpoints']),
      rule(['get', 'update'], [g.core], ['endpoints'], [names.controllerManager]),
      rule(['create'], [g.core], ['secrets', 'serviceaccounts']),
      rule(['delete'], [g.core], ['secrets']),
      rule(['get'], [g.core], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
      rule(['update'], [g.core], ['secrets', 'serviceaccounts']),
      rule(['create'], [g.authentication], ['tokenreviews']),
      rule(['create'], [g.authorization], ['subjectaccessreviews']),
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [g.core], ['serviceaccounts/token']),
    ]),
    role(brand, 'system:kube-dns', undefined, [rule(['list', 'watch'], [g.core], ['endpoints', 'services'])]),
    role(brand, 'system:persistent-volume-provisioner', undefined, [
      rule(['get', 'list', 'watch', 'create', 'delete'], [g.core], ['persistentvolumes']),
      // update lets the provisioner annotate claims it failed on.
      rule(['get', 'list', 'watch', 'update'], [g.core], ['persistentvolumeclaims']),
      rule(READ, [g.storage], ['storageclasses']),
      // Watching events is how a provisioner sees the outcome of its recycler pods.
      rule(['watch'], [g.core], ['events']),
      eventsRule(g),
    ]),
    role(brand, 'system:volume-scheduler', undefined, [
      rule(READ_UPDATE, [g.core], ['persistentvolumes']),
      rule(READ, [g.storage], ['storageclasses']),
      rule(READ_UPDATE, [g.core], ['persistentvolumeclaims']),
    ]),
    ...certificateRoles(brand),
    // Lets workloads read the service-account issuer's OIDC discovery documents.
    role(brand, 'system:service-account-issuer-discovery', undefined, [urlRule(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])]),
    role(brand, 'system:node-proxier', undefined, [
      rule(['list', 'watch'], [g.core], ['services', 'endpoints']),
      rule(['get', 'list', 'watch'], [g.core], ['nodes']),
      eventsRule(g),
      rule(['list', 'watch'], [g.discovery], ['endpointslices']),
    ]),
    role(brand, names.schedulerUser, undefined, [
      eventsRule(g),
      rule(['create'], [g.coordination], ['leases']),
      rule(['get', 'update'], [g.coordination], ['leases'], [names.scheduler]),
      rule(['create'], [g.core], ['endpoints']),
      rule(['get', 'update'], [g.core], ['endpoints'], [names.scheduler]),
      // Its informers and what binding a pod needs.
      rule(READ, [g.core], ['nodes']),
      rule(['get', 'list', 'watch', 'delete'], [g.core], ['pods']),
      rule(['create'], [g.core], ['pods/binding', 'bindings']),
      rule(['patch', 'update'], [g.core], ['pods/status']),
      // Spreading, affinity and disruption budgets.
      rule(READ, [g.core], ['replicationcontrollers', 'services']),
      rule(READ, [g.apps, g.extensions], ['replicasets']),
      rule(READ, [g.apps], ['statefulsets']),
      rule(READ, [g.policy], ['poddisruptionbudgets']),
      rule(READ, [g.core], ['persistentvolumeclaims', 'persistentvolumes']),
      // Delegated authentication and authorization of its own endpoints.
      rule(['create'], [g.authentication], ['tokenreviews']),
      rule(['create'], [g.authorization], ['subjectaccessreviews']),
      rule(READ, [g.storage], ['csinodes']),
      rule(READ, [g.core], ['namespaces']),
      rule(READ, [g.storage], ['csidrivers']),
      rule(READ, [g.storage], ['csistoragecapacities']),
    ]),
  ];
}

/** Upstream's ClusterRoleBindings() without the controller bindings. */
export function clusterRoleBindings(brand: Brand): Obj[] {
  const names = componentNames(brand);
  return [
    clusterBinding(brand, 'cluster-admin', [group(brand, 'system:masters')]),
    clusterBinding(brand, 'system:monitoring', [group(brand, 'system:monitoring')]),
    // Anonymous users lost discovery in 1.14: only the public info stays open to them.
    clusterBinding(brand, 'system:discovery', [group(brand, 'system:authenticated')]),
    clusterBinding(brand, 'system:basic-user', [group(brand, 'system:authenticated')]),
    clusterBinding(brand, 'system:public-info-viewer', [group(brand, 'system:authenticated'), group(brand, 'system:unauthenticated')]),
    clusterBinding(brand, 'system:node-proxier', [user(brand, names.kubeProxyUser)]),
    clusterBinding(brand, names.controllerManagerUser, [user(brand, names.controllerManagerUser)]),
    clusterBinding(brand, 'system:kube-dns', [serviceAccount(brand.systemNamespace, 'kube-dns')]),
    clusterBinding(brand, names.schedulerUser, [user(brand, names.schedulerUser)]),
    clusterBinding(brand, 'system:volume-scheduler', [user(brand, names.schedulerUser)]),
    clusterBinding(brand, 'system:service-account-issuer-discovery', [group(brand, 'system:serviceaccounts')]),
    // No subjects: the Node authorizer grants nodes what they need.
    clusterBinding(brand, 'system:node', []),
  ];
}
