/**
 * The Table of a custom resource (apiextensions' tableconvertor): the name, then one column per
 * additionalPrinterColumn read by its JSONPath — strings printed as text, other types as the
 * JSON value their column type takes (dates as ages) — or Name and Age when none are declared.
 */
import { isPlainObject, type Obj } from '../machinery/object.js';
import { NAME_COLUMN } from './columns.js';
import { META_V1 } from './descriptions.js';
import { translateTimestampSince } from './duration.js';
import { nameOf } from './format.js';
import type { TablePrinter } from './types.js';

/** One printed column: definition fields plus the JSONPath its cells read. */
export interface CustomColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  jsonPath: string;
}

/** One step of a simple JSONPath: a field, an index, every element, or a filter on a field's value. */
type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'filter'; path: Step[]; op: '==' | '!='; value: unknown };

/** Parses `.a.b[0]`, `.a[*].b`, `.a['x.y']`, `.a[?(@.type=="Ready")].status` (braces optional); throws on anything else. */
export function parseJsonPath(text: string): Step[] {
  let s = text.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1).trim();
  if (s.startsWith('$')) s = s.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === '.') {
      const m = /^\.([^.[\]]+)/.exec(s.slice(i));
      if (!m) throw new Error(`invalid JSONPath ${text}`);
      steps.push({ kind: 'field', name: m[1] });
      i += m[0].length;
    } else if (s[i] === '[') {
      const end = s.indexOf(']', s[i + 1] === '?' ? s.indexOf(')', i) : i);
      if (end < 0) throw new Error(`invalid JSONPath ${text}`);
      const inner = s.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else {
        const f = /^\?\(@((?:\.[^.=!\s)]+)+)\s*(==|!=)\s*(.+)\)$/.exec(inner);
        if (!f) throw new Error(`invalid JSONPath ${text}`);
        const literal = f[3].trim();
        const value = /^'.*'$/.test(literal) ? literal.slice(1, -1) : JSON.parse(literal);
        steps.push({ kind: 'filter', path: parseJsonPath(f[1]), op: f[2] as '==' | '!=', value });
      }
    } else throw new Error(`invalid JSONPath ${text}`);
  }
  return steps;
}

/** Every value the path finds in v, in document order. */
export function findAll(v: unknown, steps: readonly Step[]): unknown[] {
  let current: unknown[] = [v];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const c of current) {
      if (step.kind === 'field') {
        if (isPlainObject(c) && Object.hasOwn(c, step.name)) next.push(c[step.name]);
      } else if (step.kind === 'index') {
        if (Array.isArray(c)) {
          const at = step.index < 0 ? c.length + step.index : step.index;
          if (at >= 0 && at < c.length) next.push(c[at]);
        }
      } else if (step.kind === 'all') {
        if (Array.isArray(c)) next.push(...c);
        else if (isPlainObject(c)) next.push(...Object.values(c));
      } else if (Array.isArray(c)) {
        for (const item of c) {
          const found = findAll(item, step.path);
          const equal = found.length > 0 && found[0] === step.value;
          if (step.op === '==' ? equal : found.length > 0 && !equal) next.push(item);
        }
      }
    }
    current = next;
  }
  return current;
}

/** A value as JSONPath's text printer writes it: strings as they are, other values as JSON. */
function asText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** upstream's cellForJSONValue: the value in its column's type, else no cell (null). */
function cellOf(type: string, value: unknown, now: Date): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return asText(value);
    case 'date': {
      if (typeof value !== 'string') return null;
      return Number.isNaN(Date.parse(value)) ? '<invalid>' : translateTimestampSince(value, now);
    }
    default:
      return null;
  }
}

const AGE_COLUMN: CustomColumn = {
  name: 'Age',
  type: 'date',
  format: '',
  description: META_V1['ObjectMeta.creationTimestamp'],
  priority: 0,
  jsonPath: '.metadata.creationTimestamp',
};

/** The printer of a custom resource version's columns (Name and Age when it declares none). */
export function customColumnsPrinter(declared: readonly CustomColumn[]): TablePrinter {
  const columns = declared.length > 0 ? declared : [AGE_COLUMN];
  const paths = columns.map((c) => {
    try {
      return parseJsonPath(c.jsonPath);
    } catch {
      return undefined;
    }
  });
  return {
    columns: [NAME_COLUMN, ...columns.map((c) => ({ name: c.name, type: c.type, format: c.format, description: c.description, priority: c.priority }))],
    rows: (obj: Obj, now: Date) => [
      [
        nameOf(obj),
        ...columns.map((c, i) => {
          const path = paths[i];
          const found = path ? findAll(obj, path) : [];
          return found.length === 0 ? null : cellOf(c.type, found[0], now);
        }),
      ],
    ],
  };
}
