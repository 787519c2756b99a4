/** Host ports in use on a node, as upstream's HostPortInfo: ip -> set of `protocol/port`. */
import type { HostPort } from './pod-info.js';

const ALL_IPS = '0.0.0.0';

export class HostPortInfo {
  private readonly byIP = new Map<string, Set<string>>();

  add(p: HostPort): void {
    if (p.port <= 0) return;
    let set = this.byIP.get(p.ip);
    if (set === undefined) this.byIP.set(p.ip, (set = new Set()));
    set.add(`${p.protocol}/${p.port}`);
  }

  remove(p: HostPort): void {
    const set = this.byIP.get(p.ip);
    if (set === undefined) return;
    set.delete(`${p.protocol}/${p.port}`);
    if (set.size === 0) this.byIP.delete(p.ip);
  }

  /** A wildcard IP conflicts with the port on any IP; a specific IP with itself or the wildcard. */
  conflicts(p: HostPort): boolean {
    if (p.port <= 0) return false;
    const pp = `${p.protocol}/${p.port}`;
    if (p.ip === ALL_IPS) {
      for (const set of this.byIP.values()) if (set.has(pp)) return true;
      return false;
    }
    return (this.byIP.get(ALL_IPS)?.has(pp) ?? false) || (this.byIP.get(p.ip)?.has(pp) ?? false);
  }

  get size(): number {
    let n = 0;
    for (const s of this.byIP.values()) n += s.size;
    return n;
  }

  clone(): HostPortInfo {
    const c = new HostPortInfo();
    for (const [ip, set] of this.byIP) c.byIP.set(ip, new Set(set));
    return c;
  }
}
