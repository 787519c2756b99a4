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
  /** True for a node (list or map) not to walk at all: it yields nothing (compare: equal sides). */
  skip?(node: WalkNode): boolean;
  /** False when only the rules' effects matter (compare): no output is built. */
  readonly output: boolean;
}

/** The merged value of lhs and rhs (undefined when none); throws TypedError on duplicate keys. */
export function mergeWalk(lhs: unknown, rhs: unknown, atom: Atom, rules: MergeRules): unknown {
  const errs: TypedError[] = [];
  const path: PathElement[] = [];
  const out = mergeNode({ lhs, rhs, path }, path, atom, rules, errs);
  if (errs.length > 0) throw errs[0];
  return out;
}

interface State {
  inLeaf: boolean;
  out: unknown;
}

// path is node.path, writable: a child's walk pushes its element and pops it when done.
function mergeNode(node: WalkNode, path: PathElement[], atom: Atom, rules: MergeRules, errs: TypedError[]): unknown {
  if (node.lhs === undefined && node.rhs === undefined) return undefined;
  if (rules.skip?.(node)) return undefined;
  const state: State = { inLeaf: false, out: undefined };
  const left = deduced(atom, node.lhs);
  const right = deduced(atom, node.rhs);
  // An absent side takes the other's form; two forms are each walked (the lhs one for effect).
  if (node.rhs === undefined) handle(left, atom, node, path, state, rules, errs);
  else if (node.lhs === undefined || left === right) handle(right, atom, node, path, state, rules, errs);
  else {
    handle(left, atom, node, path, { ...state }, rules, errs);
    handle(right, atom, node, path, state, rules, errs);
  }
  if (!state.inLeaf) rules.postItem?.(node);
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
function handle(d: Deduced, atom: Atom, node: WalkNode, path: PathElement[], state: State, rules: MergeRules, errs: TypedError[]): void {
  if ((d === 'map' || d === 'all') && atom.map) doMap(atom.map, node, path, state, rules, errs);
  else if ((d === 'scalar' || d === 'all') && atom.scalar) doLeaf(node, state, rules);
  else if ((d === 'list' || d === 'all') && atom.list) doList(atom.list, node, path, state, rules, errs);
  else errs.push(new TypedError([...path], 'schema error: invalid atom: inlined'));
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

function doList(t: ListAtom, node: WalkNode, path: PathElement[], state: State, rules: MergeRules, errs: TypedError[]): void {
  const lhs = asList(node.lhs);
  const rhs = asList(node.rhs);
  // Empty or null on both sides is a leaf, which keeps the empty/null distinction.
  const emptyBoth = (lhs === undefined || lhs.length === 0) && (rhs === undefined || rhs.length === 0);
  if (t.relationship === 'atomic' || emptyBoth) doLeaf(node, state, rules);
  else if (lhs !== undefined || rhs !== undefined) visitListItems(t, lhs ?? [], rhs ?? [], path, state, rules, errs);
}

interface Indexed {
  pes: PathElement[];
  byId: Map<string, unknown>;
}

function index(t: ListAtom, list: unknown[], path: readonly PathElement[], errs: TypedError[]): Indexed {
  const pes: PathElement[] = [];
  const byId = new Map<string, unknown>();
  for (let i = 0; i < list.length; i++) {
    let pe: PathElement;
    try {
      pe = listItemElement(t, i, list[i]);
    } catch (e) {
      if (!(e instanceof ListItemError)) throw e;
      errs.push(new TypedError([...path], `element ${i}: ${e.message}`));
      continue;
    }
    if (byId.has(pe.id)) {
      errs.push(new TypedError([...path], `duplicate entries for key ${pathElementString(pe)}`));
      continue;
    }
    byId.set(pe.id, list[i]);
    pes.push(pe);
  }
  return { pes, byId };
}

// The merged order keeps the rhs order of the items both sides share, with lhs-only items
// staying where they were relative to them and rhs-only items placed as the rhs places them.
function visitListItems(t: ListAtom, lhsList: unknown[], rhsList: unknown[], path: PathElement[], state: State, rules: MergeRules, errs: TypedError[]): void {
  const r = index(t, rhsList, path, errs);
  const l = index(t, lhsList, path, errs);
  const shared = r.pes.filter((pe) => l.byId.has(pe.id));
  // The shared item due next, in rhs order (upstream's nextShared).
  let next = 0;
  const out: unknown[] = [];
  const item = (pe: PathElement, lhs: unknown, rhs: unknown) => {
    path.push(pe);
    const merged = mergeNode({ lhs, rhs, path }, path, t.elementType.atom, rules, errs);
    path.pop();
    if (rules.output && merged !== undefined) out.push(merged);
  };
  let li = 0;
  let ri = 0;
  while (li < l.pes.length || ri < r.pes.length) {
    if (li < l.pes.length && ri < r.pes.length) {
      const pe = l.pes[li];
      if (pe.id === r.pes[ri].id) {
        item(pe, l.byId.get(pe.id), r.byId.get(pe.id));
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
        item(pe, l.byId.get(pe.id), undefined);
        li++;
        continue;
      }
    }
    if (ri < r.pes.length) {
      const pe = r.pes[ri];
      item(pe, l.byId.get(pe.id), r.byId.get(pe.id));
      ri++;
      if (shared[next]?.id === pe.id) next++;
      continue;
    }
    // Only an lhs item already merged at its rhs place is left here; never loop on it.
    li++;
  }
  if (out.length > 0) state.out = out;
}

function doMap(t: MapAtom, node: WalkNode, path: PathElement[], state: State, rules: MergeRules, errs: TypedError[]): void {
  const lhs = asMap(node.lhs);
  const rhs = asMap(node.rhs);
  if (t.relationship === 'atomic') {
    doLeaf(node, state, rules);
    return;
  }
  // The keys once per side: they also say whether a side is empty (a for-in that stops at the
  // first key still lists every key of a large map first).
  const lhsKeys = lhs === undefined ? undefined : Object.keys(lhs);
  const rhsKeys = rhs === undefined ? undefined : Object.keys(rhs);
  if ((lhsKeys === undefined || lhsKeys.length === 0) && (rhsKeys === undefined || rhsKeys.length === 0)) {
    doLeaf(node, state, rules);
    return;
  }
  const out: Record<string, unknown> | undefined = rules.output ? {} : undefined;
  let any = false;
  if (lhs !== undefined && lhsKeys !== undefined) {
    for (const key of lhsKeys) if (visitKey(t, key, lhs[key], rhs === undefined ? undefined : own(rhs, key), path, out, rules, errs)) any = true;
  }
  if (rhs !== undefined && rhsKeys !== undefined) {
    for (const key of rhsKeys) {
      if (lhs !== undefined && Object.hasOwn(lhs, key)) continue;
      if (visitKey(t, key, undefined, rhs[key], path, out, rules, errs)) any = true;
    }
  }
  if (any) state.out = out;
}

// One key of a map, merged into out (when there is one); true when it got a value.
function visitKey(
  t: MapAtom,
  key: string,
  l: unknown,
  r: unknown,
  path: PathElement[],
  out: Record<string, unknown> | undefined,
  rules: MergeRules,
  errs: TypedError[],
): boolean {
  const type = fieldType(t, key);
  if (type === undefined) return false;
  path.push(keyOf(key));
  const merged = mergeNode({ lhs: l, rhs: r, path }, path, type, rules, errs);
  path.pop();
  if (out === undefined || merged === undefined) return false;
  setOwn(out, key, merged);
  return true;
}

function own(m: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(m, key) ? m[key] : undefined;
}
