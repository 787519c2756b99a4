/**
 * Per-node results memoized across scheduling cycles. A value is computed from one NodeInfo
 * (its node and pods) and a string key that names everything else it depends on (the incoming
 * pod's namespace, labels, terms); it is reused while the NodeInfo's generation is unchanged.
 * Every change to a NodeInfo (pods added or removed, node replaced) takes a new, globally unique
 * generation, so a stale value is never returned. The number of keys kept is bounded.
 */
import type { NodeInfo } from './node-info.js';

interface Entry<T> {
  generation: number;
  value: T;
}

export class NodeMemo<T> {
  private readonly tables = new Map<string, WeakMap<NodeInfo, Entry<T>>>();

  constructor(private readonly maxKeys = 16) {}

  /** The table of one key; the least recently used key is dropped beyond maxKeys. */
  table(key: string): NodeMemoTable<T> {
    let t = this.tables.get(key);
    if (t !== undefined) {
      this.tables.delete(key);
    } else {
      t = new WeakMap();
      if (this.tables.size >= this.maxKeys) this.tables.delete(this.tables.keys().next().value as string);
    }
    this.tables.set(key, t);
    return new NodeMemoTable(t);
  }
}

export class NodeMemoTable<T> {
  constructor(private readonly t: WeakMap<NodeInfo, Entry<T>>) {}

  /** The memoized value for the NodeInfo, computed when missing or stale. */
  get(ni: NodeInfo, compute: (ni: NodeInfo) => T): T {
    const e = this.t.get(ni);
    if (e !== undefined && e.generation === ni.generation) return e.value;
    const value = compute(ni);
    if (e !== undefined) {
      e.generation = ni.generation;
      e.value = value;
    } else {
      this.t.set(ni, { generation: ni.generation, value });
    }
    return value;
  }
}
