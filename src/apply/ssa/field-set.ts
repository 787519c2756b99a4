/**
 * A set of field paths (structured-merge-diff's fieldpath.Set) as a trie: the elements that are
 * members at this level, and the child set below each element. Set operations return new sets
 * and may share unchanged child sets, so a set is never modified once another set refers to it;
 * only a set under construction is filled with insert().
 */
import { atOnce, sortThen, type Work } from '../work.js';
import { comparePathElements, type Path, type PathElement, parsePathElement } from './path-element.js';

interface ChildNode {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

// What a set without members or children reads (most sets of a trie have one or the other).
const NO_MEMBERS: ReadonlyMap<string, PathElement> = new Map();
const NO_CHILDREN: ReadonlyMap<string, ChildNode> = new Map();

export class FieldSet {
  private memberMap: Map<string, PathElement> | undefined;
  private childMap: Map<string, ChildNode> | undefined;

  /** The elements that are members at this level, by id. */
  get members(): ReadonlyMap<string, PathElement> {
    return this.memberMap ?? NO_MEMBERS;
  }

  /** The child set below each element, by the element's id. */
  get children(): ReadonlyMap<string, ChildNode> {
    return this.childMap ?? NO_CHILDREN;
  }

  /** Makes pe a member at this level (a set under construction only). */
  addMember(pe: PathElement): void {
    this.memberMap ??= new Map();
    this.memberMap.set(pe.id, pe);
  }

  /** Sets the child set below an element (a set under construction only). */
  addChild(child: ChildNode): void {
    this.childMap ??= new Map();
    this.childMap.set(child.pe.id, child);
  }

  /** Adds a path (a set under construction only). */
  insert(path: Path): this {
    if (path.length === 0) return this;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.descend(path[i]);
    node.addMember(path[path.length - 1]);
    return this;
  }

  /** The child set below pe, created empty when absent (a set under construction only). */
  descend(pe: PathElement): FieldSet {
    let child = this.children.get(pe.id);
    if (child === undefined) {
      child = { pe, set: new FieldSet() };
      this.addChild(child);
    }
    return child.set;
  }

  /** True when path is a member (not merely a prefix of one). */
  has(path: Path): boolean {
    if (path.length === 0) return false;
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node !== undefined; i++) node = node.children.get(path[i].id)?.set;
    return node?.members.has(path[path.length - 1].id) === true;
  }

