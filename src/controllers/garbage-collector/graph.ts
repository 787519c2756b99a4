/**
 * The dependency graph (upstream's GraphBuilder and node): one node per uid, holding the
 * object's identity, its ownerReferences and the nodes that name it as owner. An owner seen
 * only through a dependent's reference is a "virtual" node until an informer reports it.
 * Watch events update the graph and say which nodes the collector must look at again.
 */
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../machinery/object-meta-validation.js';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface Identity {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** Empty for cluster-scoped objects (and for virtual owners referenced from cluster-scoped ones). */
  namespace: string;
}

/** The metadata the graph reads from a watched object. */
export interface ObjectMetadata {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
}

export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  owners: OwnerReference[] = [];
  finalizers: readonly string[] = [];
  /** The version the owners and finalizers above were read at. */
  resourceVersion: string | undefined;
  virtual: boolean;
  beingDeleted = false;
  deletingDependents = false;

  constructor(
    public identity: Identity,
    virtual: boolean,
  ) {
    this.virtual = virtual;
  }

  /** Dependents that name this node as owner with blockOwnerDeletion. */
  blockingDependents(): GraphNode[] {
    const out: GraphNode[] = [];
    for (const dep of this.dependents) {
      if (dep.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true)) out.push(dep);
    }
    return out;
  }
}

/** What the graph asks of the collector after an event. */
export interface GraphSink {
  attemptToDelete(node: GraphNode): void;
  attemptToOrphan(node: GraphNode): void;
  /** An owner identity confirmed gone: dependents naming it need no lookup. */
  ownerAbsent(identity: Identity): void;
  /** A dependent names an observed owner in another namespace (upstream's OwnerRefInvalidNamespace event). */
  invalidNamespaceOwner(dependent: GraphNode, owner: OwnerReference): void;
}

export function hasFinalizer(meta: ObjectMetadata, f: string): boolean {
  return (meta.finalizers ?? []).includes(f);
}

function deletingWith(meta: ObjectMetadata | undefined, f: string): boolean {
  return meta?.deletionTimestamp !== undefined && hasFinalizer(meta, f);
}

export class DependencyGraph {
  private readonly nodes = new Map<string, GraphNode>();

  constructor(private readonly sink: GraphSink) {}

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  get size(): number {
    return this.nodes.size;
  }

  /** An object added or changed, as reported by the informer of its type. */
  observe(apiVersion: string, kind: string, meta: ObjectMetadata, old: ObjectMetadata | undefined): void {
    const uid = meta.uid;
    if (!uid) return;
    const identity: Identity = { apiVersion, kind, name: meta.name ?? '', uid, namespace: meta.namespace ?? '' };
    const owners = meta.ownerReferences ?? [];
    let node = this.nodes.get(uid);
    if (node === undefined) {
      node = new GraphNode(identity, false);
      this.nodes.set(uid, node);
      node.owners = owners;
      this.addDependentToOwners(node, owners);
    } else {
      if (node.virtual) {
        // The informer now vouches for this object: its coordinates are the real ones, and
        // dependents that named it otherwise (another namespace, name or kind) are checked.
        for (const dep of node.dependents) {
          const ref = dep.owners.find((o) => o.uid === uid);
          if (ref === undefined || (sameCoordinates(ref, identity) && (identity.namespace === '' || identity.namespace === dep.identity.namespace))) continue;
          if (identity.namespace !== '' && dep.identity.namespace !== identity.namespace) this.sink.invalidNamespaceOwner(dep, ref);
          this.sink.attemptToDelete(dep);
        }
        node.virtual = false;
        node.identity = identity;
      }
      const { added, removed, changed } = referencesDiff(node.owners, owners);
      if (added.length + removed.length + changed.length > 0) {
        this.addUnblockedOwnersToDeleteQueue(removed, changed);
        node.owners = owners;
        this.addDependentToOwners(node, added);
        this.removeDependentFromOwners(node, removed);
      }
    }
    node.finalizers = meta.finalizers ?? [];
    node.resourceVersion = meta.resourceVersion;
    if (meta.deletionTimestamp !== undefined) node.beingDeleted = true;
    this.processTransitions(old, meta, node);
  }

