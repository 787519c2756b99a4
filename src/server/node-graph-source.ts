/**
 * Feeds the Node authorizer's graph from the registry's watch caches (upstream's
 * graph_populator): pods bound to nodes, persistent volumes and volume attachments. The caches
 * are read once at start and followed event by event; a pod whose node did not change is not
 * decoded again (what it refers to cannot change once it is bound).
 * A cache that lost its store watch lists again without events: the source then compares
 * what it had with what is there, so an object deleted in that gap loses its edges.
 */
import { mirrorPodAnnotation } from '../api/core/pod-validation.js';
import { NodeGraph, type PersistentVolumeEdges, type PodEdges } from '../auth/authz/node-graph.js';
import type { Brand } from '../machinery/brand.js';
import { type Rec, rec, str } from '../machinery/fields.js';
import { persistentVolumeSecrets, podClaimNames, podConfigMapNames, podSecretNames } from '../machinery/pod-references.js';
import type { Registry } from '../registry/registry.js';
import { sharedEntryObject } from '../registry/cache-entry.js';
import type { CacheEntry, CacheEvent } from '../storage/cacher/types.js';

export interface NodeGraphSource {
  graph: NodeGraph;
  /** Resolves once every cache has been read into the graph. */
  start(): Promise<void>;
  stop(): void;
}

/** Read-only here: the parse is shared with the entry's selector attributes (one per event). */
const decode = (entry: CacheEntry): Rec => rec(sharedEntryObject(entry) as Rec);

/** The edges of a pod (undefined while it is unbound); a mirror pod reaches nothing but its node. */
export function podEdges(pod: Rec, mirrorAnnotation: string): PodEdges | undefined {
  const node = str(rec(pod.spec).nodeName);
  if (node === '') return undefined;
  // A node must never gain access to other objects by creating a pod (upstream: defence in depth behind NodeRestriction).
  if (Object.hasOwn(rec(rec(pod.metadata).annotations), mirrorAnnotation)) return { node, secrets: [], configMaps: [], claims: [], serviceAccount: '' };
  return {
    node,
    secrets: podSecretNames(pod),
    configMaps: podConfigMapNames(pod),
    claims: podClaimNames(pod),
    serviceAccount: str(rec(pod.spec).serviceAccountName),
  };
}

/** The edges of a persistent volume: its claim and the secrets a kubelet reads to mount it. */
export function persistentVolumeEdges(pv: Rec): PersistentVolumeEdges {
  const claimRef = rec(rec(pv.spec).claimRef);
  const bound = rec(pv.spec).claimRef !== undefined && rec(pv.spec).claimRef !== null;
  return {
    claim: bound ? { namespace: str(claimRef.namespace), name: str(claimRef.name) } : undefined,
    secrets: persistentVolumeSecrets(pv).filter((s) => s.kubeletVisible),
  };
}

export function nodeGraphSource(registry: Registry, brand: Brand): NodeGraphSource {
  const graph = new NodeGraph();
  const mirror = mirrorPodAnnotation(brand);
  const stops: (() => void)[] = [];

  const nameOf = (obj: Rec) => ({ namespace: str(rec(obj.metadata).namespace), name: str(rec(obj.metadata).name) });

  const pod = (event: CacheEvent | { type: 'ADDED' | 'DELETED'; entry: CacheEntry; prev?: undefined }): void => {
    if (event.type === 'DELETED') {
      const { namespace, name } = nameOf(decode(event.entry));
      graph.deletePod(namespace, name);
      return;
    }
    // Once bound, a pod's references are immutable: only a change of node needs a new look.
    if (event.type === 'MODIFIED' && event.prev && event.prev.fields['spec.nodeName'] === event.entry.fields['spec.nodeName']) return;
    if (event.entry.fields['spec.nodeName'] === '') return;
    const obj = decode(event.entry);
    const { namespace, name } = nameOf(obj);
    graph.setPod(namespace, name, podEdges(obj, mirror));
  };

  const volume = (event: CacheEvent | { type: 'ADDED' | 'DELETED'; entry: CacheEntry }): void => {
    const obj = decode(event.entry);
    const { name } = nameOf(obj);
    if (event.type === 'DELETED') graph.deletePersistentVolume(name);
    else graph.setPersistentVolume(name, persistentVolumeEdges(obj));
  };

  const attachment = (event: CacheEvent | { type: 'ADDED' | 'DELETED'; entry: CacheEntry }): void => {
    const obj = decode(event.entry);
    const { name } = nameOf(obj);
    graph.setVolumeAttachment(name, event.type === 'DELETED' ? undefined : str(rec(obj.spec).nodeName));
  };

  const follow = (group: string, resource: string, apply: (e: CacheEvent | { type: 'ADDED' | 'DELETED'; entry: CacheEntry }) => void): void => {
    const cache = registry.byResource(group, resource)?.cache;
    if (!cache) return;
    // The last entry seen per key: when the cache lists again after losing its store watch, it
    // sends no events, so what vanished meanwhile is found by comparing (and loses its access).
    const seen = new Map<string, CacheEntry>();
    const track = (event: CacheEvent | { type: 'ADDED' | 'DELETED'; entry: CacheEntry }): void => {
      if (event.type === 'DELETED') seen.delete(event.entry.key);
      else seen.set(event.entry.key, event.entry);
      apply(event);
    };
    // list and listen in one turn: no event falls between them.
    for (const entry of cache.list()) track({ type: 'ADDED', entry });
    stops.push(
      cache.listen((event) => {
        track(event);
        return true;
      }),
      cache.onRelist(() => {
        const now = new Map(cache.list().map((entry) => [entry.key, entry]));
        for (const [key, entry] of [...seen]) if (!now.has(key)) track({ type: 'DELETED', entry });
        for (const entry of now.values()) if (seen.get(entry.key) !== entry) track({ type: 'ADDED', entry });
      }),
    );
  };

  return {
    graph,
    async start() {
      follow('', 'pods', pod);
      follow('', 'persistentvolumes', volume);
      follow(brand.group('storage', true), 'volumeattachments', attachment);
    },
    stop() {
      for (const stop of stops.splice(0)) stop();
    },
  };
}
