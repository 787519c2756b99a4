/**
 * What each node may reach, as upstream's Node authorizer graph holds it (plugin/pkg/auth/
 * authorizer/node/graph.go): a pod bound to a node gives that node its secrets, config maps,
 * claims and service account; a persistent volume gives whoever reaches its claim the volume
 * and its kubelet-visible secrets; a volume attachment belongs to its node.
 *
 * Instead of upstream's general graph walked per request, each directly referenced object keeps
 * a count of referencing pods per node, so "may node N read secret S" is a map lookup, plus one
 * lookup per volume that names S. Updates touch only the changed object's edges.
 */

export type ReachableKind = 'secret' | 'configmap' | 'persistentvolumeclaim' | 'persistentvolume' | 'serviceaccount' | 'volumeattachment';

/** What a bound pod refers to; every name is in the pod's namespace. */
export interface PodEdges {
  node: string;
  secrets: readonly string[];
  configMaps: readonly string[];
  claims: readonly string[];
  serviceAccount: string;
}

/** What a persistent volume refers to: its claim (if bound) and the secrets a kubelet uses. */
export interface PersistentVolumeEdges {
  claim?: { namespace: string; name: string };
  secrets: readonly { namespace: string; name: string }[];
}

type PodKind = 'secret' | 'configmap' | 'persistentvolumeclaim' | 'serviceaccount';

const key = (kind: string, namespace: string, name: string): string => `${kind}/${namespace}/${name}`;

export class NodeGraph {
  /** Pod (namespace/name) → its node and the keys of what it refers to (deduplicated). */
  private readonly pods = new Map<string, { node: string; refs: string[] }>();
  /** Object key → node → number of that node's pods referring to it. */
  private readonly reach = new Map<string, Map<string, number>>();
  /** Persistent volume → its claim's key and its secrets' keys. */
  private readonly volumes = new Map<string, { claim: string | undefined; secrets: string[] }>();
  /** Secret key → the volumes naming it (a secret reached through a volume). */
  private readonly volumeSecrets = new Map<string, Set<string>>();
  /** Volume attachment → its node. */
  private readonly attachments = new Map<string, string>();

  /** Records a pod bound to a node (replacing what it referred to before); undefined edges: the pod is unbound or gone. */
  setPod(namespace: string, name: string, edges: PodEdges | undefined): void {
    this.deletePod(namespace, name);
    if (!edges || edges.node === '') return;
    const refs = new Set<string>();
    const add = (kind: PodKind, n: string) => {
      if (n !== '') refs.add(key(kind, namespace, n));
    };
    for (const s of edges.secrets) add('secret', s);
    for (const c of edges.configMaps) add('configmap', c);
    for (const c of edges.claims) add('persistentvolumeclaim', c);
    add('serviceaccount', edges.serviceAccount);
    const record = { node: edges.node, refs: [...refs] };
    this.pods.set(`${namespace}/${name}`, record);
    for (const ref of record.refs) {
      let perNode = this.reach.get(ref);
      if (!perNode) this.reach.set(ref, (perNode = new Map()));
      perNode.set(record.node, (perNode.get(record.node) ?? 0) + 1);
    }
  }

  deletePod(namespace: string, name: string): void {
    const podKey = `${namespace}/${name}`;
    const record = this.pods.get(podKey);
    if (!record) return;
    this.pods.delete(podKey);
    for (const ref of record.refs) {
      const perNode = this.reach.get(ref);
      if (!perNode) continue;
      const count = (perNode.get(record.node) ?? 0) - 1;
      if (count > 0) perNode.set(record.node, count);
      else perNode.delete(record.node);
      if (perNode.size === 0) this.reach.delete(ref);
    }
  }

  /** The node a pod is bound to, if the graph has it. */
  podNode(namespace: string, name: string): string | undefined {
    return this.pods.get(`${namespace}/${name}`)?.node;
  }

  /** Records a persistent volume's claim and secrets (replacing the old ones); undefined: the volume is gone. */
  setPersistentVolume(name: string, edges: PersistentVolumeEdges | undefined): void {
    this.deletePersistentVolume(name);
    // Upstream links a volume only while it has a claim: without one nothing reaches it.
    if (!edges?.claim) return;
    const secrets = [...new Set(edges.secrets.map((s) => key('secret', s.namespace, s.name)))];
    this.volumes.set(name, { claim: key('persistentvolumeclaim', edges.claim.namespace, edges.claim.name), secrets });
    for (const s of secrets) {
      let names = this.volumeSecrets.get(s);
      if (!names) this.volumeSecrets.set(s, (names = new Set()));
      names.add(name);
    }
  }

  deletePersistentVolume(name: string): void {
    const volume = this.volumes.get(name);
    if (!volume) return;
    this.volumes.delete(name);
    for (const s of volume.secrets) {
      const names = this.volumeSecrets.get(s);
      names?.delete(name);
      if (names?.size === 0) this.volumeSecrets.delete(s);
    }
  }

  /** Records which node a volume attachment is for ('' or undefined: none). */
  setVolumeAttachment(name: string, node: string | undefined): void {
    if (node) this.attachments.set(name, node);
    else this.attachments.delete(name);
  }

  /** True when node reaches the object: upstream's hasPathFrom(object → node). */
  reaches(node: string, kind: ReachableKind, namespace: string, name: string): boolean {
    switch (kind) {
      case 'persistentvolume':
        return this.volumeReached(node, name);
      case 'volumeattachment':
        return this.attachments.get(name) === node;
      case 'secret': {
        if (this.directlyReached(node, key(kind, namespace, name))) return true;
        for (const volume of this.volumeSecrets.get(key(kind, namespace, name)) ?? []) if (this.volumeReached(node, volume)) return true;
        return false;
      }
      default:
        return this.directlyReached(node, key(kind, namespace, name));
    }
  }

  /** Counts, for tests and metrics: pods, referenced objects, volumes, attachments. */
  size(): { pods: number; objects: number; volumes: number; attachments: number } {
    return { pods: this.pods.size, objects: this.reach.size, volumes: this.volumes.size, attachments: this.attachments.size };
  }

  private directlyReached(node: string, objectKey: string): boolean {
    return (this.reach.get(objectKey)?.get(node) ?? 0) > 0;
  }

  private volumeReached(node: string, volume: string): boolean {
    const claim = this.volumes.get(volume)?.claim;
    return claim !== undefined && this.directlyReached(node, claim);
  }
}
