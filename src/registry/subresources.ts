/**
 * Subresources as data: each one a resource may declare (`subresources: { status: true }` in
 * its definition) says here which verbs it serves, which kind a request to it takes and
 * answers, and which fields its writes own. Routes, discovery, OpenAPI operations, the
 * registry's field reset and the field manager's reset fields all derive from these entries;
 * the capability serving each is built at registration (scope.ts).
 */
import type { Verb } from '../api/types.js';

/** A field path from the object's root, e.g. `['spec', 'finalizers']`. */
export type FieldPath = readonly string[];

export interface SubresourceDeclaration {
  readonly name: string;
  /** Verbs served, as upstream's installer lists them (alphabetical for discovery). */
  readonly verbs: readonly Verb[];
  /** The kind a request takes and answers when it is not the parent's (pods/binding: Binding). */
  readonly kind?: string;
  /** The kind is the parent's followed by this (proxy: PodProxyOptions, NodeProxyOptions...). */
  readonly kindSuffix?: string;
  /** The kind's group and version when not the parent's (serviceaccounts/token: authentication/v1). */
  readonly kindGroup?: { groupStem: string; branded: boolean; version: string };
  /** The fields a write of the subresource changes; every other field keeps its stored value. */
  readonly owns: readonly FieldPath[];
  /** True when writes of the main resource keep these fields as stored (status). */
  readonly keptOnMainWrite?: boolean;
  /**
   * How the write reaches the store: `parent` updates the parent object through its own update
   * loop (status, finalize); `binding` creates a Binding that updates the pod; `token` issues a
   * service-account token and stores nothing; `eviction` deletes the pod within its disruption
   * budget; `scale` shows the parent as a Scale and writes
   * its replicas; `connect` leads to a node agent or a proxied address the server streams from.
   */
  readonly storage: 'parent' | 'binding' | 'token' | 'scale' | 'eviction' | 'connect';
}

const DECLARATIONS: readonly SubresourceDeclaration[] = [
  // Upstream's connect subresources: streams from the node agent or a proxied address.
  { name: 'attach', verbs: ['create', 'get'], kind: 'PodAttachOptions', owns: [], storage: 'connect' },
  { name: 'exec', verbs: ['create', 'get'], kind: 'PodExecOptions', owns: [], storage: 'connect' },
  { name: 'log', verbs: ['get'], owns: [], storage: 'connect' },
  { name: 'portforward', verbs: ['create', 'get'], kind: 'PodPortForwardOptions', owns: [], storage: 'connect' },
  { name: 'proxy', verbs: ['create', 'delete', 'get', 'patch', 'update'], kindSuffix: 'ProxyOptions', owns: [], storage: 'connect' },
  // A pod binding assigns the node and records it (upstream's BindingREST).
  {
    name: 'binding',
    verbs: ['create'],
    kind: 'Binding',
    owns: [
      ['spec', 'nodeName'],
      ['metadata', 'annotations'],
      ['status', 'conditions'],
    ],
    storage: 'binding',
  },
  // pods/<name>/eviction: a policy/v1 Eviction deletes the pod unless its budget forbids (upstream's EvictionREST).
  {
    name: 'eviction',
    verbs: ['create'],
    kind: 'Eviction',
    kindGroup: { groupStem: 'policy', branded: false, version: 'v1' },
    owns: [],
    storage: 'eviction',
  },
  // certificatesigningrequests/<name>/approval: upstream's approval strategy keeps everything but
  // the conditions (kubectl certificate approve/deny writes here).
  { name: 'approval', verbs: ['get', 'patch', 'update'], owns: [['status', 'conditions']], storage: 'parent' },
  // namespaces/<name>/finalize writes only spec.finalizers.
  { name: 'finalize', verbs: ['update'], owns: [['spec', 'finalizers']], storage: 'parent' },
  // serviceaccounts/<name>/token: a TokenRequest answered with a bound token (upstream's TokenREST).
  {
    name: 'token',
    verbs: ['create'],
    kind: 'TokenRequest',
    kindGroup: { groupStem: 'authentication', branded: true, version: 'v1' },
    owns: [],
    storage: 'token',
  },
  // <workload>/<name>/scale: the replicas as an autoscaling/v1 Scale (upstream's ScaleREST).
  {
    name: 'scale',
    verbs: ['get', 'patch', 'update'],
    kind: 'Scale',
    kindGroup: { groupStem: 'autoscaling', branded: false, version: 'v1' },
    owns: [['spec', 'replicas']],
    storage: 'scale',
  },
  // Upstream's status strategies: ResetObjectMetaForStatus plus the spec kept as stored.
  { name: 'status', verbs: ['get', 'patch', 'update'], owns: [['status']], keptOnMainWrite: true, storage: 'parent' },
];

/** The kind a subresource of a resource of `parentKind` takes and answers. */
export function subresourceKind(decl: SubresourceDeclaration | undefined, parentKind: string): string {
  if (decl?.kindSuffix) return `${parentKind}${decl.kindSuffix}`;
  return decl?.kind ?? parentKind;
}

/** Every declaration by name. */
export const SUBRESOURCES: ReadonlyMap<string, SubresourceDeclaration> = new Map(DECLARATIONS.map((d) => [d.name, d]));
