/**
 * A deterministic in-memory cluster: stores of every kind the scheduler reads, exposed through
 * the same Listers, Binder, SchedulerClient and EventRecorder interfaces the process will back
 * with the API server. UIDs, resource versions and timestamps come from counters and the
 * injected clock, so a run is reproducible.
 */
import type { Clock } from '../framework/clock.js';
import type { Binder, Binding, EventRecorder, EventType, Listers, SchedulerClient, SelectorObject } from '../framework/handle.js';
import type {
  CSINode,
  Node,
  ObjectWithMeta,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodCondition,
  PodDisruptionBudget,
  PriorityClass,
  StorageClass,
} from '../framework/types.js';
import type { SchedulerEventHandlers } from '../event-handlers.js';
import { ORCH_NAMES, type WellKnownNames } from '../framework/well-known.js';
import type { VolumeBinderClient } from '../plugins/volume-binding/client.js';
import { storageNames } from '../plugins/volume-binding/volume-util.js';
import { ObjectStore } from './object-store.js';

export interface RecordedEvent {
  regarding: string;
  type: EventType;
  reason: string;
  action: string;
  message: string;
}

export class SimulatedCluster implements Listers, Binder, SchedulerClient, EventRecorder, VolumeBinderClient {
  private version = 0;
  private uid = 0;
  private readonly v = () => String(++this.version);
  readonly pods = new ObjectStore<Pod>('pods', this.v);
  readonly nodes = new ObjectStore<Node>('nodes', this.v);
  readonly priorityClasses = new ObjectStore<PriorityClass>('priorityclasses', this.v);
  readonly podDisruptionBudgets = new ObjectStore<PodDisruptionBudget>('poddisruptionbudgets', this.v);
  readonly persistentVolumes = new ObjectStore<PersistentVolume>('persistentvolumes', this.v);
  readonly persistentVolumeClaims = new ObjectStore<PersistentVolumeClaim>('persistentvolumeclaims', this.v);
  readonly storageClasses = new ObjectStore<StorageClass>('storageclasses', this.v);
  readonly csiNodes = new ObjectStore<CSINode>('csinodes', this.v);
  readonly services = new ObjectStore<SelectorObject>('services', this.v);
  readonly replicationControllers = new ObjectStore<SelectorObject>('replicationcontrollers', this.v);
  readonly replicaSets = new ObjectStore<SelectorObject>('replicasets', this.v);
  readonly statefulSets = new ObjectStore<SelectorObject>('statefulsets', this.v);
  readonly events: RecordedEvent[] = [];
  /** Bindings that completed, in order. */
  readonly bindings: Binding[] = [];

  constructor(
    private readonly clock: Clock,
    /** Label domain of the storage annotations the simulated PV controller writes. */
    private readonly names: WellKnownNames = ORCH_NAMES,
  ) {}

  /** Fills uid, creationTimestamp and namespace defaults as the API server would. */
  private prepare<T extends ObjectWithMeta>(obj: T, namespaced: boolean): T {
    const m = obj.metadata;
    return {
      ...obj,
      metadata: {
        ...m,
        namespace: namespaced ? (m.namespace ?? 'default') : undefined,
        uid: m.uid ?? `uid-${++this.uid}`,
        creationTimestamp: m.creationTimestamp ?? new Date(this.clock.now()).toISOString(),
      },
    };
  }

  addNode(node: Node): Node {
    return this.nodes.create(this.prepare(node, false));
  }

  /** Creates a pod; spec.schedulerName defaults to default-scheduler, priority from its PriorityClass as admission does. */
  addPod(pod: Pod): Pod {
    const spec = { ...pod.spec, schedulerName: pod.spec.schedulerName || 'default-scheduler' };
    if (spec.priority === undefined) {
      const pc = spec.priorityClassName ? this.priorityClasses.get(spec.priorityClassName) : this.priorityClasses.list().find((c) => c.globalDefault);
      if (pc !== undefined) spec.priority = pc.value;
    }
    return this.pods.create(this.prepare({ ...pod, spec }, true));
  }

  addObject<T extends ObjectWithMeta>(store: ObjectStore<T>, obj: T, namespaced: boolean): T {
    return store.create(this.prepare(obj, namespaced));
  }

  // ---- Binder ----

  async bind(b: Binding): Promise<void> {
    const pod = this.pods.get(b.metadata.name, b.metadata.namespace);
    if (pod === undefined) throw new Error(`pods "${b.metadata.name}" not found`);
    if (b.metadata.uid && pod.metadata.uid !== b.metadata.uid) throw new Error(`pods "${b.metadata.name}" uid mismatch`);
    if (pod.spec.nodeName) throw new Error(`pod ${b.metadata.name} is already assigned to node "${pod.spec.nodeName}"`);
    this.pods.update(b.metadata.name, b.metadata.namespace, (p) => ({
      ...p,
      spec: { ...p.spec, nodeName: b.target.name },
      status: { ...p.status, conditions: setCondition(p.status?.conditions, { type: 'PodScheduled', status: 'True' }) },
    }));
    this.bindings.push(b);
  }

