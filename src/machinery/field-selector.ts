/**
 * Field selectors as upstream's apimachinery pkg/fields: `a=b`, `a==b`, `a!=b`, comma-separated,
 * with `\,` `\=` `\\` escapes in values. Parse errors and the unsupported-field error carry
 * upstream's messages word for word; both become 400 BadRequest, as upstream answers.
 */

import { badRequest } from './status.js';
import { compareGoStrings, goQuote } from './validation.js';

/** `==` is reported as `=`, as upstream's Requirements() does (both are selection.Equals). */
export type FieldOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  readonly op: FieldOperator;
  /** Unescaped. */
  readonly value: string;
}

/** Reads a field of one object; an absent field reads as '' (upstream's Fields.Get). */
export type FieldGetter = (field: string) => string | undefined;

/** A compiled field selector: call it with a getter over one object. */
export interface FieldMatcher {
  (get: FieldGetter): boolean;
  /** Selects every object (empty selector). */
  readonly isEverything: boolean;
  /** In upstream's order: terms sorted by their text. */
  readonly requirements: readonly FieldRequirement[];
  /** Upstream's Selector.String(): canonical text with escaped values. */
  readonly text: string;
  /** The value an `=` requirement demands for field, if any (e.g. `metadata.name` → a get). */
  requiresExactMatch(field: string): string | undefined;
}

/** Upstream's EscapeValue: a literal value made safe inside a selector. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

class FieldSelectorError extends Error {}

/** Upstream's UnescapeValue; throws with upstream's message for a bad escape or a bare `,`/`=`. */
function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      // Go prints the rune with %v, i.e. as its number ("61" for '=').
      throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  if (inSlash) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Terms split on unescaped commas; escaped ones stay, backslash included, for unescapeValue. */
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector.charCodeAt(i);
    if (inSlash) inSlash = false;
    else if (c === 0x5c) inSlash = true;
    else if (c === 0x2c) {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** The first operator occurrence splits the term; the field part supports no escaping. */
function splitTerm(term: string): { lhs: string; op: '!=' | '==' | '='; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c === 0x21 && term.charCodeAt(i + 1) === 0x3d) return { lhs: term.slice(0, i), op: '!=', rhs: term.slice(i + 2) };
    if (c === 0x3d) {
      if (term.charCodeAt(i + 1) === 0x3d) return { lhs: term.slice(0, i), op: '==', rhs: term.slice(i + 2) };
      return { lhs: term.slice(0, i), op: '=', rhs: term.slice(i + 1) };
    }
  }
  return undefined;
}

/** Parses a `?fieldSelector=` string into requirements; throws badRequest with upstream's message. */
export function parseFieldRequirements(selector: string): FieldRequirement[] {
  const parts = splitTerms(selector).sort(compareGoStrings);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (t === undefined) throw badRequest(`invalid selector: '${selector}'; can't understand '${part}'`);
    let value: string;
    try {
      value = unescapeValue(t.rhs);
    } catch (e) {
      if (e instanceof FieldSelectorError) throw badRequest(e.message);
      throw e;
    }
    reqs.push({ field: t.lhs, op: t.op === '!=' ? '!=' : '=', value });
  }
  return reqs;
}

/** Compiles requirements (all must hold) into a matcher; no requirements select everything. */
export function fieldSelectorMatcher(reqs: readonly FieldRequirement[]): FieldMatcher {
  const frozen = Object.freeze(reqs.map((r) => Object.freeze({ ...r })));
  let test: (get: FieldGetter) => boolean;
  if (frozen.length === 0) test = () => true;
  else if (frozen.length === 1) {
    const { field, op, value } = frozen[0];
    test = op === '=' ? (get) => (get(field) ?? '') === value : (get) => (get(field) ?? '') !== value;
  } else {
    test = (get) => {
      for (let i = 0; i < frozen.length; i++) {
        const r = frozen[i];
        const v = get(r.field) ?? '';
        if (r.op === '=' ? v !== r.value : v === r.value) return false;
      }
      return true;
    };
  }
  return Object.assign(test, {
    isEverything: frozen.length === 0,
    requirements: frozen,
    text: frozen.map((r) => `${r.field}${r.op}${escapeFieldValue(r.value)}`).join(','),
    requiresExactMatch(field: string): string | undefined {
      for (const r of frozen) if (r.op === '=' && r.field === field) return r.value;
      return undefined;
    },
  });
}

/** Matches every object; shared because matchers are immutable. */
export const EVERYTHING_FIELDS: FieldMatcher = fieldSelectorMatcher([]);

/** Parses and compiles a `?fieldSelector=` string; throws badRequest as upstream. */
export function parseFieldSelector(selector: string): FieldMatcher {
  const reqs = parseFieldRequirements(selector);
  return reqs.length === 0 ? EVERYTHING_FIELDS : fieldSelectorMatcher(reqs);
}

/**
 * How upstream words an unsupported field, which depends on the resource: types with their own
 * field-label conversion (core/v1 kinds, custom resources, StatefulSets, Jobs...) say
 * `field label not supported: <field>`; the rest fall back to DefaultMetaV1FieldSelectorConversion,
 * `"<field>" is not a known field selector: only "metadata.name", "metadata.namespace"`.
 */
export type UnsupportedFieldStyle = 'label-not-supported' | 'not-known';

/**
 * Throws badRequest for the first requirement (in selector order) whose field is not in allowed,
 * as upstream's ConvertFieldLabel does while transforming the selector.
 */
export function checkFieldSelector(
  reqs: readonly FieldRequirement[],
  allowed: ReadonlySet<string>,
  style: UnsupportedFieldStyle = 'label-not-supported',
): void {
  for (const r of reqs) {
    if (allowed.has(r.field)) continue;
    if (style === 'label-not-supported') throw badRequest(`field label not supported: ${r.field}`);
    throw badRequest(`${goQuote(r.field)} is not a known field selector: only ${[...allowed].map(goQuote).join(', ')}`);
  }
}
