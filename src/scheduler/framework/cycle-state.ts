/**
 * Per-cycle scratch space shared by the plugins of one scheduling cycle: the only way plugins
 * pass data to each other or to their own later extension points. Keys are typed objects, so
 * a read gives back exactly the type that was written.
 */

/** Data stored in CycleState; clone() must give an independent copy (preemption mutates clones). */
export interface StateData {
  clone(): StateData;
}

/** A typed key; create one per plugin datum at module level. */
export class StateKey<T extends StateData> {
  declare readonly _type: T;
  constructor(readonly name: string) {}
}

export class CycleState {
  private readonly data = new Map<StateKey<StateData>, StateData>();
  /** Filter plugins whose PreFilter returned Skip: the runtime does not call their Filter. */
  readonly skipFilterPlugins = new Set<string>();
  /** Score plugins whose PreScore returned Skip. */
  readonly skipScorePlugins = new Set<string>();

  read<T extends StateData>(key: StateKey<T>): T | undefined {
    return this.data.get(key) as T | undefined;
  }

  write<T extends StateData>(key: StateKey<T>, value: T): void {
    this.data.set(key, value);
  }

  delete(key: StateKey<StateData>): void {
    this.data.delete(key);
  }

  /** A deep-enough copy for preemption's what-if runs: every datum cloned, skip sets copied. */
  clone(): CycleState {
    const c = new CycleState();
    for (const [k, v] of this.data) c.data.set(k, v.clone());
    for (const p of this.skipFilterPlugins) c.skipFilterPlugins.add(p);
    for (const p of this.skipScorePlugins) c.skipScorePlugins.add(p);
    return c;
  }
}