  /** Set.Empty: no member anywhere in the trie (a complete set: not one an op is still filling). */
  empty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.set.empty()) return false;
    return true;
  }

  /** The paths below pe, relative to it (empty when none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(pe.id)?.set ?? EMPTY;
  }

  /**
   * The ops below take the walk's Work (../work.ts) to go in pieces: their result is complete
   * once that work is drained. Without one they run at once.
   */
  union(other: FieldSet, w?: Work): FieldSet {
    if (other === this || other.isBare()) return this;
    if (this.isBare()) return other;
    if (w === undefined) return atOnce((x) => this.union(other, x));
    const out = new FieldSet();
    addMembers(out, this.members.values(), undefined, true, w);
    addMembers(out, other.members.values(), undefined, true, w);
    addChildren(out, this.children.values(), other, 'union', w);
    addChildren(out, other.children.values(), this, 'absent', w);
    return out;
  }

  intersection(other: FieldSet, w?: Work): FieldSet {
    if (this.isBare()) return this;
    if (other.isBare()) return other;
    if (w === undefined) return atOnce((x) => this.intersection(other, x));
    const out = new FieldSet();
    // Each level visits the smaller side: a manager's small change against a large set costs little.
    const [fewer, more] = this.members.size <= other.members.size ? [this, other] : [other, this];
    addMembers(out, fewer.members.values(), more.members, true, w);
    const [few, many] = this.children.size <= other.children.size ? [this, other] : [other, this];
    addChildren(out, few.children.values(), many, 'intersection', w);
    return out;
  }

  /** Members of other leave this set; a member of other does not remove the paths below it. */
  difference(other: FieldSet, w?: Work): FieldSet {
    return this.subtract(other, false, w);
  }

  /** Like difference, but a member of other also removes everything below it. */
  recursiveDifference(other: FieldSet, w?: Work): FieldSet {
    return this.subtract(other, true, w);
  }

  private subtract(other: FieldSet, recursive: boolean, w: Work | undefined): FieldSet {
    if (other.isBare() || this.isBare()) return this;
    if (w === undefined) return atOnce((x) => this.subtract(other, recursive, x));
    const out = new FieldSet();
    addMembers(out, this.members.values(), other.members, false, w);
    addChildren(out, this.children.values(), other, recursive ? 'recursiveDifference' : 'difference', w);
    return out;
  }

  equals(other: FieldSet): boolean {
    if (other === this) return true;
    if (this.members.size !== other.members.size) return false;
    for (const id of this.members.keys()) if (!other.members.has(id)) return false;
    const mine = [...this.children.values()].filter((c) => !c.set.empty());
    const theirs = [...other.children.values()].filter((c) => !c.set.empty());
    if (mine.length !== theirs.length) return false;
    for (const c of mine) {
      const t = other.children.get(c.pe.id);
      if (t === undefined || !c.set.equals(t.set)) return false;
    }
    return true;
  }

  /** Set.Iterate: every member path, members of a level before its children, each in order. */
  paths(prefix: PathElement[] = []): Path[] {
    const out: Path[] = [];
    this.collect(prefix, out);
    return out;
  }

  private collect(prefix: PathElement[], out: Path[]): void {
    for (const pe of sorted(this.members.values())) out.push([...prefix, pe]);
    for (const c of sortedNodes(this.children.values())) c.set.collect([...prefix, c.pe], out);
  }

  /** Set.ToJSON as the FieldsV1 object: sorted keys, `{}` leaves, `.` for a member with children. */
  toFieldsV1(w?: Work): Record<string, unknown> {
    if (w === undefined) return atOnce((x) => this.emit(false, x));
    return this.emit(false, w);
  }

  // Children left empty by an op that went in pieces are not written (nor is `.` for them).
  private emit(includeSelf: boolean, w: Work): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf) out['.'] = {};
    const elements = [...this.members.values()];
    for (const c of this.children.values()) if (!this.members.has(c.pe.id) && !c.set.empty()) elements.push(c.pe);
    // Most levels fit a piece: sorted at once, without a continuation.
    if (!w.large(elements.length)) {
      if (elements.length > 1) elements.sort(comparePathElements);
      this.emitEach(elements, 0, out, w);
    } else sortThen(elements, comparePathElements, w, (sorted) => this.emitEach(sorted, 0, out, w));
    return out;
  }

  private emitEach(elements: PathElement[], from: number, out: Record<string, unknown>, w: Work): void {
    for (let i = from; i < elements.length; i++) {
      if (w.spend()) {
        w.later(this.emitEach.bind(this), elements, i, out, w);
        return;
      }
      const pe = elements[i];
      const child = this.children.get(pe.id);
      out[pe.id] = child === undefined || child.set.empty() ? {} : child.set.emit(this.members.has(pe.id), w);
    }
  }

  /** Set.FromJSON: the set a FieldsV1 object encodes; throws PathElementError on a bad key. */
  static fromFieldsV1(fields: unknown, w?: Work): FieldSet {
    if (fields === undefined || fields === null) return new FieldSet();
    if (typeof fields !== 'object' || Array.isArray(fields)) throw new TypeError('fieldsV1 must be an object');
    if (w === undefined) return atOnce((x) => FieldSet.fromFieldsV1(fields, x));
    return read(fields as Record<string, unknown>, w).children ?? new FieldSet();
  }

  /** No members and no children at all (cheaper than empty(); what union/difference may skip). */
  private isBare(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }
}

const EMPTY = new FieldSet();

/**
 * Adds to out each member the iterator has left whose presence in filter is `present` (every
 * one without a filter), deferring the rest when the piece is spent (a Map's iterator keeps its
 * place).
 */
