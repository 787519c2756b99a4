/**
 * The errors of upstream's strategic merge patch (apimachinery mergepatch and strategicpatch),
 * with their messages spelled as Go prints them, and the Status each one answers with.
 *
 * Upstream's PATCH handler maps five format errors to 400 BadRequest and "lists of lists" to
 * 422; every other strategic-patch error reaches the client as a bare 500. orch answers those
 * 400 BadRequest with the same message instead: they are all caused by the patch body, and a
 * client-caused 500 is never served here.
 */
import { badRequest, StatusError } from '../machinery/status.js';

/** A JSON value's Go type after upstream's decoding (integers are int64, other numbers float64). */
export function goType(v: unknown): 'nil' | 'string' | 'bool' | 'int64' | 'float64' | 'slice' | 'map' {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return Array.isArray(v) ? 'slice' : 'map';
}

/** Go's reflect type name of a decoded JSON value, as `%s` of reflect.TypeOf prints it. */
function goTypeName(v: unknown): string {
  const names = { nil: '%!s(<nil>)', slice: '[]interface {}', map: 'map[string]interface {}' } as const;
  const t = goType(v);
  return t === 'nil' || t === 'slice' || t === 'map' ? names[t] : t;
}

/** Go's `%v` of a float64: shortest digits, exponent form outside [1e-4, 1e6). */
function goFloat(x: number): string {
  const [mantissa, exp] = x.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(x);
}

/** Go's fmt of a decoded JSON value with `%v` or `%s` (maps print with sorted keys). */
export function goFormat(v: unknown, verb: 'v' | 's' = 'v'): string {
  if (Array.isArray(v)) return `[${v.map((e) => goFormat(e, verb)).join(' ')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[${entries.map(([k, e]) => `${k}:${goFormat(e, verb)}`).join(' ')}]`;
  }
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return verb === 'v' ? '<nil>' : '%!s(<nil>)';
  const plain = typeof v === 'number' && !Number.isInteger(v) ? goFloat(v) : String(v);
  // `%s` of a number or bool is Go's bad-verb form, e.g. %!s(int64=5).
  return verb === 'v' ? plain : `%!s(${goType(v)}=${plain})`;
}

/** Go's `%q` of a string. */
export function goQuote(s: string): string {
  const escapes: Record<string, string> = {
    '"': '\\"',
    '\\': '\\\\',
    '\n': '\\n',
    '\t': '\\t',
    '\r': '\\r',
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\v': '\\v',
  };
  const quoted = s.replace(/["\\\x00-\x1f\x7f]/g, (c) => escapes[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `"${quoted}"`;
}

// Upstream's sentinel errors (apimachinery/pkg/util/mergepatch) its handler answers 400.
export const ERR_BAD_PATCH_FORMAT_FOR_PRIMITIVE_LIST = 'invalid patch format of primitive list';
export const ERR_BAD_PATCH_FORMAT_FOR_RETAIN_KEYS = 'invalid patch format of retainKeys';
export const ERR_BAD_PATCH_FORMAT_FOR_SET_ELEMENT_ORDER_LIST = 'invalid patch format of setElementOrder list';

/** One of the format errors upstream answers 400 BadRequest. */
export function patchFormatError(message: string): StatusError {
  return badRequest(message);
}

/** mergepatch.ErrNoListOfLists: 422 as upstream's NewGenericServerResponse builds it. */
export function listOfListsError(): StatusError {
  const message = 'lists of lists are not supported';
  return new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {
    causes: [{ reason: 'UnexpectedServerResponse', message }],
  });
}

/** Any other error of the patch library (upstream: 500 with this message; see the file comment). */
export function patchError(message: string): StatusError {
  return badRequest(message);
}

/** mergepatch.ErrBadArgType. */
export function badArgType(expected: 'map' | 'slice', actual: unknown): StatusError {
  const name = expected === 'map' ? 'map[string]interface {}' : '[]interface {}';
  return patchError(`expected a ${name}, but received a ${goTypeName(actual)}`);
}

/** mergepatch.ErrNoMergeKey. */
export function noMergeKey(m: Record<string, unknown>, key: string): StatusError {
  return patchError(`map: ${goFormat(m)} does not contain declared merge key: ${key}`);
}

/** mergepatch.ErrBadPatchType. */
export function badPatchType(directive: unknown, m: Record<string, unknown>): StatusError {
  return patchError(`unknown patch type: ${goFormat(directive, 's')} in map: ${goFormat(m)}`);
}