  /** An object the informer saw deleted (virtual = false), or an owner the collector found gone. */
  remove(uid: string, virtual: boolean, identity?: Identity): void {
    const node = this.nodes.get(uid);
    if (node === undefined) return;
    // A lookup that found nothing under a virtual node's coordinates does not remove an observed object.
    if (virtual && !node.virtual) {
      if (identity !== undefined) this.sink.ownerAbsent(identity);
      for (const dep of node.dependents) if (dep.owners.some((o) => identity !== undefined && sameCoordinates(o, identity))) this.sink.attemptToDelete(dep);
      return;
    }
    this.nodes.delete(uid);
    for (const o of node.owners) this.nodes.get(o.uid)?.dependents.delete(node);
    if (node.dependents.size > 0) this.sink.ownerAbsent(identity ?? node.identity);
    for (const dep of node.dependents) this.sink.attemptToDelete(dep);
    for (const o of node.owners) {
      const owner = this.nodes.get(o.uid);
      // An owner waiting for its dependents may now be free to go.
      if (owner?.deletingDependents) this.sink.attemptToDelete(owner);
    }
  }

  private processTransitions(old: ObjectMetadata | undefined, meta: ObjectMetadata, node: GraphNode): void {
    if (!deletingWith(old, FINALIZER_ORPHAN_DEPENDENTS) && deletingWith(meta, FINALIZER_ORPHAN_DEPENDENTS)) {
      this.sink.attemptToOrphan(node);
      return;
    }
    if (!deletingWith(old, FINALIZER_DELETE_DEPENDENTS) && deletingWith(meta, FINALIZER_DELETE_DEPENDENTS)) {
      node.deletingDependents = true;
      for (const dep of node.dependents) this.sink.attemptToDelete(dep);
      this.sink.attemptToDelete(node);
    }
  }

  private addDependentToOwners(node: GraphNode, owners: readonly OwnerReference[]): void {
    let suspicious = false;
    for (const ref of owners) {
      let owner = this.nodes.get(ref.uid);
      if (owner === undefined) {
        // Not seen yet: a virtual node the collector verifies against the API.
        owner = new GraphNode({ apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: node.identity.namespace }, true);
        this.nodes.set(ref.uid, owner);
        owner.dependents.add(node);
        this.sink.attemptToDelete(owner);
        continue;
      }
      owner.dependents.add(node);
      if (suspicious) continue;
      const ownerNamespace = owner.identity.namespace;
      if (ownerNamespace !== '' && ownerNamespace !== node.identity.namespace) {
        if (!owner.virtual) this.sink.invalidNamespaceOwner(node, ref);
        suspicious = true;
      } else if (!sameCoordinates(ref, owner.identity)) {
        suspicious = true;
      } else if (ownerNamespace === '' && node.identity.namespace !== '' && owner.virtual) {
        // Possibly a namespaced owner referenced from a cluster-scoped object: verify.
        suspicious = true;
      }
    }
    // The collector checks whether such references dangle.
    if (suspicious) this.sink.attemptToDelete(node);
  }

  private removeDependentFromOwners(node: GraphNode, owners: readonly OwnerReference[]): void {
    for (const ref of owners) this.nodes.get(ref.uid)?.dependents.delete(node);
  }

  private addUnblockedOwnersToDeleteQueue(removed: readonly OwnerReference[], changed: readonly [OwnerReference, OwnerReference][]): void {
    const unblocked = [
      ...removed.filter((r) => r.blockOwnerDeletion === true),
      ...changed.filter(([a, b]) => a.blockOwnerDeletion === true && b.blockOwnerDeletion !== true).map(([a]) => a),
    ];
    for (const ref of unblocked) {
      const owner = this.nodes.get(ref.uid);
      if (owner?.deletingDependents) this.sink.attemptToDelete(owner);
    }
  }
}

export function sameCoordinates(ref: OwnerReference, id: Identity): boolean {
  return ref.uid === id.uid && ref.name === id.name && ref.kind === id.kind && ref.apiVersion === id.apiVersion;
}

function referencesDiff(
  old: readonly OwnerReference[],
  next: readonly OwnerReference[],
): { added: OwnerReference[]; removed: OwnerReference[]; changed: [OwnerReference, OwnerReference][] } {
  const oldByUid = new Map(old.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: [OwnerReference, OwnerReference][] = [];
  for (const r of next) {
    const o = oldByUid.get(r.uid);
    if (o === undefined) added.push(r);
    else {
      oldByUid.delete(r.uid);
      if (JSON.stringify(o) !== JSON.stringify(r)) changed.push([o, r]);
    }
  }
  return { added, removed: [...oldByUid.values()], changed };
}
