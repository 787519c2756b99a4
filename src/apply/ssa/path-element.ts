/**
 * One step of a field path (structured-merge-diff's fieldpath.PathElement): a struct field or
 * map key, the key fields of an associative-list item, the value of a set item, or the index
 * of an atomic-list item. Each element carries its FieldsV1 spelling (`f:<name>`,
 * `k:{"name":"x"}`, `v:"a"`, `i:0`) as its identity: two elements are equal exactly when their
 * spellings are, because keys are sorted by name and values are written canonically.
 */
import { compareGoStrings } from '../../machinery/validation.js';
import { compareValues, goJson, goJsonString, valueString } from './value.js';

export type PathElement =
  | { readonly kind: 'field'; readonly name: string; readonly id: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[]; readonly id: string }
  | { readonly kind: 'value'; readonly value: unknown; readonly id: string }
  | { readonly kind: 'index'; readonly index: number; readonly id: string };

/** One key field of an associative-list item: its name and value. */
export type KeyField = readonly [name: string, value: unknown];

export type Path = readonly PathElement[];

/** Thrown when a FieldsV1 key does not parse. */
export class PathElementError extends Error {}

const FIELDS = new Map<string, PathElement>();

/** The element of a field or map key (shared per name: field names repeat across objects). */
export function fieldElement(name: string): PathElement {
  let pe = FIELDS.get(name);
  if (pe === undefined) {
    pe = { kind: 'field', name, id: `f:${name}` };
    if (FIELDS.size < 100_000) FIELDS.set(name, pe);
  }
  return pe;
}

/** The element of a keyed list item; fields are sorted by name as upstream's FieldList.Sort. */
export function keyElement(fields: readonly KeyField[]): PathElement {
  const sorted = fields.length < 2 ? fields : [...fields].sort((a, b) => compareGoStrings(a[0], b[0]));
  let id = 'k:{';
  for (let i = 0; i < sorted.length; i++) id += `${i === 0 ? '' : ','}${goJsonString(sorted[i][0])}:${goJson(sorted[i][1])}`;
  return { kind: 'key', fields: sorted, id: `${id}}` };
}

/** The element of a set item. */
export function valueElement(value: unknown): PathElement {
  return { kind: 'value', value, id: `v:${goJson(value)}` };
}

/** The element of an atomic-list position. */
export function indexElement(index: number): PathElement {
  return { kind: 'index', index, id: `i:${index}` };
}

const KIND_ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

/** PathElement.Compare: fields, then keys, then values, then indexes, each in its own order. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  switch (a.kind) {
    case 'field':
      return compareGoStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeys(a.fields, (b as typeof a).fields);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index':
      return a.index - (b as typeof a).index;
  }
}

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareGoStrings(a[i][0], b[i][0]) || compareValues(a[i][1], b[i][1]);
    if (c !== 0) return c;
  }
}

/** PathElement.String: `.name`, `[name="x",port=80]`, `[="a"]`, `[0]`. */
export function pathElementString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map(([n, v]) => `${n}=${valueString(v)}`).join(',')}]`;
    case 'value':
      return `[=${valueString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

/** Path.String: the elements' strings joined, e.g. `.spec.containers[name="a"].image`. */
export function pathString(path: Path): string {
  return path.map(pathElementString).join('');
}

// The keys of a FieldsV1 object come back on every write of the object: the parsed elements
// are kept by their text (no slicing, and JSON.parse's keys come with their hash), a flood of
// them only empties this.
const PARSED = new Map<string, PathElement>();
const MAX_PARSED = 50_000;

/**
 * DeserializePathElement: the element a FieldsV1 key names; undefined for an unknown prefix
 * (upstream drops those, as written by a newer version).
 */
export function parsePathElement(text: string): PathElement | undefined {
  if (text.length < 2) throw new PathElementError('key must be 2 characters long:');
  if (text[1] !== ':') throw new PathElementError(`missing colon: ${text}`);
  const known = PARSED.get(text);
  if (known !== undefined) return known;
  const rest = text.slice(2);
  let pe: PathElement;
  switch (text[0]) {
    case 'f':
      pe = fieldElement(rest);
      break;
    case 'v':
      pe = valueElement(parseJson(rest));
      break;
    case 'k': {
      const obj = parseJson(rest);
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new PathElementError(`expected object for key: ${text}`);
      pe = keyElement(Object.entries(obj));
      break;
    }
    case 'i':
      if (!/^-?\d+$/.test(rest)) throw new PathElementError(`invalid index: ${rest}`);
      pe = indexElement(Number(rest));
      break;
    default:
      return undefined;
  }
  if (PARSED.size >= MAX_PARSED) PARSED.clear();
  PARSED.set(text, pe);
  return pe;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new PathElementError(e instanceof Error ? e.message : String(e));
  }
}
