/**
 * The numbers NodeResourcesFit's filter and the resource scores read for each node of a
 * snapshot, kept side by side in one Float64Array. The filter runs on hundreds of nodes per pod; read from the NodeInfo they
 * are spread over the pod list, two Resource objects and the boxed doubles of their byte counts,
 * so each node cost several cache misses: in bench:scheduler-e2e (5,000 nodes, the API server
 * sharing the cores) the fit check was a fifth of the scheduler's CPU, and with the filter on
 * rows the misses moved to the first resource score. A row per node keeps a
 * cycle's window of nodes in consecutive memory.
 *
 * A row mirrors its NodeInfo: NodeInfo rewrites it on every change (pods added or removed,
 * node replaced). Clones carry no row, so what preemption and nominated pods change on a copy
 * never reaches the table.
 */
import type { Resource } from './resources.js';

/** What a row mirrors: a NodeInfo (named by shape, as node-info.ts imports this module). */
export interface FitRowSource {
  fitRows: FitRows | undefined;
  fitRow: number;
  readonly pods: readonly unknown[];
  readonly allocatable: Resource;
  readonly requested: Resource;
  readonly nonZeroRequested: Resource;
}

/**
 * Columns of a row: pods allowed, pods placed, allocatable and requested cpu, memory and
 * ephemeral storage, then the non-zero requests of cpu and memory (scoring's).
 */
export const FIT_COLUMNS = 10;
export const FIT_ALLOWED_PODS = 0;
export const FIT_PODS = 1;
export const FIT_ALLOCATABLE_CPU = 2;
export const FIT_REQUESTED_CPU = 3;
export const FIT_ALLOCATABLE_MEMORY = 4;
export const FIT_REQUESTED_MEMORY = 5;
export const FIT_ALLOCATABLE_EPHEMERAL = 6;
export const FIT_REQUESTED_EPHEMERAL = 7;
export const FIT_NONZERO_CPU = 8;
export const FIT_NONZERO_MEMORY = 9;

export class FitRows {
  table = new Float64Array(64 * FIT_COLUMNS);
  private readonly free: number[] = [];
  private next = 0;

  /** Gives the NodeInfo a row (its own again if it has one here) and fills it. */
  attach(ni: FitRowSource): void {
    if (ni.fitRows !== this) {
      let row = this.free.pop();
      if (row === undefined) {
        row = this.next++;
        if ((row + 1) * FIT_COLUMNS > this.table.length) {
          const grown = new Float64Array(this.table.length * 2);
          grown.set(this.table);
          this.table = grown;
        }
      }
      ni.fitRows = this;
      ni.fitRow = row;
    }
    this.write(ni);
  }

  /** Takes the NodeInfo's row back (the node left the snapshot). */
  detach(ni: FitRowSource): void {
    if (ni.fitRows !== this) return;
    this.free.push(ni.fitRow);
    ni.fitRows = undefined;
    ni.fitRow = -1;
  }

  /** Copies the NodeInfo's current numbers into its row. */
  write(ni: FitRowSource): void {
    const t = this.table;
    const o = ni.fitRow * FIT_COLUMNS;
    const alloc = ni.allocatable;
    const used = ni.requested;
    t[o + FIT_ALLOWED_PODS] = alloc.allowedPodNumber;
    t[o + FIT_PODS] = ni.pods.length;
    t[o + FIT_ALLOCATABLE_CPU] = alloc.milliCPU;
    t[o + FIT_REQUESTED_CPU] = used.milliCPU;
    t[o + FIT_ALLOCATABLE_MEMORY] = alloc.memory;
    t[o + FIT_REQUESTED_MEMORY] = used.memory;
    t[o + FIT_ALLOCATABLE_EPHEMERAL] = alloc.ephemeralStorage;
    t[o + FIT_REQUESTED_EPHEMERAL] = used.ephemeralStorage;
    t[o + FIT_NONZERO_CPU] = ni.nonZeroRequested.milliCPU;
    t[o + FIT_NONZERO_MEMORY] = ni.nonZeroRequested.memory;
  }
}
