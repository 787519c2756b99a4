/**
 * Cell formatting shared by the printers, ported from upstream's printers.go helpers and the
 * apimachinery formatters they call (labels.FormatLabels, metav1.FormatLabelSelector, ...).
 */
import { labelSelectorFromObject, type LabelSelector } from '../machinery/label-selector.js';
import type { Obj } from '../machinery/object.js';
import { canonicalQuantity } from '../machinery/quantity.js';
import { compareGoStrings } from '../machinery/validation.js';
import { translateTimestampSince } from './duration.js';
import { listAt, strAt, stringMapAt, valueAt } from '../machinery/fields.js';

/** The object's name. */
export function nameOf(obj: Obj): string {
  return strAt(obj, 'metadata.name');
}

/** The object's age at `now` (translateTimestampSince of its creationTimestamp). */
export function ageOf(obj: Obj, now: Date): string {
  return translateTimestampSince(valueAt(obj, 'metadata.creationTimestamp'), now);
}

/** Whether the object is being deleted. */
export function isDeleting(obj: Obj): boolean {
  return strAt(obj, 'metadata.deletionTimestamp') !== '';
}

/** labels.FormatLabels: sorted `k=v` pairs joined by commas, "<none>" when empty. */
export function formatLabels(labels: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}=${v}`);
  pairs.sort(compareGoStrings);
  return pairs.length === 0 ? '<none>' : pairs.join(',');
}

/** labels.FormatLabels of a string map at a path. */
export function formatLabelsAt(obj: unknown, path: string): string {
  return formatLabels(stringMapAt(obj, path));
}

/**
 * metav1.LabelSelectorAsSelector(sel).String(), or undefined when the selector is invalid.
 * A nil selector selects nothing and an empty one everything; both print as "".
 */
export function labelSelectorString(sel: unknown): string | undefined {
  try {
    return labelSelectorFromObject((sel ?? null) as LabelSelector | null).text;
  } catch {
    return undefined;
  }
}

/** metav1.FormatLabelSelector: "<error>" when invalid, "<none>" when it prints empty. */
export function formatLabelSelector(sel: unknown): string {
  const text = labelSelectorString(sel);
  if (text === undefined) return '<error>';
  return text === '' ? '<none>' : text;
}

/** layoutContainerCells: container names and images, each joined by commas. */
export function layoutContainerCells(containers: readonly unknown[]): [string, string] {
  return [containers.map((c) => strAt(c, 'name')).join(','), containers.map((c) => strAt(c, 'image')).join(',')];
}

/** The Containers and Images cells of a pod template at a path. */
export function containerCells(obj: unknown, templatePath: string): [string, string] {
  return layoutContainerCells(listAt(obj, `${templatePath}.spec.containers`));
}

/** listWithMoreString: the first items, "+ N more..." beyond them, "<unset>" when empty. */
export function listWithMore(items: readonly string[], more: boolean, count: number, max: number): string {
  const joined = items.join(',');
  if (more) return `${joined} + ${count - max} more...`;
  return joined === '' ? '<unset>' : joined;
}

/** Quantity.String(): the canonical text; a missing quantity is the zero value "0". */
export function quantityText(q: unknown): string {
  if (typeof q !== 'string' && typeof q !== 'number') return '0';
  try {
    return canonicalQuantity(q);
  } catch {
    return String(q);
  }
}

/** intstr.IntOrString.String(). */
export function intOrStringText(v: unknown): string {
  return typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '0';
}

/** printBoolPtr: "True", "False", or "<unset>" for a nil pointer. */
export function boolPtrText(v: boolean | undefined): string {
  if (v === undefined) return '<unset>';
  return v ? 'True' : 'False';
}

/** net.JoinHostPort: brackets around a host that contains a colon (IPv6). */
export function joinHostPort(host: string, port: number | string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The first non-empty string, or "". */
export function firstNonEmpty(...values: string[]): string {
  return values.find((v) => v !== '') ?? '';
}

/** sets.NewString(values...).List(): unique and sorted. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareGoStrings);
}
