/**
 * structured-merge-diff's merging walker: visits two values of one type side by side (lhs the
 * live object, rhs the applied or new one), calling a rule on every leaf (scalar, atomic list or
 * map, or a list or map empty on both sides) and an optional hook after every other node.
 * Merge keeps the rhs at each leaf; Compare records what was added, modified or removed.
 * An absent value is `undefined`; `null` is a present value.
 */
import { type PathElement, pathElementString } from '../path-element.js';
import type { Atom, ListAtom, MapAtom } from '../typed-schema.js';
import { isMap } from '../value.js';
import { fieldType, keyOf, ListItemError, listItemElement, TypedError } from './atoms.js';
import { setOwn } from '../../../machinery/own-property.js';
import type { Due } from '../../../machinery/pace.js';
import { atOnce, LARGE_MAP, PIECE, type Steps, stepped, type Work } from '../../work.js';

/**
 * One node of the walk: both sides at a path. The path is the walk's one stack, valid only
 * during the call a node is passed to (a rule keeps a copy if it needs one).
 */
export interface WalkNode {
  readonly lhs: unknown;
  readonly rhs: unknown;
  readonly path: readonly PathElement[];
}

export interface MergeRules {
  /** Called once per leaf; returns the merged value (undefined: none). */
  leaf(node: WalkNode): unknown;
  /** Called after a non-leaf node has been merged. */
  postItem?(node: WalkNode): void;
  /** True when a list or map equal on both sides is not walked at all: it yields nothing (compare). */
  readonly skipEqual?: boolean;
  /** False when only the rules' effects matter (compare): no output is built. */
  readonly output: boolean;
}

/** The merged value of lhs and rhs (undefined when none); throws TypedError on duplicate keys. */
export function mergeWalk(lhs: unknown, rhs: unknown, atom: Atom, rules: MergeRules): unknown {
  const c = atOnce((w) => mergeWalkIn(lhs, rhs, atom, rules, w));
  return endWalk(c);
}

/** mergeWalk in pieces (../../work.ts), pausing between them when due. */
export function mergeWalkSteps(lhs: unknown, rhs: unknown, atom: Atom, rules: MergeRules, due: Due): Steps<unknown> {
  return stepped((w) => mergeWalkIn(lhs, rhs, atom, rules, w), due, endWalk);
}

/** One walk: its rules, its errors and its work. */
export interface Walk {
  readonly rules: MergeRules;
  readonly errs: TypedError[];
  readonly work: Work;
  out: unknown;
  // The keys of the large maps seen, which the equality checks at each of their ancestors and
  // the map's own walk would otherwise list again (listing 100,000 keys takes milliseconds).
  large?: Map<object, string[]>;
}

/** A walk run as part of work w (its merged value and errors complete once w is drained). */
export function mergeWalkIn(lhs: unknown, rhs: unknown, atom: Atom, rules: MergeRules, work: Work): Walk {
  const c: Walk = { rules, errs: [], work, out: undefined, large: undefined };
  const path: PathElement[] = [];
  c.out = mergeNode({ lhs, rhs, path }, path, atom, c);
  return c;
}

/** A walk's merged value once its work is drained; throws its first TypedError. */
export function endWalk(c: Walk): unknown {
  if (c.errs.length > 0) throw c.errs[0];
  return c.out;
}

interface State {
  inLeaf: boolean;
  out: unknown;
}

// path is node.path, writable: a child's walk pushes its element and pops it when done.
function mergeNode(node: WalkNode, path: PathElement[], atom: Atom, c: Walk): unknown {
  if (node.lhs === undefined && node.rhs === undefined) return undefined;
  if (c.rules.skipEqual && isObject(node.lhs) && isObject(node.rhs) && equalWithin(node.lhs, node.rhs, c)) return undefined;
  const state: State = { inLeaf: false, out: undefined };
  const left = deduced(atom, node.lhs);
  const right = deduced(atom, node.rhs);
  // An absent side takes the other's form; two forms are each walked (the lhs one for effect).
  if (node.rhs === undefined) handle(left, atom, node, path, state, c);
  else if (node.lhs === undefined || left === right) handle(right, atom, node, path, state, c);
  else {
    handle(left, atom, node, path, { ...state }, c);
    handle(right, atom, node, path, state, c);
  }
  if (!state.inLeaf) c.rules.postItem?.(node);
  return state.out;
}

