/**
 * The string form of label selectors: a port of upstream's pkg/labels Lexer and Parser, quirks
 * included, and NewRequirement's checks with upstream's aggregated error text. Internal to
 * label-selector.ts, which compiles the requirements into matchers.
 */

import { badRequest } from './status.js';
import { compareGoStrings, goQuote, goStringSlice, isQualifiedName, isValidLabelValue } from './validation.js';

/** selection.Operator spellings, as upstream prints them in messages. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'gt' | 'lt' | 'exists' | '!';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Sorted and de-duplicated for parsed selectors (upstream keeps a string set). */
  readonly values: readonly string[];
}

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

const INT64_RE = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64), or undefined where Go returns an error. */
export function parseInt64(s: string): bigint | undefined {
  if (!INT64_RE.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

// ---- NewRequirement's validation, rendered as upstream's aggregated field errors ----

/** Upstream's NewRequirement checks; returns the aggregate message, or undefined when valid. */
export function requirementError(key: string, op: LabelOperator, vals: readonly string[] | undefined, keyPath: string): string | undefined {
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length > 0) errs.push(`${keyPath}: Invalid value: ${goQuote(key)}: ${keyErrs.join('; ')}`);
  const n = vals?.length ?? 0;
  switch (op) {
    case 'in':
    case 'notin':
      if (n === 0) errs.push(`values: Invalid value: ${goStringSlice(vals)}: for 'in', 'notin' operators, values set can't be empty`);
      break;
    case '=':
    case '==':
    case '!=':
      if (n !== 1) errs.push(`values: Invalid value: ${goStringSlice(vals)}: exact-match compatibility requires one single value`);
      break;
    case 'exists':
    case '!':
      if (n !== 0) errs.push(`values: Invalid value: ${goStringSlice(vals)}: values set must be empty for exists and does not exist`);
      break;
    case 'gt':
    case 'lt':
      if (n !== 1) errs.push(`values: Invalid value: ${goStringSlice(vals)}: for 'Gt', 'Lt' operators, exactly one value is required`);
      for (let i = 0; i < n; i++) {
        const v = (vals as readonly string[])[i];
        if (parseInt64(v) === undefined) {
          errs.push(`values[${i}]: Invalid value: ${goQuote(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
        }
      }
      break;
  }
  for (let i = 0; i < n; i++) {
    const v = (vals as readonly string[])[i];
    const m = isValidLabelValue(v);
    if (m.length > 0) errs.push(`values[${i}][${key}]: Invalid value: ${goQuote(v)}: ${m.join('; ')}`);
  }
  return aggregate(errs);
}

/** utilerrors.Aggregate's Error(): one message alone, several de-duplicated inside brackets. */
function aggregate(msgs: string[]): string | undefined {
  if (msgs.length === 0) return undefined;
  const seen = [...new Set(msgs)];
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}
// ---- the string parser (a port of upstream's Lexer and Parser, quirks included) ----

enum Tok {
  Error,
  EOS,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const STRING_TO_TOKEN: Readonly<Record<string, Tok>> = {
  ')': Tok.ClosedPar,
  ',': Tok.Comma,
  '!': Tok.DoesNotExist,
  '==': Tok.DoubleEquals,
  '=': Tok.Equals,
  '>': Tok.GreaterThan,
  in: Tok.In,
  '<': Tok.LessThan,
  '!=': Tok.NotEquals,
  notin: Tok.NotIn,
  '(': Tok.OpenPar,
};

function tokenFor(s: string): Tok | undefined {
  return Object.hasOwn(STRING_TO_TOKEN, s) ? STRING_TO_TOKEN[s] : undefined;
}

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isSpecial = (c: number): boolean => c === 0x3d || c === 0x21 || c === 0x28 || c === 0x29 || c === 0x2c || c === 0x3e || c === 0x3c;

interface Item {
  tok: Tok;
  lit: string;
}

/** Upstream's Lexer over the whole input; a NUL code unit reads as end of input, as in Go. */
function scan(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  const read = (): number => (pos < s.length ? s.charCodeAt(pos++) : 0);
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    if (ch === 0) {
      items.push({ tok: Tok.EOS, lit: '' });
      return items;
    }
    pos--;
    const start = pos;
    if (isSpecial(ch)) {
      // Longest run of special symbols that is still a token ("!=" over "!", "==" over "=").
      let tok: Tok | undefined;
      let end = start;
      for (;;) {
        const c = read();
        if (c === 0) break;
        if (!isSpecial(c)) {
          pos--;
          break;
        }
        const t = tokenFor(s.slice(start, pos));
        if (t !== undefined) {
          tok = t;
          end = pos;
        } else if (tok !== undefined) {
          pos--;
          break;
        }
      }
      if (tok === undefined) items.push({ tok: Tok.Error, lit: `error expected: keyword found '${s.slice(start, pos)}'` });
      else items.push({ tok, lit: s.slice(start, end) });
    } else {
      let end = start;
      for (;;) {
        const c = read();
        if (c === 0) break; // an embedded NUL ends the identifier and is consumed, as in Go
        if (isSpecial(c) || isWhitespace(c)) {
          pos--;
          break;
        }
        end = pos;
      }
      const lit = s.slice(start, end);
      items.push({ tok: tokenFor(lit) ?? Tok.Identifier, lit });
    }
  }
}

class SelectorSyntaxError extends Error {}

class Parser {
  private position = 0;
  constructor(private readonly items: Item[]) {}

  // In value context the keywords 'in' and 'notin' are plain identifiers.
  private at(i: number, values: boolean): Item {
    const it = this.items[Math.min(i, this.items.length - 1)];
    if (values && (it.tok === Tok.In || it.tok === Tok.NotIn)) return { tok: Tok.Identifier, lit: it.lit };
    return it;
  }
  private lookahead(values = true): Item {
    return this.at(this.position, values);
  }
  private consume(values = true): Item {
    return this.at(this.position++, values);
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead();
      if (tok === Tok.Identifier || tok === Tok.DoesNotExist) {
        let r: LabelRequirement;
        try {
          r = this.parseRequirement();
        } catch (e) {
          if (e instanceof SelectorSyntaxError) throw new SelectorSyntaxError(`unable to parse requirement: ${e.message}`);
          throw e;
        }
        reqs.push(r);
        const t = this.consume();
        if (t.tok === Tok.EOS) return reqs;
        if (t.tok === Tok.Comma) {
          const t2 = this.lookahead();
          if (t2.tok !== Tok.Identifier && t2.tok !== Tok.DoesNotExist) {
            throw new SelectorSyntaxError(`found '${t2.lit}', expected: identifier after ','`);
          }
        } else throw new SelectorSyntaxError(`found '${t.lit}', expected: ',' or 'end of string'`);
      } else if (tok === Tok.EOS) return reqs;
      else throw new SelectorSyntaxError(`found '${lit}', expected: !, identifier, or 'end of string'`);
    }
  }

  private parseRequirement(): LabelRequirement {
    let notExists = false;
    let t = this.consume();
    if (t.tok === Tok.DoesNotExist) {
      notExists = true;
      t = this.consume();
    }
    if (t.tok !== Tok.Identifier) throw new SelectorSyntaxError(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const keyErrs = isQualifiedName(key);
    // The parser validates with a nil field path, which Go prints as "<nil>".
    if (keyErrs.length > 0) throw new SelectorSyntaxError(`<nil>: Invalid value: ${goQuote(key)}: ${keyErrs.join('; ')}`);
    const next = this.lookahead().tok;
    if (notExists || next === Tok.EOS || next === Tok.Comma) {
      return this.requirement(key, notExists ? '!' : 'exists', []);
    }
    const opTok = this.consume(false);
    let op: LabelOperator;
    switch (opTok.tok) {
      case Tok.In:
        op = 'in';
        break;
      case Tok.Equals:
        op = '=';
        break;
      case Tok.DoubleEquals:
        op = '==';
        break;
      case Tok.GreaterThan:
        op = 'gt';
        break;
      case Tok.LessThan:
        op = 'lt';
        break;
      case Tok.NotIn:
        op = 'notin';
        break;
      case Tok.NotEquals:
        op = '!=';
        break;
      default:
        throw new SelectorSyntaxError(`found '${opTok.lit}', expected: ${BINARY_OPERATORS}`);
    }
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    // Upstream keeps values in a string set and lists them sorted.
    return this.requirement(key, op, [...values].sort(compareGoStrings));
  }

  private requirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
    const err = requirementError(key, operator, values, 'key');
    if (err !== undefined) throw new SelectorSyntaxError(err);
    return { key, operator, values };
  }

  private parseValues(): Set<string> {
    const open = this.consume();
    if (open.tok !== Tok.OpenPar) throw new SelectorSyntaxError(`found '${open.lit}' expected: '('`);
    const first = this.lookahead();
    if (first.tok === Tok.Identifier || first.tok === Tok.Comma) {
      const s = this.parseIdentifiersList();
      if (this.consume().tok !== Tok.ClosedPar) throw new SelectorSyntaxError(`found '${first.lit}', expected: ')'`);
      return s;
    }
    if (first.tok === Tok.ClosedPar) {
      this.consume();
      return new Set(['']);
    }
    throw new SelectorSyntaxError(`found '${first.lit}', expected: ',', ')' or identifier`);
  }

  // Empty members are allowed: "(a,)", "(,a)" and "(a,,b)" all contain "".
  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const t = this.consume();
      if (t.tok === Tok.Identifier) {
        s.add(t.lit);
        const t2 = this.lookahead();
        if (t2.tok === Tok.Comma) continue;
        if (t2.tok === Tok.ClosedPar) return s;
        throw new SelectorSyntaxError(`found '${t2.lit}', expected: ',' or ')'`);
      }
      if (t.tok === Tok.Comma) {
        if (s.size === 0) s.add('');
        const t2 = this.lookahead().tok;
        if (t2 === Tok.ClosedPar) {
          s.add('');
          return s;
        }
        if (t2 === Tok.Comma) {
          this.consume();
          s.add('');
        }
        continue;
      }
      throw new SelectorSyntaxError(`found '${t.lit}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): Set<string> {
    const la = this.lookahead().tok;
    if (la === Tok.EOS || la === Tok.Comma) return new Set(['']);
    const t = this.consume();
    if (t.tok === Tok.Identifier) return new Set([t.lit]);
    throw new SelectorSyntaxError(`found '${t.lit}', expected: identifier`);
  }
}

/** Parses a `?labelSelector=` string into requirements; throws badRequest with upstream's message. */
export function parseLabelRequirements(selector: string): LabelRequirement[] {
  try {
    return new Parser(scan(selector)).parse();
  } catch (e) {
    if (e instanceof SelectorSyntaxError) throw badRequest(e.message);
    throw e;
  }
}