  // ---- VolumeBinderClient: the PV controller and provisioner, done at once ----

  /** Binds both ways as the PV controller would after the scheduler set the PV's claimRef. */
  async bindVolume(pvc: PersistentVolumeClaim, pv: PersistentVolume): Promise<void> {
    const sn = storageNames(this.names);
    const claim = this.persistentVolumeClaims.get(pvc.metadata.name ?? '', pvc.metadata.namespace);
    if (claim === undefined) throw new Error(`persistentvolumeclaims "${pvc.metadata.name}" not found`);
    this.persistentVolumes.update(pv.metadata.name ?? '', undefined, (v) => ({
      ...v,
      spec: { ...v.spec, claimRef: { namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid } },
      status: { ...v.status, phase: 'Bound' },
    }));
    this.persistentVolumeClaims.update(claim.metadata.name ?? '', claim.metadata.namespace, (c) => ({
      ...c,
      metadata: { ...c.metadata, annotations: { ...c.metadata.annotations, [sn.bindCompletedAnnotation]: 'yes' } },
      spec: { ...c.spec, volumeName: pv.metadata.name },
      status: { ...c.status, phase: 'Bound' },
    }));
  }

  /** Provisions a PV of the requested size for the claim on the selected node and binds them. */
  async provisionVolume(pvc: PersistentVolumeClaim, nodeName: string): Promise<void> {
    const sn = storageNames(this.names);
    const claim = this.persistentVolumeClaims.get(pvc.metadata.name ?? '', pvc.metadata.namespace);
    if (claim === undefined) throw new Error(`persistentvolumeclaims "${pvc.metadata.name}" not found`);
    const selected = this.persistentVolumeClaims.update(claim.metadata.name ?? '', claim.metadata.namespace, (c) => ({
      ...c,
      metadata: { ...c.metadata, annotations: { ...c.metadata.annotations, [sn.selectedNodeAnnotation]: nodeName } },
    }));
    const pv = this.addObject(
      this.persistentVolumes,
      {
        metadata: { name: `pvc-${selected.metadata.uid}` },
        spec: {
          capacity: { storage: selected.spec.resources?.requests?.storage ?? '0' },
          accessModes: selected.spec.accessModes,
          storageClassName: selected.spec.storageClassName ?? undefined,
        },
        status: { phase: 'Available' },
      },
      false,
    );
    await this.bindVolume(selected, pv);
  }

  // ---- SchedulerClient ----

  async updatePodStatus(pod: Pod, condition: PodCondition, nominatedNodeName?: string): Promise<void> {
    if (this.pods.get(pod.metadata.name ?? '', pod.metadata.namespace) === undefined) return;
    this.pods.update(pod.metadata.name ?? '', pod.metadata.namespace, (p) => ({
      ...p,
      status: {
        ...p.status,
        conditions: setCondition(p.status?.conditions, condition),
        ...(nominatedNodeName !== undefined ? { nominatedNodeName } : {}),
      },
    }));
  }

  async deletePod(pod: Pod): Promise<void> {
    this.pods.delete(pod.metadata.name ?? '', pod.metadata.namespace);
  }

  // ---- EventRecorder ----

  event(regarding: ObjectWithMeta, type: EventType, reason: string, action: string, message: string): void {
    this.events.push({ regarding: `${regarding.metadata.namespace ?? ''}/${regarding.metadata.name ?? ''}`, type, reason, action, message });
  }

  /** Wires a scheduler's handlers to every store (existing objects are replayed as adds). */
  connect(h: SchedulerEventHandlers): void {
    this.nodes.subscribe(h.nodes);
    this.pods.subscribe(h.pods);
    this.persistentVolumes.subscribe(h.other('PersistentVolume'));
    this.persistentVolumeClaims.subscribe(h.other('PersistentVolumeClaim'));
    this.storageClasses.subscribe(h.other('StorageClass'));
    this.csiNodes.subscribe(h.other('CSINode'));
    this.services.subscribe(h.other('Service'));
    this.podDisruptionBudgets.subscribe(h.other('PodDisruptionBudget'));
  }
}

function setCondition(conds: PodCondition[] | undefined, c: PodCondition): PodCondition[] {
  const out = (conds ?? []).filter((x) => x.type !== c.type);
  out.push(c);
  return out;
}
