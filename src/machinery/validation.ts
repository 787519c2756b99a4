/**
 * Name and label validators as upstream's apimachinery pkg/util/validation and
 * pkg/api/validation/path: each returns the list of error details (empty when valid), with
 * upstream's exact wording, so Invalid causes read the same as a Kubernetes API server's.
 *
 * Also the few Go string semantics those messages depend on: lengths count UTF-8 bytes
 * (Go's len), values are quoted as Go's %q, lists are ordered as Go's sort.Strings.
 */

import type { FieldError } from './status.js';
import { invalid } from './status.js';
import { type Due, runAtOnce } from './pace.js';

// ---- Go string semantics ----

/** Number of UTF-8 bytes in s (Go's len); a lone surrogate counts as U+FFFD (3 bytes). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** True when s is longer than max UTF-8 bytes; avoids counting bytes in the common case. */
export function exceedsBytes(s: string, max: number): boolean {
  // Every UTF-16 unit is 1..3 bytes, so most strings are decided by their length alone.
  if (s.length > max) return true;
  if (s.length * 3 <= max) return false;
  return utf8Length(s) > max;
}

const PLAIN_ASCII = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** s quoted as Go's strconv.Quote / %q, which upstream uses for values in its messages. */
export function goQuote(s: string): string {
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0) as number;
    // JSON decoding in Go turns a lone surrogate into U+FFFD; mirror what Go would print.
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp === 0x22) out += '\\"';
    else if (cp === 0x5c) out += '\\\\';
    else if (cp === 0x20 || (cp > 0x7e && PRINTABLE.test(String.fromCodePoint(cp))) || (cp > 0x20 && cp < 0x7f)) {
      out += String.fromCodePoint(cp);
    } else if (cp === 0x07) out += '\\a';
    else if (cp === 0x08) out += '\\b';
    else if (cp === 0x0c) out += '\\f';
    else if (cp === 0x0a) out += '\\n';
    else if (cp === 0x0d) out += '\\r';
    else if (cp === 0x09) out += '\\t';
    else if (cp === 0x0b) out += '\\v';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** A string slice printed as Go's %#v: `[]string{"a", "b"}`, or `[]string(nil)` when empty. */
export function goStringSlice(values: readonly string[] | undefined, nilWhenEmpty = true): string {
  if (values === undefined || (values.length === 0 && nilWhenEmpty)) return '[]string(nil)';
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/** Orders strings as Go's sort.Strings (UTF-8 byte order), which differs from UTF-16 order only past U+FFFF. */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate encodes a code point above U+FFFF, whose UTF-8 bytes sort after U+E000..U+FFFF.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (xs ? y >= 0xe000 : x >= 0xe000)) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

// ---- message builders (upstream's MaxLenError, RegexError, EmptyError) ----

/** Upstream's MaxLenError. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** Upstream's RegexError, including its `'a',  or 'b', ` spacing. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  for (let i = 0; i < examples.length; i++) {
    if (i > 0) out += ' or ';
    out += `'${examples[i]}', `;
  }
  return `${out}regex used for validation is '${fmt}')`;
}

/** Upstream's EmptyError. */
export function emptyError(): string {
  return 'must be non-empty';
}

// ---- qualified names and label values ----

const QNAME_CHAR = '[A-Za-z0-9]';
const QNAME_EXT_CHAR = '[-A-Za-z0-9_.]';
const QUALIFIED_NAME_FMT = `(${QNAME_CHAR}${QNAME_EXT_CHAR}*)?${QNAME_CHAR}`;
const QUALIFIED_NAME_ERR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const QUALIFIED_NAME_MAX_LENGTH = 63;
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);

/** Upstream's IsQualifiedName: `[prefix/]name`, prefix a DNS-1123 subdomain, name ≤ 63 of [-A-Za-z0-9_.]. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const slash = value.indexOf('/');
  let name = value;
  if (slash >= 0) {
    if (value.indexOf('/', slash + 1) >= 0) {
      return [
        `a qualified name ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}` +
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ];
    }
    const prefix = value.slice(0, slash);
    name = value.slice(slash + 1);
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (exceedsBytes(name, QUALIFIED_NAME_MAX_LENGTH)) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!QUALIFIED_NAME_RE.test(name)) {
    errs.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const LABEL_VALUE_MAX_LENGTH = 63;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);

/** Upstream's IsValidLabelValue: empty, or ≤ 63 of [-A-Za-z0-9_.] starting and ending alphanumeric. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (exceedsBytes(value, LABEL_VALUE_MAX_LENGTH)) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

// ---- DNS names ----

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
export const DNS1123_LABEL_MAX_LENGTH = 63;
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);

/** Upstream's IsDNS1123Label: ≤ 63 of [-a-z0-9], starting and ending alphanumeric. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (exceedsBytes(value, DNS1123_LABEL_MAX_LENGTH)) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1123_LABEL_RE.test(value)) errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

/** Upstream's IsDNS1123Subdomain: ≤ 253, dot-separated DNS-1123 labels. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (exceedsBytes(value, DNS1123_SUBDOMAIN_MAX_LENGTH)) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

const WILDCARD_DNS1123_SUBDOMAIN_FMT = `\\*\\.${DNS1123_SUBDOMAIN_FMT}`;
const WILDCARD_DNS1123_SUBDOMAIN_ERR =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const WILDCARD_DNS1123_SUBDOMAIN_RE = new RegExp(`^${WILDCARD_DNS1123_SUBDOMAIN_FMT}$`);

/** Upstream's IsWildcardDNS1123Subdomain: `*.` followed by a DNS-1123 subdomain, ≤ 253 in all. */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (exceedsBytes(value, DNS1123_SUBDOMAIN_MAX_LENGTH)) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!WILDCARD_DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(WILDCARD_DNS1123_SUBDOMAIN_ERR, WILDCARD_DNS1123_SUBDOMAIN_FMT, '*.example.com'));
  return errs;
}

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_ERR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
export const DNS1035_LABEL_MAX_LENGTH = 63;
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);

