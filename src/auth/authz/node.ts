/**
 * The Node authorization mode (upstream's NodeAuthorizer, 1.25): only users that are kubelets
 * (`system:node:<name>` in `system:nodes`). Secrets, config maps, claims, volumes, volume
 * attachments and service-account tokens only when the graph links them to a pod on that
 * node; leases only in the node-lease namespace and only its own; only its own CSINode;
 * everything else by the `system:node` rules. It never denies: another mode may still allow.
 */
import { ALLOW, type Attributes, type Authorization, type Authorizer, NO_OPINION, NO_RULES, type PolicyRule } from '../../machinery/authorization.js';
import { nodeIdentity } from '../../machinery/node-identity.js';
import { goQuote } from './authorizer.js';
import type { NodeGraph, ReachableKind } from './node-graph.js';
import { rulesAllow } from './rbac/rules.js';

export interface NodeAuthorizerOptions {
  graph: NodeGraph;
  /** The system:node rules (src/api/rbac/node-rules.ts), in the brand's groups. */
  rules: readonly PolicyRule[];
  /** The brand's groups of coordination and storage (`coordination.orch.io`...). */
  groups: { coordination: string; storage: string };
  /** Where node leases live (`orch-node-lease`). */
  nodeLeaseNamespace: string;
}

const noOpinion = (reason: string): Authorization => ({ decision: 'no-opinion', reason });

export function nodeAuthorizer(opts: NodeAuthorizerOptions): Authorizer {
  const { graph } = opts;
  const noRelationship = (node: string) => noOpinion(`no relationship found between node '${node}' and this object`);

  /** Upstream's authorize: a named object the graph links to the node. */
  const reachable = (node: string, kind: ReachableKind, attrs: Attributes): Authorization => {
    if (attrs.name === '') return noOpinion('No Object name found');
    return graph.reaches(node, kind, attrs.namespace, attrs.name) ? ALLOW : noRelationship(node);
  };

  /** get, list and watch of one named object in a namespace (a watch names it by field selector). */
  const readNamespaced = (node: string, kind: ReachableKind, attrs: Attributes): Authorization => {
    if (attrs.verb !== 'get' && attrs.verb !== 'list' && attrs.verb !== 'watch') return noOpinion('can only read resources of this type');
    if (attrs.subresource !== '') return noOpinion('cannot read subresource');
    if (attrs.namespace === '') return noOpinion('can only read namespaced object of this type');
    return reachable(node, kind, attrs);
  };

  const getOnly = (node: string, kind: ReachableKind, attrs: Attributes): Authorization => {
    if (attrs.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (attrs.subresource !== '') return noOpinion('cannot get subresource');
    return reachable(node, kind, attrs);
  };

  const statusUpdate = (node: string, kind: ReachableKind, attrs: Attributes): Authorization => {
    if (attrs.verb !== 'update' && attrs.verb !== 'patch') return noOpinion('can only get/update/patch this type');
    if (attrs.subresource !== 'status') return noOpinion('can only update status subresource');
    return reachable(node, kind, attrs);
  };

  const createToken = (node: string, attrs: Attributes): Authorization => {
    if (attrs.verb !== 'create' || attrs.name === '') return noOpinion('can only create tokens for individual service accounts');
    if (attrs.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return graph.reaches(node, 'serviceaccount', attrs.namespace, attrs.name) ? ALLOW : noRelationship(node);
  };

  const WRITES_OF_OWN = new Set(['get', 'create', 'update', 'patch', 'delete']);

  const lease = (node: string, attrs: Attributes): Authorization => {
    if (!WRITES_OF_OWN.has(attrs.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
    if (attrs.namespace !== opts.nodeLeaseNamespace) return noOpinion(`can only access leases in the ${goQuote(opts.nodeLeaseNamespace)} system namespace`);
    // A create's name is in its body: NodeRestriction checks it.
    if (attrs.verb !== 'create' && attrs.name !== node) return noOpinion('can only access node lease with the same name as the requesting node');
    return ALLOW;
  };

  const csiNode = (node: string, attrs: Attributes): Authorization => {
    if (!WRITES_OF_OWN.has(attrs.verb)) return noOpinion('can only get, create, update, patch, or delete a CSINode');
    if (attrs.subresource !== '') return noOpinion('cannot authorize CSINode subresources');
    if (attrs.verb !== 'create' && attrs.name !== node) return noOpinion('can only access CSINode with the same name as the requesting node');
    return ALLOW;
  };

  const { coordination, storage } = opts.groups;

  return {
    authorize(attrs) {
      const node = nodeIdentity(attrs.user);
      if (node === undefined) return NO_OPINION;
      if (node === '') return noOpinion(`unknown node for user ${goQuote(attrs.user.name)}`);
      if (attrs.isResourceRequest) {
        if (attrs.apiGroup === '') {
          switch (attrs.resource) {
            case 'secrets':
              return readNamespaced(node, 'secret', attrs);
            case 'configmaps':
              return readNamespaced(node, 'configmap', attrs);
            case 'persistentvolumeclaims':
              return attrs.subresource === 'status' ? statusUpdate(node, 'persistentvolumeclaim', attrs) : getOnly(node, 'persistentvolumeclaim', attrs);
            case 'persistentvolumes':
              return getOnly(node, 'persistentvolume', attrs);
            case 'serviceaccounts':
              return createToken(node, attrs);
          }
        } else if (attrs.apiGroup === storage) {
          if (attrs.resource === 'volumeattachments') return getOnly(node, 'volumeattachment', attrs);
          if (attrs.resource === 'csinodes') return csiNode(node, attrs);
        } else if (attrs.apiGroup === coordination && attrs.resource === 'leases') {
          return lease(node, attrs);
        }
      }
      return rulesAllow(attrs, opts.rules) ? ALLOW : NO_OPINION;
    },
    rulesFor(user) {
      // Upstream: a node's permissions depend on the graph, so they cannot be listed.
      if (nodeIdentity(user) !== undefined) {
        return { resourceRules: [], nonResourceRules: [], incomplete: true, error: 'node authorizer does not support user rule resolution' };
      }
      return NO_RULES;
    },
  };
}
