/**
 * PodInfo: a pod plus what every cycle would otherwise recompute from it (requests as numbers,
 * host ports, affinity flags). Built once when the pod enters the cache or queue and shared,
 * never copied, by every NodeInfo clone that holds it.
 */
import { computePodRequests, type PodRequests } from './resources.js';
import { type Pod, podKey, podPriority, podUID } from './types.js';

/** A host port a container asks for; ip "" means 0.0.0.0 and protocol "" means TCP (upstream's sanitize). */
export interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

export class PodInfo {
  readonly key: string;
  readonly uid: string;
  readonly priority: number;
  readonly requests: PodRequests;
  readonly hostPorts: readonly HostPort[];
  /** The pod has pod affinity or pod anti-affinity of any kind (upstream's PodsWithAffinity). */
  readonly hasAffinity: boolean;
  /** The pod has required pod anti-affinity terms. */
  readonly hasRequiredAntiAffinity: boolean;
  private memo: Map<symbol, unknown> | undefined;

  constructor(readonly pod: Pod) {
    this.key = podKey(pod);
    this.uid = podUID(pod);
    this.priority = podPriority(pod);
    this.requests = computePodRequests(pod);
    this.hostPorts = collectHostPorts(pod);
    const a = pod.spec.affinity;
    this.hasAffinity = a !== undefined && (a.podAffinity !== undefined || a.podAntiAffinity !== undefined);
    this.hasRequiredAntiAffinity = (a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
  }

  /**
   * Data a plugin derives from the pod alone (parsed affinity terms, selectors...), computed on
   * first use and kept as long as the pod: plugins add their own without changing this class.
   */
  derived<T>(key: symbol, compute: (pod: Pod) => T): T {
    this.memo ??= new Map();
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const v = compute(this.pod);
    this.memo.set(key, v);
    return v;
  }
}

function collectHostPorts(pod: Pod): HostPort[] {
  let out: HostPort[] | undefined;
  for (const c of pod.spec.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      (out ??= []).push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  }
  return out ?? NO_PORTS;
}

const NO_PORTS: HostPort[] = [];