type Deduced = 'map' | 'list' | 'scalar' | 'all';

// deduceAtom: the one form matching the value, else the atom as a whole ('all').
function deduced(atom: Atom, v: unknown): Deduced {
  if (v !== undefined && v !== null) {
    if (Array.isArray(v)) {
      if (atom.list) return 'list';
    } else if (typeof v === 'object') {
      if (atom.map) return 'map';
    } else if (atom.scalar) return 'scalar';
  }
  return 'all';
}

// handleAtom: the deduced form, or for the whole atom the first of map, scalar, list.
function handle(d: Deduced, atom: Atom, node: WalkNode, path: PathElement[], state: State, c: Walk): void {
  if ((d === 'map' || d === 'all') && atom.map) doMap(atom.map, node, path, state, c);
  else if ((d === 'scalar' || d === 'all') && atom.scalar) doLeaf(node, state, c.rules);
  else if ((d === 'list' || d === 'all') && atom.list) doList(atom.list, node, path, state, c);
  else c.errs.push(new TypedError([...path], 'schema error: invalid atom: inlined'));
}

function doLeaf(node: WalkNode, state: State, rules: MergeRules): void {
  // Inside a "big leaf" (an atomic list or map) nothing below is visited again.
  if (state.inLeaf) return;
  state.inLeaf = true;
  state.out = rules.leaf(node);
}

