/**
 * Cluster IPs and node ports for Services, as upstream's service REST allocates them: a Service
 * that needs a cluster IP (every type but ExternalName, unless headless) gets a free one from
 * --service-cluster-ip-range, and a NodePort or LoadBalancer Service gets a free node port per
 * port from --service-node-port-range; a requested IP or port must be in range and free.
 *
 * What is taken is read from the Services themselves (the watch cache), plus allocations made
 * for writes not yet stored (held until their Service is stored or deleted, or for 30 s when the
 * write failed), so a deleted Service frees its IP and ports with nothing to repair.
 */
import { parseIP } from '../api/core/value-validation.js';
import { isPlainObject, metaOf, type Obj } from '../machinery/object.js';
import { type FieldError, invalid, invalidObject, PrintedValue } from '../machinery/status.js';
import { goStringSlice } from '../machinery/validation.js';
import type { GenericStore } from '../registry/generic-store.js';
import type { Registry } from '../registry/registry.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './admission.js';

/** Upstream's defaults for the two flags. */
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';
export const DEFAULT_SERVICE_NODE_PORT_RANGE = '30000-32767';

/** How long an allocation for a write not yet stored is held (the write lands or fails well before). */
const PENDING_MS = 30_000;

interface Ipv4Range {
  text: string;
  base: number;
  size: number;
}

