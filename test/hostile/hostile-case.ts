/**
 * What a hostile case is: one request plus what must hold afterwards. Generators (one file per
 * family) build cases from a seeded Rng and the lane they run in; the runner sends them and
 * checks the invariants (no 5xx, no crash, no partial write) and the expected answer.
 */
import type { Rng } from './prng.js';

/**
 * The answer a case must get, as upstream Kubernetes answers it: `refuse` is any 4xx, `accept`
 * any 2xx, `any` anything below 500, a list is the exact codes allowed.
 */
export type Expect = 'refuse' | 'accept' | 'any' | readonly number[];

/** The names a lane owns: its namespace and fixtures no other lane touches. */
export interface LaneContext {
  lane: number;
  /** The lane's namespace, holding its namespaced fixtures. */
  ns: string;
  /** Collection and object paths of the lane's fixtures. */
  cms: string;
  cm: string;
  pods: string;
  pod: string;
  deploys: string;
  deploy: string;
  /** A cluster-scoped Namespace fixture (finalize and status cases); renamed when deleted. */
  nsObj: string;
  nsObjName: string;
}

export interface HostileCase {
  family: string;
  /** The variant within the family, for grouping failures (e.g. `copy chain x40`). */
  variant: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  expect: Expect;
  /** A 504 is the point of this case (a deadline it asked for), not a defect. */
  allow504?: boolean;
  /** The stored object this case may write: it must be unchanged when the case is refused. */
  target?: string;
  /** The path a create would store to: nothing may be there when the create is refused. */
  creates?: string;
  /** A collection the case may delete from: its names must be unchanged when refused. */
  collection?: string;
  /** A watch: the runner reads only the start of the answer, then hangs up. */
  watch?: boolean;
  /** Top-level-to-leaf key paths that must never appear in `target`/`creates` afterwards. */
  neverStored?: readonly (readonly string[])[];
  /** After a 2xx (not a dry run), the written object holds this value at this key path as its own property. */
  presentAfter?: { at: readonly string[]; value: unknown };
}

/** A family of cases: a generator and its share of a run. */
export interface Family {
  name: string;
  /** The lead's area that owns defects this family finds (for the report). */
  owner: string;
  weight: number;
  generate(rng: Rng, ctx: LaneContext): HostileCase;
}

/** True when a status satisfies an expectation. */
export function meets(expect: Expect, status: number): boolean {
  if (expect === 'any') return status > 0 && status < 500;
  if (expect === 'refuse') return status >= 400 && status < 500;
  if (expect === 'accept') return status >= 200 && status < 300;
  return expect.includes(status);
}