function asList(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

function asMap(v: unknown): Record<string, unknown> | undefined {
  return isMap(v) ? v : undefined;
}

function doList(t: ListAtom, node: WalkNode, path: PathElement[], state: State, c: Walk): void {
  const lhs = asList(node.lhs);
  const rhs = asList(node.rhs);
  // Empty or null on both sides is a leaf, which keeps the empty/null distinction.
  const emptyBoth = (lhs === undefined || lhs.length === 0) && (rhs === undefined || rhs.length === 0);
  if (t.relationship === 'atomic' || emptyBoth) doLeaf(node, state, c.rules);
  else if (lhs !== undefined || rhs !== undefined) {
    const merge = new ListMerge(t, lhs ?? [], rhs ?? [], path);
    // A merge that goes on in later pieces hands over its output now (its items are always
    // values, so it is not empty).
    if (!merge.run(c) || merge.out.length > 0) state.out = merge.out;
  }
}

interface Indexed {
  pes: PathElement[];
  byId: Map<string, unknown>;
}

/**
 * The merge of two associative or set lists, in phases that can each stop and go on in a later
 * piece: naming the rhs items, naming the lhs items, finding the shared ones, merging.
 *
 * The merged order keeps the rhs order of the items both sides share, with lhs-only items
 * staying where they were relative to them and rhs-only items placed as the rhs places them.
 */
class ListMerge {
  private phase = 0;
  private i = 0;
  private readonly r: Indexed = { pes: [], byId: new Map() };
  private readonly l: Indexed = { pes: [], byId: new Map() };
  private readonly shared: PathElement[] = [];
  // The shared item due next, in rhs order (upstream's nextShared).
  private next = 0;
  private li = 0;
  private ri = 0;
  readonly out: unknown[] = [];

  constructor(
    private readonly t: ListAtom,
    private readonly lhsList: unknown[],
    private readonly rhsList: unknown[],
    private path: PathElement[],
  ) {}

  /** Runs the merge; false when its piece was spent and it goes on in a deferred rest. */
  run(c: Walk): boolean {
    if (this.phase === 0 && !this.index(this.rhsList, this.r, c)) return this.defer(c);
    if (this.phase === 1 && !this.index(this.lhsList, this.l, c)) return this.defer(c);
    if (this.phase === 2) {
      const { r, l } = this;
      for (; this.i < r.pes.length; this.i++) {
        if (c.work.spend()) return this.defer(c);
        if (l.byId.has(r.pes[this.i].id)) this.shared.push(r.pes[this.i]);
      }
      this.phase++;
    }
    return this.merge(c) || this.defer(c);
  }

  private defer(c: Walk): false {
    const path = [...this.path];
    this.path = path;
    c.work.defer(() => this.run(c));
    return false;
  }

  private index(list: unknown[], into: Indexed, c: Walk): boolean {
    let i = this.i;
    for (; i < list.length; i++) {
      if (c.work.spend()) {
        this.i = i;
        return false;
      }
      let pe: PathElement;
      try {
        pe = listItemElement(this.t, i, list[i]);
      } catch (e) {
        if (!(e instanceof ListItemError)) throw e;
        c.errs.push(new TypedError([...this.path], `element ${i}: ${e.message}`));
        continue;
      }
      if (into.byId.has(pe.id)) {
        c.errs.push(new TypedError([...this.path], `duplicate entries for key ${pathElementString(pe)}`));
        continue;
      }
      into.byId.set(pe.id, list[i]);
      into.pes.push(pe);
    }
    this.phase++;
    this.i = 0;
    return true;
  }

  private item(pe: PathElement, lhs: unknown, rhs: unknown, c: Walk): void {
    const path = this.path;
    path.push(pe);
    const merged = mergeNode({ lhs, rhs, path }, path, this.t.elementType.atom, c);
    path.pop();
    if (c.rules.output && merged !== undefined) this.out.push(merged);
  }

  // False when the piece was spent before the lists were. The positions live in locals while
  // the loop runs (the loop is the hot part of every list merge) and go back when it stops.
  private merge(c: Walk): boolean {
    const { l, r, shared } = this;
    let { li, ri, next } = this;
    let done = true;
    while (li < l.pes.length || ri < r.pes.length) {
      if (c.work.spend()) {
        done = false;
        break;
      }
      if (li < l.pes.length && ri < r.pes.length) {
        const pe = l.pes[li];
        if (pe.id === r.pes[ri].id) {
          this.item(pe, l.byId.get(pe.id), r.byId.get(pe.id), c);
          li++;
          ri++;
          next++;
          continue;
        }
        const due = shared[next];
        if (r.byId.has(pe.id) && due !== undefined && due.id !== pe.id) {
          // A shared item, but not the one due next: it is merged where the rhs has it.
          li++;
          continue;
        }
      }
      if (li < l.pes.length) {
        const pe = l.pes[li];
        if (!r.byId.has(pe.id)) {
          this.item(pe, l.byId.get(pe.id), undefined, c);
          li++;
          continue;
        }
      }
      if (ri < r.pes.length) {
        const pe = r.pes[ri];
        this.item(pe, l.byId.get(pe.id), r.byId.get(pe.id), c);
        ri++;
        if (shared[next]?.id === pe.id) next++;
        continue;
      }
      // Only an lhs item already merged at its rhs place is left here; never loop on it.
      li++;
    }
    this.li = li;
    this.ri = ri;
    this.next = next;
    return done;
  }
}

function doMap(t: MapAtom, node: WalkNode, path: PathElement[], state: State, c: Walk): void {
  const lhs = asMap(node.lhs);
  const rhs = asMap(node.rhs);
  if (t.relationship === 'atomic') {
    doLeaf(node, state, c.rules);
    return;
  }
  // The keys once per side: they also say whether a side is empty (a for-in that stops at the
  // first key still lists every key of a large map first). The rhs keys wait for the rhs part
  // of the walk when the lhs has keys: listing a large map's keys is a piece's work of its own.
  const lhsKeys = lhs === undefined ? NO_KEYS : keysOf(lhs, c);
  const rhsKeys = rhs === undefined ? NO_KEYS : lhsKeys.length === 0 ? keysOf(rhs, c) : undefined;
  if (lhsKeys.length === 0 && rhsKeys?.length === 0) {
    doLeaf(node, state, c.rules);
    return;
  }
  const out: Record<string, unknown> | undefined = c.rules.output ? {} : undefined;
  if (mapEntries(t, lhs, rhs, lhsKeys, rhsKeys, out, 0, path, c)) state.out = out;
}

const NO_KEYS: string[] = [];

/**
 * The keys of both sides from position `from` (the lhs keys, then the rhs-only ones); true when
 * one got a value, or when the rest goes on in a later piece (a map with that many keys has
 * typed values: its output is not empty).
 */
function mapEntries(
  t: MapAtom,
  lhs: Record<string, unknown> | undefined,
  rhs: Record<string, unknown> | undefined,
  lhsKeys: string[],
  rhsKeys: string[] | undefined,
  out: Record<string, unknown> | undefined,
  from: number,
  path: PathElement[],
  c: Walk,
): boolean {
  const nl = lhsKeys.length;
  let any = false;
  for (let i = from; i < nl; i++) {
    if (c.work.spend()) {
      c.work.later(mapEntries, t, lhs, rhs, lhsKeys, rhsKeys, out, i, [...path], c);
      return true;
    }
    const key = lhsKeys[i];
    if (visitKey(t, key, (lhs as Record<string, unknown>)[key], rhs === undefined ? undefined : own(rhs, key), path, out, c)) any = true;
  }
  if (rhs === undefined) return any;
  const right = rhsKeys ?? keysOf(rhs, c);
  for (let i = Math.max(from, nl); i < nl + right.length; i++) {
    if (c.work.spend()) {
      c.work.later(mapEntries, t, lhs, rhs, lhsKeys, right, out, i, [...path], c);
      return true;
    }
    const key = right[i - nl];
    if (lhs !== undefined && Object.hasOwn(lhs, key)) continue;
    if (visitKey(t, key, undefined, rhs[key], path, out, c)) any = true;
  }
  return any;
}

// A map's keys; a large map's are listed once per walk, and count as the piece's work.
function keysOf(m: object, c: Walk): string[] {
  if (c.large !== undefined) {
    const known = c.large.get(m);
    if (known !== undefined) return known;
  }
  const keys = Object.keys(m);
  if (keys.length > LARGE_MAP) keepLarge(m, keys, c);
  return keys;
}

function keepLarge(m: object, keys: string[], c: Walk): void {
  c.large ??= new Map();
  c.large.set(m, keys);
  c.work.spendMany(keys.length);
}

function isObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

/**
 * Whether two JSON values are equal, giving up (false) once a piece's worth of entries was
 * compared: the walk, which goes in pieces, then finds what differs.
 */
function equalWithin(a: object, b: object, c: Walk): boolean {
  budgetLeft = PIECE;
  return equalBounded(a, b, c);
}

// What equalWithin may still compare (it runs to its end before any other starts).
let budgetLeft = 0;

function equalBounded(a: unknown, b: unknown, c: Walk): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    if ((budgetLeft -= a.length) < 0) return false;
    for (let i = 0; i < a.length; i++) if (!equalBounded(a[i], b[i], c)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = keysOf(a, c);
  // Over budget before listing the other side's keys.
  if ((budgetLeft -= ak.length) < 0) return false;
  const bo = b as Record<string, unknown>;
  if (ak.length !== keysOf(bo, c).length) return false;
  const ao = a as Record<string, unknown>;
  // Own keys only: `constructor` in one object never matches an inherited member of the other.
  for (const k of ak) if (!Object.hasOwn(bo, k) || !equalBounded(ao[k], bo[k], c)) return false;
  return true;
}

// One key of a map, merged into out (when there is one); true when it got a value.
function visitKey(t: MapAtom, key: string, l: unknown, r: unknown, path: PathElement[], out: Record<string, unknown> | undefined, c: Walk): boolean {
  const type = fieldType(t, key);
  if (type === undefined) return false;
  path.push(keyOf(key));
  const merged = mergeNode({ lhs: l, rhs: r, path }, path, type, c);
  path.pop();
  if (out === undefined || merged === undefined) return false;
  setOwn(out, key, merged);
  return true;
}

function own(m: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(m, key) ? m[key] : undefined;
}