function addMembers(out: FieldSet, it: Iterator<PathElement>, filter: ReadonlyMap<string, unknown> | undefined, present: boolean, w: Work): void {
  for (;;) {
    if (w.spend()) {
      w.later(addMembers, out, it, filter, present, w);
      return;
    }
    const r = it.next();
    if (r.done) return;
    if (filter === undefined || filter.has(r.value.id) === present) out.addMember(r.value);
  }
}

/** How a child set of one side meets the other side's at the same element. */
type ChildOp = 'union' | 'absent' | 'intersection' | 'difference' | 'recursiveDifference';

/** Adds to out the child sets op makes of the ones the iterator has left and other's, in pieces. */
function addChildren(out: FieldSet, it: Iterator<ChildNode>, other: FieldSet, op: ChildOp, w: Work): void {
  for (;;) {
    if (w.spend()) {
      w.later(addChildren, out, it, other, op, w);
      return;
    }
    const r = it.next();
    if (r.done) return;
    const c = r.value;
    const theirs = other.children.get(c.pe.id);
    switch (op) {
      case 'union':
        out.addChild(theirs === undefined ? c : { pe: c.pe, set: c.set.union(theirs.set, w) });
        break;
      case 'absent':
        if (theirs === undefined) out.addChild(c);
        break;
      case 'intersection':
        if (theirs !== undefined) addUnlessEmpty(out, c.pe, w, w.deferred, c.set.intersection(theirs.set, w));
        break;
      default:
        if (op === 'recursiveDifference' && other.members.has(c.pe.id)) break;
        if (theirs === undefined) out.addChild(c);
        else addUnlessEmpty(out, c.pe, w, w.deferred, op === 'difference' ? c.set.difference(theirs.set, w) : c.set.recursiveDifference(theirs.set, w));
    }
  }
}

/**
 * Adds the set an op built below pe unless it is empty (`before`: the work's deferrals when the
 * op began). A set still being filled by work left for later pieces is added as it is: an
 * empty child set reads as none everywhere (empty(), equals, paths, the FieldsV1 form).
 */
function addUnlessEmpty(out: FieldSet, pe: PathElement, w: Work, before: number, set: FieldSet): void {
  if (w.deferred !== before || !set.empty()) out.addChild({ pe, set });
}

/** A set of the given paths. */
export function setOf(...paths: Path[]): FieldSet {
  const s = new FieldSet();
  for (const p of paths) s.insert(p);
  return s;
}

function sorted(pes: Iterable<PathElement>): PathElement[] {
  return [...pes].sort(comparePathElements);
}

function sortedNodes(nodes: Iterable<ChildNode>): ChildNode[] {
  return [...nodes].sort((a, b) => comparePathElements(a.pe, b.pe));
}

// readIterV1: an element with `{}` is a member, with `.` a member with children, otherwise a prefix.
function read(fields: Record<string, unknown>, w: Work): { children: FieldSet | undefined; member: boolean } {
  const into: Reading = { children: undefined };
  readFrom(fields, w.keys(fields), 0, into, w);
  // A level read in pieces has its children set made before it is known to be empty.
  return { children: into.children, member: Object.hasOwn(fields, '.') || into.children === undefined };
}

interface Reading {
  children: FieldSet | undefined;
}

function readFrom(fields: Record<string, unknown>, keys: string[], from: number, into: Reading, w: Work): void {
  for (let i = from; i < keys.length; i++) {
    if (w.spend()) {
      into.children ??= new FieldSet();
      w.later(readFrom, fields, keys, i, { children: into.children }, w);
      return;
    }
    const key = keys[i];
    if (key === '.') continue;
    const pe = parsePathElement(key);
    if (pe === undefined) continue;
    const value = fields[key];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError(`fieldsV1 entry ${key} must be an object`);
    const sub = read(value as Record<string, unknown>, w);
    if (sub.member) {
      into.children ??= new FieldSet();
      into.children.addMember(pe);
    }
    if (sub.children !== undefined) {
      into.children ??= new FieldSet();
      into.children.addChild({ pe, set: sub.children });
    }
  }
}
