/**
 * Per-cycle scratch space shared by the plugins of one scheduling cycle: the only way plugins
 * pass data to each other or to their own later extension points. Keys are typed objects, so
 * a read gives back exactly the type that was written.
 */

/** Data stored in CycleState; clone() must give an independent copy (preemption mutates clones). */
export interface StateData {
  clone(): StateData;
}

let nextKeyIndex = 0;

/** A typed key; create one per plugin datum at module level. */
export class StateKey<T extends StateData> {
  declare readonly _type: T;
  /** The key's slot in every CycleState (reads are array loads, not map lookups). */
  readonly index = nextKeyIndex++;
  constructor(readonly name: string) {}
}

/**
 * A set of plugin names that counts its changes, so what is derived from it (the runtime's
 * filter skip mask) can be cached until it changes.
 */
export class NameSet extends Set<string> {
  version = 0;

  override add(name: string): this {
    if (!this.has(name)) this.version++;
    return super.add(name);
  }

  override delete(name: string): boolean {
    const removed = super.delete(name);
    if (removed) this.version++;
    return removed;
  }

  override clear(): void {
    if (this.size > 0) this.version++;
    super.clear();
  }
}

export class CycleState {
  /** Data by key index; undefined where nothing is written. */
  private slots: (StateData | undefined)[] = new Array(nextKeyIndex).fill(undefined);
  /** Filter plugins whose PreFilter returned Skip: the runtime does not call their Filter. */
  readonly skipFilterPlugins = new NameSet();
  /** Score plugins whose PreScore returned Skip. */
  readonly skipScorePlugins = new NameSet();
  /** The runtime's per-plugin skip flags derived from skipFilterPlugins (at `filterSkipVersion`). */
  filterSkip: Uint8Array | undefined = undefined;
  filterSkipVersion = -1;

  read<T extends StateData>(key: StateKey<T>): T | undefined {
    const i = key.index;
    return i < this.slots.length ? (this.slots[i] as T | undefined) : undefined;
  }

  write<T extends StateData>(key: StateKey<T>, value: T): void {
    const i = key.index;
    while (this.slots.length <= i) this.slots.push(undefined);
    this.slots[i] = value;
  }

  delete(key: StateKey<StateData>): void {
    if (key.index < this.slots.length) this.slots[key.index] = undefined;
  }

  /** A deep-enough copy for preemption's what-if runs: every datum cloned, skip sets copied. */
  clone(): CycleState {
    const c = new CycleState();
    c.slots = this.slots.map((v) => v?.clone());
    for (const p of this.skipFilterPlugins) c.skipFilterPlugins.add(p);
    for (const p of this.skipScorePlugins) c.skipScorePlugins.add(p);
    return c;
  }
}
