/**
 * What every kubelet may do (upstream's bootstrappolicy.NodeRules, 1.25): the rules of the
 * `system:node` ClusterRole, which the Node authorizer applies to node users for everything it
 * does not subdivide itself. The NodeRestriction admission plugin narrows the writes.
 */
import type { PolicyRule } from '../../machinery/authorization.js';
import type { Brand } from '../../machinery/brand.js';

const READ = ['get', 'list', 'watch'];

/** The system:node rules with the brand's group names, in upstream's order. */
export function nodeRules(brand: Brand): PolicyRule[] {
  const rule = (verbs: string[], group: string, ...resources: string[]): PolicyRule => ({ verbs, apiGroups: [group], resources });
  const core = '';
  const authentication = brand.group('authentication', true);
  const authorization = brand.group('authorization', true);
  const certificates = brand.group('certificates', true);
  const coordination = brand.group('coordination', true);
  const storage = brand.group('storage', true);
  const node = brand.group('node', true);
  return [
    // Checking API access (these creates change nothing).
    rule(['create'], authentication, 'tokenreviews'),
    rule(['create'], authorization, 'subjectaccessreviews', 'localsubjectaccessreviews'),
    // The service lister that fills pods' service environment variables.
    rule(READ, core, 'services'),
    // Registering the Node and reporting its status; NodeRestriction keeps a node to its own.
    rule(['create', 'get', 'list', 'watch'], core, 'nodes'),
    rule(['update', 'patch'], core, 'nodes/status'),
    rule(['update', 'patch'], core, 'nodes'),
    rule(['create', 'update', 'patch'], core, 'events'),
    rule(READ, core, 'pods'),
    // Mirror pods, pod status and evictions; NodeRestriction keeps a node to pods bound to it.
    rule(['create', 'delete'], core, 'pods'),
    rule(['update', 'patch'], core, 'pods/status'),
    rule(['create'], core, 'pods/eviction'),
    // Secrets and config maps of its pods; the Node authorizer narrows these to the graph.
    rule(['get', 'list', 'watch'], core, 'secrets', 'configmaps'),
    rule(['get'], core, 'persistentvolumeclaims', 'persistentvolumes'),
    rule(['get'], core, 'endpoints'),
    // Rotating its own client certificate.
    rule(['create', 'get', 'list', 'watch'], certificates, 'certificatesigningrequests'),
    rule(['get', 'create', 'update', 'patch', 'delete'], coordination, 'leases'),
    rule(['get'], storage, 'volumeattachments'),
    rule(['create'], core, 'serviceaccounts/token'),
    rule(['get', 'update', 'patch'], core, 'persistentvolumeclaims/status'),
    rule(['get', 'watch', 'list'], storage, 'csidrivers'),
    rule(['get', 'create', 'update', 'patch', 'delete'], storage, 'csinodes'),
    rule(READ, node, 'runtimeclasses'),
  ];
}