/** An IPv4 address as a number (parsed as upstream's validation parses IPs), else undefined. */
function ipv4(text: string): number | undefined {
  const ip = parseIP(text);
  if (ip?.family !== 4) return undefined;
  const [a, b, c, d] = ip.bytes;
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function ipv4Text(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Parses an IPv4 CIDR (`10.0.0.0/24`); throws with the flag's error otherwise. */
export function parseClusterIPRange(text: string): Ipv4Range {
  const [addr, bitsText] = text.split('/');
  const ip = ipv4(addr ?? '');
  const bits = Number(bitsText);
  if (ip === undefined || !/^\d{1,2}$/.test(bitsText ?? '') || bits < 8 || bits > 30) {
    throw new Error(`invalid --service-cluster-ip-range ${JSON.stringify(text)}: an IPv4 CIDR with a prefix of /8 to /30`);
  }
  const size = 2 ** (32 - bits);
  return { text, base: ip - (ip % size), size };
}

/** Parses `min-max`; throws with the flag's error otherwise. */
export function parseNodePortRange(text: string): [number, number] {
  const m = /^(\d+)-(\d+)$/.exec(text);
  const [min, max] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  if (!m || min < 1 || max > 65535 || min > max) throw new Error(`invalid --service-node-port-range ${JSON.stringify(text)}: want <min>-<max>`);
  return [min, max];
}

/** An allocation for a write not yet stored: whose, and since when. */
interface Pending {
  owner: string;
  at: number;
}

interface Taken {
  ips: Set<string>;
  ports: Set<number>;
}

function specOf(svc: Obj): Record<string, unknown> {
  return isPlainObject(svc.spec) ? svc.spec : {};
}

function portsOf(spec: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(spec.ports) ? spec.ports.filter(isPlainObject) : [];
}

function needsClusterIP(spec: Record<string, unknown>): boolean {
  return spec.type !== 'ExternalName' && spec.clusterIP !== 'None';
}

function needsNodePorts(spec: Record<string, unknown>): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

/** The mutating plugin allocating cluster IPs and node ports on Service writes. */
export function serviceAllocation(
  registry: Registry,
  ipRange = DEFAULT_SERVICE_CLUSTER_IP_RANGE,
  portRange = DEFAULT_SERVICE_NODE_PORT_RANGE,
): MutatingPlugin & ValidatingPlugin {
  const range = parseClusterIPRange(ipRange);
  const [minPort, maxPort] = parseNodePortRange(portRange);
  const services = registry.byResource('', 'services');
  if (!services) throw new Error('services are not served');
  const pendingIPs = new Map<string, Pending>();
  const pendingPorts = new Map<number, Pending>();

  function forget(owner: string): void {
    for (const [ip, p] of pendingIPs) if (p.owner === owner) pendingIPs.delete(ip);
    for (const [port, p] of pendingPorts) if (p.owner === owner) pendingPorts.delete(port);
  }

  /** Everything stored Services hold, and what recent writes were given, except the Service being written. */
  function taken(store: GenericStore, self: string): Taken {
    const now = Date.now();
    for (const [ip, p] of pendingIPs) if (now - p.at > PENDING_MS) pendingIPs.delete(ip);
    for (const [port, p] of pendingPorts) if (now - p.at > PENDING_MS) pendingPorts.delete(port);
    const out: Taken = { ips: new Set(), ports: new Set() };
    for (const entry of store.cache?.list() ?? []) {
      const svc = JSON.parse(entry.json.toString('utf8')) as Obj;
      const meta = metaOf(svc);
      const spec = specOf(svc);
      const ips = (Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [spec.clusterIP]).filter((ip): ip is string => typeof ip === 'string');
      const ports = portsOf(spec).flatMap((p) => (typeof p.nodePort === 'number' ? [p.nodePort] : []));
      const owner = `${meta.namespace}/${meta.name}`;
      // A stored Service holds its allocations from now on: deleting it frees them.
      forget(owner);
      if (owner === self) continue;
      for (const ip of ips) out.ips.add(ip);
      for (const p of ports) out.ports.add(p);
    }
    for (const ip of pendingIPs.keys()) out.ips.add(ip);
    for (const p of pendingPorts.keys()) out.ports.add(p);
    return out;
  }

  function allocateIP(spec: Record<string, unknown>, used: Taken, owner: string, errs: FieldError[]): void {
    const requested = typeof spec.clusterIP === 'string' && spec.clusterIP !== '' ? spec.clusterIP : undefined;
    if (requested !== undefined) {
      const n = ipv4(requested);
      const why =
        n === undefined || n <= range.base || n >= range.base + range.size - 1
          ? `provided IP (${requested}) is not in the valid range. The range of valid IPs is ${range.text}`
          : used.ips.has(requested)
            ? 'provided IP is already allocated'
            : undefined;
      if (why !== undefined)
        errs.push(invalid('spec.clusterIPs', new PrintedValue(goStringSlice([requested], false)), `failed to allocate IP ${requested}: ${why}`));
      else pendingIPs.set(requested, { owner, at: Date.now() });
      spec.clusterIPs = [requested];
      return;
    }
    // Upstream scans from a random offset; the network and broadcast addresses are never given.
    const usable = range.size - 2;
    const start = Math.floor(Math.random() * usable);
    for (let i = 0; i < usable; i++) {
      const ip = ipv4Text(range.base + 1 + ((start + i) % usable));
      if (used.ips.has(ip)) continue;
      pendingIPs.set(ip, { owner, at: Date.now() });
      spec.clusterIP = ip;
      spec.clusterIPs = [ip];
      return;
    }
    errs.push(invalid('spec.clusterIPs', new PrintedValue(goStringSlice([], false)), 'failed to allocate a serviceIP: range is full'));
  }

  function allocatePorts(spec: Record<string, unknown>, used: Taken, owner: string, errs: FieldError[]): void {
    portsOf(spec).forEach((port, i) => {
      if (typeof port.nodePort === 'number' && port.nodePort !== 0) {
        const p = port.nodePort;
        const why =
          p < minPort || p > maxPort
            ? `provided port is not in the valid range. The range of valid ports is ${minPort}-${maxPort}`
            : used.ports.has(p)
              ? 'provided port is already allocated'
              : undefined;
        if (why !== undefined) errs.push(invalid(`spec.ports[${i}].nodePort`, p, why));
        used.ports.add(p);
        pendingPorts.set(p, { owner, at: Date.now() });
        return;
      }
      const span = maxPort - minPort + 1;
      const start = Math.floor(Math.random() * span);
      for (let k = 0; k < span; k++) {
        const p = minPort + ((start + k) % span);
        if (used.ports.has(p)) continue;
        used.ports.add(p);
        pendingPorts.set(p, { owner, at: Date.now() });
        port.nodePort = p;
        return;
      }
      errs.push(invalid(`spec.ports[${i}].nodePort`, 0, 'failed to allocate a nodePort: range is full'));
    });
  }

  return {
    name: 'ServiceAllocation',
    admit(a: AdmissionAttributes) {
      if (a.subresource !== '' || a.resource.group !== '' || a.resource.plural !== 'services') return;
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      const spec = isPlainObject(a.object.spec) ? a.object.spec : {};
      const old = a.oldObject === undefined ? {} : specOf(a.oldObject);
      const owner = `${a.namespace}/${metaOf(a.object).name}`;
      const used = taken(services, owner);
      const errs: FieldError[] = [];
      // An update keeps what the Service holds (validation refuses changing a cluster IP).
      const keepsIP = typeof old.clusterIP === 'string' && old.clusterIP !== '' && old.clusterIP === spec.clusterIP;
      if (needsClusterIP(spec) && !keepsIP) allocateIP(spec, used, owner, errs);
      if (needsNodePorts(spec)) {
        const kept = new Set(portsOf(old).map((p) => p.nodePort));
        for (const p of portsOf(spec)) if (kept.has(p.nodePort)) used.ports.delete(p.nodePort as number);
        allocatePorts(spec, used, owner, errs);
      }
      if (errs.length > 0) throw invalidObject('Service', '', metaOf(a.object).name ?? '', errs);
    },
    validate(a: AdmissionAttributes) {
      // A Service deleted before the cache showed it stored releases what its create was given.
      if (a.operation === 'DELETE' && a.subresource === '' && a.resource.group === '' && a.resource.plural === 'services') forget(`${a.namespace}/${a.name}`);
    },
  };
}
