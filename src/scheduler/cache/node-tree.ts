/**
 * Node names grouped by zone, listed round-robin across zones (upstream's nodeTree), so that
 * when only a percentage of nodes is examined they come from every zone.
 */
import type { Node } from '../framework/types.js';
import type { WellKnownNames } from '../framework/well-known.js';

/** Upstream's utilnode.GetZoneKey: region and zone (new or legacy labels) joined, "" if neither. */
export function zoneKey(node: Node, names: WellKnownNames): string {
  const l = node.metadata.labels;
  if (l === undefined) return '';
  const region = l[names.regionLabel] ?? l[names.legacyRegionLabel] ?? '';
  const zone = l[names.zoneLabel] ?? l[names.legacyZoneLabel] ?? '';
  if (region === '' && zone === '') return '';
  return `${region}:\x00:${zone}`;
}

export class NodeTree {
  private readonly zones = new Map<string, string[]>();
  private readonly zoneOf = new Map<string, string>();
  private cached: string[] | undefined;

  constructor(private readonly names: WellKnownNames) {}

  get size(): number {
    return this.zoneOf.size;
  }

  add(node: Node): void {
    const name = node.metadata.name ?? '';
    const zone = zoneKey(node, this.names);
    const had = this.zoneOf.get(name);
    if (had === zone) return;
    if (had !== undefined) this.removeName(name);
    let list = this.zones.get(zone);
    if (list === undefined) this.zones.set(zone, (list = []));
    list.push(name);
    this.zoneOf.set(name, zone);
    this.cached = undefined;
  }

  remove(name: string): void {
    if (this.zoneOf.has(name)) this.removeName(name);
  }

  private removeName(name: string): void {
    const zone = this.zoneOf.get(name) ?? '';
    const rest = (this.zones.get(zone) ?? []).filter((n) => n !== name);
    if (rest.length === 0) this.zones.delete(zone);
    else this.zones.set(zone, rest);
    this.zoneOf.delete(name);
    this.cached = undefined;
  }

  /** All names, taking one from each zone in turn. */
  list(): readonly string[] {
    if (this.cached !== undefined) return this.cached;
    const out: string[] = [];
    const lists = [...this.zones.values()];
    for (let i = 0; out.length < this.zoneOf.size; i++) for (const l of lists) if (i < l.length) out.push(l[i]);
    this.cached = out;
    return out;
  }
}