/** Upstream's IsDNS1035Label: ≤ 63 of [-a-z0-9], starting alphabetic, ending alphanumeric. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (exceedsBytes(value, DNS1035_LABEL_MAX_LENGTH)) errs.push(maxLenError(DNS1035_LABEL_MAX_LENGTH));
  if (!DNS1035_LABEL_RE.test(value)) errs.push(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

// ---- path segments (pkg/api/validation/path) ----

/** Upstream's IsValidPathSegmentName: not `.`/`..`, no `/` or `%` (the name becomes a URL/key segment). */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return isValidPathSegmentPrefix(name);
}

/** Upstream's IsValidPathSegmentPrefix: a generateName prefix may be `.`, but never contain `/` or `%`. */
export function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  if (name.includes('/')) errs.push("may not contain '/'");
  if (name.includes('%')) errs.push("may not contain '%'");
  return errs;
}

// ---- name rules (pkg/api/validation ValidateNameFunc) ----

/** Upstream's ValidateNameFunc: prefix is true for a generateName, which gets a suffix appended. */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

/**
 * Upstream's maskTrailingDash, quirk included: it drops the last TWO characters before
 * appending 'a', so `ab-` is checked as `a` + `a`. Kept so messages match upstream's.
 */
export function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return `${name.slice(0, name.length - 2)}a`;
  return name;
}

/** Upstream's NameIsDNSSubdomain. */
export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** Upstream's NameIsDNSLabel (also ValidateNamespaceName). */
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** Upstream's NameIsDNS1035Label (Services). */
export const nameIsDNS1035Label: ValidateNameFunc = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** Upstream's path.ValidatePathSegmentName (RBAC objects and other path-only names). */
export const validatePathSegmentName: ValidateNameFunc = (name, prefix) => (prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name));

// ---- field-level helpers (apis/meta/v1/validation) ----

/** Upstream's ValidateLabelName: one Invalid per qualified-name problem, at fldPath. */
export function validateLabelName(labelName: string, fldPath: string): FieldError[] {
  const msgs = isQualifiedName(labelName);
  return msgs.length === 0 ? [] : msgs.map((m) => invalid(fldPath, labelName, m));
}

/**
 * What is certainly both a qualified name without a prefix and a label value: 1 to 63 ASCII
 * characters of [-A-Za-z0-9_.], starting and ending alphanumeric. Most labels are; one test
 * decides them, so a map of 100,000 labels is checked in a few milliseconds. Anything else
 * takes the full checks, which word the errors.
 */
const PLAIN_LABEL_RE = /^[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;

/** Upstream's ValidateLabels: keys are qualified names, values label values; errors at fldPath itself. */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined | null, fldPath: string): FieldError[] {
  return runAtOnce((due) => validateLabelsSteps(labels, fldPath, due));
}

/** Labels checked between two looks at the pace. */
const LABELS_PER_STEP = 4096;

/** validateLabels as stepped work (machinery/pace.ts): a map of a hundred thousand labels is checked in steps. */
export function* validateLabelsSteps(
  labels: Readonly<Record<string, string>> | undefined | null,
  fldPath: string,
  due: Due,
): Generator<void, FieldError[], void> {
  const errs: FieldError[] = [];
  if (labels === undefined || labels === null) return errs;
  const keys = Object.keys(labels);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = labels[k];
    if ((i + 1) % LABELS_PER_STEP === 0 && due()) yield;
    if (PLAIN_LABEL_RE.test(k) && typeof v === 'string' && (v === '' || PLAIN_LABEL_RE.test(v))) continue;
    for (const m of isQualifiedName(k)) errs.push(invalid(fldPath, k, m));
    for (const m of isValidLabelValue(typeof v === 'string' ? v : String(v))) errs.push(invalid(fldPath, v, m));
  }
  return errs;
}
