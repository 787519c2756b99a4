/**
 * Cluster IPs and node ports for Services, as upstream's service REST storage allocates them:
 * a Service that needs a cluster IP (every type but ExternalName, unless headless) gets a free
 * one from the cluster-IP range, and a NodePort or LoadBalancer Service a free node port per
 * port; a requested IP or port must be in range and free. Allocation is a transaction around
 * one write: what it took is kept when the write stores the Service and given back when the
 * write fails, and what the old Service held but the stored one does not is freed.
 */
import { isPlainObject, metaOf, type Obj } from '../../machinery/object.js';
import { type FieldError, invalid, invalidObject, PrintedValue } from '../../machinery/status.js';
import { goStringSlice } from '../../machinery/validation.js';
import { child, list, num, rec, str, strings, type Rec } from '../../machinery/fields.js';
import { RangeBitmap } from './bitmap.js';
import { type Ipv4Range, ipv4, ipv4Text, type PortRange } from './ranges.js';

/** What one Service holds, as offsets into the two bitmaps. */
interface Holdings {
  ips: Set<number>;
  ports: Set<number>;
}

/** The allocations of one write; exactly one of the three ends it (later calls do nothing). */
export interface Allocation {
  /** The write stored `stored`: keep what it holds, free what this write or the old object held besides. */
  commit(stored: Obj): void;
  /** The write removed the object (its last finalizer went): free what it and this write held. */
  commitRemoval(): void;
  /** The write failed: free what this write took. */
  revert(): void;
}

const NOTHING: Allocation = { commit() {}, commitRemoval() {}, revert() {} };

function portsOf(spec: Rec): Rec[] {
  return list(spec.ports).filter(isPlainObject);
}

function needsClusterIP(spec: Rec): boolean {
  return spec.type !== 'ExternalName' && spec.clusterIP !== 'None';
}

function hasNodePorts(spec: Rec): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

/** Upstream leaves a LoadBalancer's unset node ports empty when allocateLoadBalancerNodePorts is false. */
function allocatesNodePorts(spec: Rec): boolean {
  return spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
}

export class ServiceAllocator {
  /** Offset i is the address base + 1 + i: the network and broadcast addresses are never given. */
  private readonly ips: RangeBitmap;
  /** Offset i is the port min + i. */
  private readonly ports: RangeBitmap;

  constructor(
    private readonly ipRange: Ipv4Range,
    private readonly portRange: PortRange,
    private readonly random: () => number = Math.random,
  ) {
    this.ips = new RangeBitmap(ipRange.size - 2);
    this.ports = new RangeBitmap(portRange.max - portRange.min + 1);
  }

  /** How many cluster IPs and node ports are taken. */
  usage(): { ips: number; ports: number } {
    return { ips: this.ips.count, ports: this.ports.count };
  }

  private ipOffset(text: string): number | undefined {
    const n = ipv4(text);
    if (n === undefined) return undefined;
    const off = n - this.ipRange.base - 1;
    return off >= 0 && off < this.ips.size ? off : undefined;
  }

  private portOffset(port: number): number | undefined {
    return Number.isInteger(port) && port >= this.portRange.min && port <= this.portRange.max ? port - this.portRange.min : undefined;
  }

  /** What a stored Service holds of the two ranges (values outside them hold nothing). */
  private holdings(svc: Obj | undefined): Holdings {
    const out: Holdings = { ips: new Set(), ports: new Set() };
    if (svc === undefined) return out;
    const spec = rec(svc.spec);
    const ips = list(spec.clusterIPs).length > 0 ? strings(spec.clusterIPs) : [str(spec.clusterIP)];
    for (const ip of ips) {
      const off = this.ipOffset(ip);
      if (off !== undefined) out.ips.add(off);
    }
    for (const port of portsOf(spec)) {
      const off = this.portOffset(num(port.nodePort));
      if (off !== undefined) out.ports.add(off);
    }
    return out;
  }

  /** Frees everything, before seeding again from a store whose Services were replaced wholesale. */
  clear(): void {
    this.ips.clear();
    this.ports.clear();
  }

  /** Marks what a stored Service holds (filling the bitmaps from the store at start-up). */
  seed(svc: Obj): void {
    const h = this.holdings(svc);
    for (const off of h.ips) this.ips.allocate(off);
    for (const off of h.ports) this.ports.allocate(off);
  }

  /** Frees what a removed Service held. */
  release(svc: Obj): void {
    const h = this.holdings(svc);
    for (const off of h.ips) this.ips.release(off);
    for (const off of h.ports) this.ports.release(off);
  }

