/**
 * The informers the scheduler runs (upstream's scheduler informer factory) and the library's
 * Listers over their stores. Pods are listed without finished ones, as upstream's field
 * selector `status.phase!=Succeeded,status.phase!=Failed`.
 */
import type { RestClient } from '../../client/rest-client.js';
import { type InformerOptions, SharedInformer } from '../../client/informer.js';
import { NAMESPACE_INDEX, type KubeObject } from '../../client/store.js';
import type { Brand } from '../../machinery/brand.js';
import type { Listers, ObjectLister, SelectorObject } from '../framework/handle.js';
import type {
  CSINode,
  Node,
  ObjectWithMeta,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  PriorityClass,
  StorageClass,
} from '../framework/types.js';

/** One informer per kind the scheduler reads. */
export interface SchedulerInformers {
  pods: SharedInformer<Pod & KubeObject>;
  nodes: SharedInformer<Node & KubeObject>;
  persistentVolumes: SharedInformer<PersistentVolume & KubeObject>;
  persistentVolumeClaims: SharedInformer<PersistentVolumeClaim & KubeObject>;
  storageClasses: SharedInformer<StorageClass & KubeObject>;
  csiNodes: SharedInformer<CSINode & KubeObject>;
  services: SharedInformer<SelectorObject & KubeObject>;
  replicationControllers: SharedInformer<SelectorObject & KubeObject>;
  replicaSets: SharedInformer<SelectorObject & KubeObject>;
  statefulSets: SharedInformer<SelectorObject & KubeObject>;
  podDisruptionBudgets: SharedInformer<PodDisruptionBudget & KubeObject>;
}

const NOT_FINISHED = `fieldSelector=${encodeURIComponent('status.phase!=Succeeded,status.phase!=Failed')}`;

/**
 * Pods are kept without metadata.managedFields, as kube-scheduler's pod informer does since
 * kubernetes#119556: the scheduler never reads them nor writes a pod whole (bindings, status
 * patches, deletes), and a pod's managedFields are a third of its objects, which every pod it
 * keeps would carry through the young generation into the old one.
 */
function withoutManagedFields<T extends KubeObject>(pod: T): T {
  if (pod.metadata.managedFields !== undefined) delete pod.metadata.managedFields;
  return pod;
}

/** Builds (does not start) the informers; paths follow the brand's group names. */
export function createInformers(client: RestClient, brand: Brand, common: Partial<InformerOptions<KubeObject>> = {}): SchedulerInformers {
  const make = <T extends KubeObject>(path: string, query?: string, transform?: (obj: T) => T) =>
    new SharedInformer<T>({ ...(common as Partial<InformerOptions<T>>), client, path, query, transform });
  const storage = `/apis/${brand.group('storage', true)}/v1`;
  return {
    pods: make('/api/v1/pods', NOT_FINISHED, withoutManagedFields),
    nodes: make('/api/v1/nodes'),
    persistentVolumes: make('/api/v1/persistentvolumes'),
    persistentVolumeClaims: make('/api/v1/persistentvolumeclaims'),
    storageClasses: make(`${storage}/storageclasses`),
    csiNodes: make(`${storage}/csinodes`),
    services: make('/api/v1/services'),
    replicationControllers: make('/api/v1/replicationcontrollers'),
    replicaSets: make('/apis/apps/v1/replicasets'),
    statefulSets: make('/apis/apps/v1/statefulsets'),
    podDisruptionBudgets: make('/apis/policy/v1/poddisruptionbudgets'),
  };
}

/** Every informer, for starting, stopping and waiting for sync. */
export function allInformers(i: SchedulerInformers): SharedInformer<KubeObject>[] {
  return Object.values(i) as SharedInformer<KubeObject>[];
}

/** An informer's store as the library's lister; `namespaced` picks the namespace index over a full scan. */
function lister<T extends ObjectWithMeta & KubeObject>(informer: SharedInformer<T>, namespaced: boolean): ObjectLister<T> {
  const store = informer.store;
  return {
    list: () => store.list(),
    listInNamespace: (namespace) => (namespaced ? store.byIndex(NAMESPACE_INDEX, namespace) : store.list()),
    get: (name, namespace) => store.get(name, namespaced ? namespace : undefined),
  };
}

/**
 * Upstream's scheduler watches no PriorityClasses (its bootstrap role may not even list them):
 * a pod's priority is already in spec.priority, set by admission. No plugin reads this lister.
 */
const NO_PRIORITY_CLASSES: ObjectLister<PriorityClass> = { list: () => [], listInNamespace: () => [], get: () => undefined };

/** The library's Listers backed by the informers' stores. */
export function listersFor(i: SchedulerInformers): Listers {
  return {
    pods: lister(i.pods, true),
    nodes: lister(i.nodes, false),
    priorityClasses: NO_PRIORITY_CLASSES,
    podDisruptionBudgets: lister(i.podDisruptionBudgets, true),
    persistentVolumes: lister(i.persistentVolumes, false),
    persistentVolumeClaims: lister(i.persistentVolumeClaims, true),
    storageClasses: lister(i.storageClasses, false),
    csiNodes: lister(i.csiNodes, false),
    services: lister(i.services, true),
    replicationControllers: lister(i.replicationControllers, true),
    replicaSets: lister(i.replicaSets, true),
    statefulSets: lister(i.statefulSets, true),
  };
}
