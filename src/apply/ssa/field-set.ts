/**
 * A set of field paths (structured-merge-diff's fieldpath.Set) as a trie: the elements that are
 * members at this level, and the child set below each element. Set operations return new sets
 * and may share unchanged child sets, so a set is never modified once another set refers to it;
 * only a set under construction is filled with insert().
 */
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

  /** Set.Empty: no member anywhere in the trie. */
  empty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.set.empty()) return false;
    return true;
  }

  /** The paths below pe, relative to it (empty when none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(pe.id)?.set ?? EMPTY;
  }

  union(other: FieldSet): FieldSet {
    if (other === this || other.isBare()) return this;
    if (this.isBare()) return other;
    const out = new FieldSet();
    for (const pe of this.members.values()) out.addMember(pe);
    for (const pe of other.members.values()) out.addMember(pe);
    for (const [id, c] of this.children) {
      const theirs = other.children.get(id);
      out.addChild(theirs === undefined ? c : { pe: c.pe, set: c.set.union(theirs.set) });
    }
    for (const [id, c] of other.children) if (!this.children.has(id)) out.addChild(c);
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    if (this.isBare()) return this;
    if (other.isBare()) return other;
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (other.members.has(id)) out.addMember(pe);
    for (const [id, c] of this.children) {
      const theirs = other.children.get(id);
      if (theirs === undefined) continue;
      const set = c.set.intersection(theirs.set);
      if (!set.empty()) out.addChild({ pe: c.pe, set });
    }
    return out;
  }

  /** Members of other leave this set; a member of other does not remove the paths below it. */
  difference(other: FieldSet): FieldSet {
    return this.subtract(other, false);
  }

  /** Like difference, but a member of other also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    return this.subtract(other, true);
  }

  private subtract(other: FieldSet, recursive: boolean): FieldSet {
    if (other.isBare() || this.isBare()) return this;
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!other.members.has(id)) out.addMember(pe);
    for (const [id, c] of this.children) {
      if (recursive && other.members.has(id)) continue;
      const theirs = other.children.get(id);
      if (theirs === undefined) {
        out.addChild(c);
        continue;
      }
      const set = c.set.subtract(theirs.set, recursive);
      if (!set.empty()) out.addChild({ pe: c.pe, set });
    }
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
  toFieldsV1(): Record<string, unknown> {
    return this.emit(false);
  }

  private emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && !this.isBare()) out['.'] = {};
    const elements = [...this.members.values()];
    for (const [id, c] of this.children) if (!this.members.has(id)) elements.push(c.pe);
    if (elements.length > 1) elements.sort(comparePathElements);
    for (const pe of elements) {
      const child = this.children.get(pe.id);
      out[pe.id] = child === undefined ? {} : child.set.emit(this.members.has(pe.id));
    }
    return out;
  }

  /** Set.FromJSON: the set a FieldsV1 object encodes; throws PathElementError on a bad key. */
  static fromFieldsV1(fields: unknown): FieldSet {
    if (fields === undefined || fields === null) return new FieldSet();
    if (typeof fields !== 'object' || Array.isArray(fields)) throw new TypeError('fieldsV1 must be an object');
    return read(fields as Record<string, unknown>).children ?? new FieldSet();
  }

  /** No members and no children at all (cheaper than empty(); what union/difference may skip). */
  private isBare(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }
}

const EMPTY = new FieldSet();

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
function read(fields: Record<string, unknown>): { children: FieldSet | undefined; member: boolean } {
  let children: FieldSet | undefined;
  let member = false;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (key === '.') {
      member = true;
      continue;
    }
    const pe = parsePathElement(key);
    if (pe === undefined) continue;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError(`fieldsV1 entry ${key} must be an object`);
    const sub = read(value as Record<string, unknown>);
    if (sub.member) {
      children ??= new FieldSet();
      children.addMember(pe);
    }
    if (sub.children !== undefined) {
      children ??= new FieldSet();
      children.addChild({ pe, set: sub.children });
    }
  }
  if (children === undefined) member = true;
  return { children, member };
}
