/**
 * The two ranges Services are given addresses from: --service-cluster-ip-range (an IPv4 CIDR)
 * and --service-node-port-range (`min-max`), parsed once at start-up.
 */
import { parseIP } from '../../api/core/value-validation.js';

/** Upstream's defaults for the two flags. */
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';
export const DEFAULT_SERVICE_NODE_PORT_RANGE = '30000-32767';

export interface Ipv4Range {
  /** The flag's text, as errors quote it. */
  text: string;
  /** The network address as a number. */
  base: number;
  /** Addresses in the block, network and broadcast included. */
  size: number;
}

export interface PortRange {
  min: number;
  max: number;
}

/** An IPv4 address as a number (parsed as upstream's validation parses IPs), else undefined. */
export function ipv4(text: string): number | undefined {
  const ip = parseIP(text);
  if (ip?.family !== 4) return undefined;
  const [a, b, c, d] = ip.bytes;
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

export function ipv4Text(n: number): string {
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
export function parseNodePortRange(text: string): PortRange {
  const m = /^(\d+)-(\d+)$/.exec(text);
  const [min, max] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  if (!m || min < 1 || max > 65535 || min > max) throw new Error(`invalid --service-node-port-range ${JSON.stringify(text)}: want <min>-<max>`);
  return { min, max };
}