  /**
   * Fills svc's cluster IP and node ports for a create (old undefined) or an update of old, and
   * takes them; 422 Invalid (taking nothing) when a requested one is out of range or taken or a
   * range is full. A dry run checks and fills the same way but takes nothing.
   */
  allocate(svc: Obj, old: Obj | undefined, dryRun: boolean): Allocation {
    const spec = child(svc, 'spec');
    const held = this.holdings(old);
    const taken: Holdings = { ips: new Set(), ports: new Set() };
    const errs: FieldError[] = [];
    const take = (bitmap: RangeBitmap, into: Set<number>, off: number): boolean => {
      if (dryRun) return !bitmap.has(off);
      if (!bitmap.allocate(off)) return false;
      into.add(off);
      return true;
    };
    if (needsClusterIP(spec)) this.allocateIP(spec, held, (off) => take(this.ips, taken.ips, off), errs);
    if (hasNodePorts(spec)) this.allocatePorts(spec, held, (off) => take(this.ports, taken.ports, off), errs);
    if (errs.length > 0) {
      this.free(taken, undefined);
      throw invalidObject('Service', '', metaOf(svc).name ?? '', errs);
    }
    if (dryRun) return NOTHING;
    let done = false;
    const end = (keep: Holdings | undefined): void => {
      if (done) return;
      done = true;
      if (keep !== undefined) {
        for (const off of keep.ips) this.ips.allocate(off);
        for (const off of keep.ports) this.ports.allocate(off);
      }
      this.free(taken, keep);
      this.free(held, keep);
    };
    return {
      commit: (stored) => end(this.holdings(stored)),
      commitRemoval: () => end(undefined),
      revert: () => {
        // Only what this write took: the old object is still stored and holds its own.
        if (done) return;
        done = true;
        this.free(taken, undefined);
      },
    };
  }

  /** Frees every offset of h that keep does not hold. */
  private free(h: Holdings, keep: Holdings | undefined): void {
    for (const off of h.ips) if (!keep?.ips.has(off)) this.ips.release(off);
    for (const off of h.ports) if (!keep?.ports.has(off)) this.ports.release(off);
  }

  private allocateIP(spec: Rec, held: Holdings, take: (off: number) => boolean, errs: FieldError[]): void {
    const requested = str(spec.clusterIP);
    if (requested !== '') {
      const off = this.ipOffset(requested);
      // An update keeps the IP the Service already holds (validation refuses changing it).
      if (off !== undefined && held.ips.has(off)) return;
      const why =
        off === undefined
          ? `provided IP (${requested}) is not in the valid range. The range of valid IPs is ${this.ipRange.text}`
          : !take(off)
            ? 'provided IP is already allocated'
            : undefined;
      if (why !== undefined) {
        errs.push(invalid('spec.clusterIPs', new PrintedValue(goStringSlice([requested], false)), `failed to allocate IP ${requested}: ${why}`));
      }
      return;
    }
    const start = Math.floor(this.random() * this.ips.size);
    const off = this.ips.findFree(start);
    // take() cannot fail on a free offset (a dry run only re-checks it).
    if (off !== undefined && take(off)) {
      const ip = ipv4Text(this.ipRange.base + 1 + off);
      spec.clusterIP = ip;
      spec.clusterIPs = [ip];
      return;
    }
    errs.push(invalid('spec.clusterIPs', new PrintedValue(goStringSlice([], false)), 'failed to allocate a serviceIP: range is full'));
  }

  /**
   * Node ports per port, as upstream's initNodePorts/updateNodePorts: ports with the same port
   * number (TCP and UDP 53) share one node port; requested ones are checked, kept when the old
   * Service held them, and unset ones get a free one.
   */
  private allocatePorts(spec: Rec, held: Holdings, take: (off: number) => boolean, errs: FieldError[]): void {
    const byServicePort = new Map<number, number>();
    const claimed = new Set<number>();
    portsOf(spec).forEach((port, i) => {
      const servicePort = num(port.port);
      const shared = byServicePort.get(servicePort);
      const requested = num(port.nodePort);
      if (requested === 0) {
        if (shared !== undefined) {
          port.nodePort = shared;
          return;
        }
        if (!allocatesNodePorts(spec)) return;
        const start = Math.floor(this.random() * this.ports.size);
        // A dry run takes nothing, so the ports this write already chose are skipped by hand.
        let off = this.ports.findFree(start);
        for (let n = 0; off !== undefined && claimed.has(off) && n < this.ports.size; n++) off = this.ports.findFree(off + 1);
        if (off !== undefined && !claimed.has(off) && take(off)) {
          claimed.add(off);
          port.nodePort = this.portRange.min + off;
          byServicePort.set(servicePort, port.nodePort as number);
          return;
        }
        errs.push(invalid(`spec.ports[${i}].nodePort`, 0, 'failed to allocate a nodePort: range is full'));
        return;
      }
      if (shared === requested) return;
      const off = this.portOffset(requested);
      if (off !== undefined && held.ports.has(off) && !claimed.has(off)) {
        claimed.add(off);
        byServicePort.set(servicePort, requested);
        return;
      }
      const why =
        off === undefined
          ? `provided port is not in the valid range. The range of valid ports is ${this.portRange.min}-${this.portRange.max}`
          : claimed.has(off) || !take(off)
            ? 'provided port is already allocated'
            : undefined;
      if (why !== undefined) {
        errs.push(invalid(`spec.ports[${i}].nodePort`, requested, why));
        return;
      }
      claimed.add(off as number);
      byServicePort.set(servicePort, requested);
    });
  }
}
