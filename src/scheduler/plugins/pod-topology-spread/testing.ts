/** Builders for the PodTopologySpread tests, shaped like upstream's st.MakePod/MakeNode. */
import type { LabelSelector } from '../../../machinery/label-selector.js';
import type { FrameworkHandle, ObjectLister, SelectorObject } from '../../framework/handle.js';
import type { NodeInfoLister } from '../../framework/snapshot.js';
import type { Node, ObjectWithMeta, Pod, TopologySpreadConstraint } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';

let seq = 0;

export const HOST = ORCH_NAMES.hostnameLabel;

export function exists(key: string): LabelSelector {
  return { matchExpressions: [{ key, operator: 'Exists' }] };
}

export function spread(maxSkew: number, topologyKey: string, whenUnsatisfiable: string, labelSelector?: LabelSelector): TopologySpreadConstraint {
  return { maxSkew, topologyKey, whenUnsatisfiable, labelSelector };
}

export interface PodOpts {
  node?: string;
  ns?: string;
  labels?: Record<string, string>;
  constraints?: TopologySpreadConstraint[];
  /** Required node affinity `key In values`. */
  nodeAffinityIn?: [string, string[]];
  owner?: { apiVersion: string; kind: string; name: string };
}

export function mkPod(o: PodOpts = {}): Pod {
  seq++;
  return {
    metadata: {
      name: `p${seq}`,
      namespace: o.ns ?? '',
      uid: `uid-${seq}`,
      labels: o.labels,
      ownerReferences: o.owner ? [{ ...o.owner, uid: 'owner', controller: true }] : undefined,
    },
    spec: {
      nodeName: o.node,
      containers: [],
      topologySpreadConstraints: o.constraints,
      affinity: o.nodeAffinityIn
        ? {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: o.nodeAffinityIn[0], operator: 'In', values: o.nodeAffinityIn[1] }] }],
              },
            },
          }
        : undefined,
    },
  };
}

export function mkNode(name: string, labels: Record<string, string>): Node {
  return { metadata: { name, labels } };
}

/** An in-memory lister over fixed objects. */
export function listerOf<T extends ObjectWithMeta>(objs: T[] = []): ObjectLister<T> {
  return {
    list: () => objs,
    listInNamespace: (ns) => objs.filter((o) => (o.metadata.namespace ?? '') === ns),
    get: (name, ns) => objs.find((o) => o.metadata.name === name && (ns === undefined || (o.metadata.namespace ?? '') === ns)),
  };
}

/** The handle parts the plugins read. */
export function fakeHandle(snap: NodeInfoLister, objs: { services?: SelectorObject[]; replicaSets?: SelectorObject[] } = {}): FrameworkHandle {
  const empty = listerOf<never>();
  return {
    names: ORCH_NAMES,
    snapshotSharedLister: () => snap,
    listers: {
      pods: empty,
      nodes: empty,
      priorityClasses: empty,
      podDisruptionBudgets: empty,
      persistentVolumes: empty,
      persistentVolumeClaims: empty,
      storageClasses: empty,
      csiNodes: empty,
      services: listerOf(objs.services),
      replicationControllers: listerOf(),
      replicaSets: listerOf(objs.replicaSets),
      statefulSets: listerOf(),
    },
  } as unknown as FrameworkHandle;
}
