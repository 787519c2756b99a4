/**
 * Go's `%#v` text of the values upstream puts into field errors that are not plain strings or
 * numbers (label maps, label selectors, IntOrString, small structs), so a cause's message reads
 * exactly as upstream's. Each returns a PrintedValue, which field errors print verbatim.
 * Values that hold non-nil pointers inside a struct print a memory address upstream; callers
 * keep the JSON value for those, as no client can depend on an address.
 */
import { PrintedValue } from './status.js';
import { compareGoStrings, goQuote, goStringSlice } from './validation.js';
import { isPlainObject } from './object.js';

/** Text of a map[string]string as %#v prints it: keys sorted, `map[string]string(nil)` for nil. */
export function goStringMapText(m: unknown): string {
  if (!isPlainObject(m)) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort(compareGoStrings);
  const entries = keys.map((k) => `${goQuote(k)}:${goQuote(typeof m[k] === 'string' ? m[k] : '')}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** A map[string]string (labels, parameters) as upstream prints it in a field error. */
export function goStringMap(m: unknown): PrintedValue {
  return new PrintedValue(goStringMapText(m));
}

/** Text of a []string field: `[]string(nil)` when absent, `[]string{}` when empty. */
function goStringListText(v: unknown): string {
  if (!Array.isArray(v)) return '[]string(nil)';
  return goStringSlice(
    v.map((x) => (typeof x === 'string' ? x : '')),
    false,
  );
}

/** Text of a `metav1.LabelSelectorRequirement`. */
function requirementText(r: unknown): string {
  const o = isPlainObject(r) ? r : {};
  const s = (v: unknown) => goQuote(typeof v === 'string' ? v : '');
  return `v1.LabelSelectorRequirement{Key:${s(o.key)}, Operator:${s(o.operator)}, Values:${goStringListText(o.values)}}`;
}

/** Text of a `metav1.LabelSelector` (a pointer is dereferenced at the top, as field errors do). */
export function goLabelSelectorText(sel: unknown): string {
  if (sel === undefined || sel === null) return 'null';
  const o = isPlainObject(sel) ? sel : {};
  const exprs = Array.isArray(o.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${o.matchExpressions.map(requirementText).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMapText(o.matchLabels)}, MatchExpressions:${exprs}}`;
}

/** A label selector as upstream prints it in a field error. */
export function goLabelSelector(sel: unknown): PrintedValue {
  return new PrintedValue(goLabelSelectorText(sel));
}

/** An `intstr.IntOrString` (a JSON number or string) as upstream prints it in a field error. */
export function goIntOrString(v: unknown): PrintedValue {
  if (typeof v === 'string') return new PrintedValue(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`);
  const n = typeof v === 'number' ? v : 0;
  return new PrintedValue(`intstr.IntOrString{Type:0, IntVal:${n}, StrVal:""}`);
}

/** A struct of string fields as %#v prints it: `pkg.Type{A:"x", B:"y"}`, fields in the order given. */
export function goStringStruct(typeName: string, fields: readonly [string, unknown][]): PrintedValue {
  const body = fields.map(([name, v]) => `${name}:${goQuote(typeof v === 'string' ? v : '')}`).join(', ');
  return new PrintedValue(`${typeName}{${body}}`);
}

/** A nil slice of the named element type, as %#v prints it (`[]networking.IngressRule(nil)`). */
export function goNilSlice(elementType: string): PrintedValue {
  return new PrintedValue(`[]${elementType}(nil)`);
}
