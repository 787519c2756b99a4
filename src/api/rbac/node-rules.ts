/**
 * Upstream's NodeRules() (1.25 bootstrappolicy/policy.go): what the `system:node` ClusterRole
 * grants. The Node authorizer narrows these to the objects of each node; the role itself has
 * no bound subjects.
 */
import type { Brand } from '../../machinery/brand.js';
import type { PolicyRule } from '../../machinery/authorization.js';
import { policyGroups, READ, rule } from './policy-rules.js';

export function nodeRules(brand: Brand): PolicyRule[] {
  const g = policyGroups(brand);
  return [
    // Checking API access: these creates are non-mutating.
    rule(['create'], [g.authentication], ['tokenreviews']),
    rule(['create'], [g.authorization], ['subjectaccessreviews', 'localsubjectaccessreviews']),
    // The service lister that fills pods' service environment variables.
    rule(READ, [g.core], ['services']),
    // Nodes register and report on themselves (NodeRestriction limits them to their own).
    rule(['create', 'get', 'list', 'watch'], [g.core], ['nodes']),
    rule(['update', 'patch'], [g.core], ['nodes/status']),
    rule(['update', 'patch'], [g.core], ['nodes']),
    rule(['create', 'update', 'patch'], [g.core], ['events']),
    rule(READ, [g.core], ['pods']),
    // Mirror pods, pod status and evictions of the node's own pods.
    rule(['create', 'delete'], [g.core], ['pods']),
    rule(['update', 'patch'], [g.core], ['pods/status']),
    rule(['create'], [g.core], ['pods/eviction']),
    // Secrets, config maps and volumes of the node's pods (the Node authorizer narrows these).
    rule(['get', 'list', 'watch'], [g.core], ['secrets', 'configmaps']),
    rule(['get'], [g.core], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], [g.core], ['endpoints']),
    // Kubelet client certificate rotation.
    rule(['create', 'get', 'list', 'watch'], [g.certificates], ['certificatesigningrequests']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [g.coordination], ['leases']),
    rule(['get'], [g.storage], ['volumeattachments']),
    rule(['create'], [g.core], ['serviceaccounts/token']),
    rule(['get', 'update', 'patch'], [g.core], ['persistentvolumeclaims/status']),
    rule(['get', 'watch', 'list'], [g.storage], ['csidrivers']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [g.storage], ['csinodes']),
    rule(['get', 'list', 'watch'], [g.node], ['runtimeclasses']),
  ];
}
