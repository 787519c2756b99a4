/**
 * YAML to a JSON value, bounded as go-yaml bounds it: nesting past a maximum depth stops the
 * parse where it is reached ("exceeded max depth", before a million-level document is even
 * read), alias expansion is capped ("document contains excessive aliasing"), `!!binary` reads as
 * its bytes in a latin1 string (go-yaml's string of bytes), and repeated keys are found in one
 * pass instead of the library's scan of every earlier key (quadratic in a map's size).
 * Synchronous and pure; yaml-pool.ts runs it off the request thread.
 */
import { Composer, type Document, isAlias, isCollection, isMap, isPair, isScalar, isSeq, Lexer, LineCounter, Parser, type ScalarTag } from 'yaml';

const BINARY_TAG = 'tag:yaml.org,2002:binary';

/** What a failed decode says, go-yaml's way (`yaml: line 3: ...`). */
export class YamlDecodeError extends Error {}

export interface YamlOptions {
  /** '1.1' as sigs.k8s.io/yaml reads apply configurations (yes/no booleans, `<<` merges). */
  version?: '1.1' | '1.2';
  /** Refuse a key repeated in one mapping (else the last one wins, as go-yaml's Unmarshal). */
  uniqueKeys?: boolean;
  /** Deepest nesting of collections accepted. */
  maxDepth: number;
}

/** `!!binary`: the decoded bytes as a string of chars 0-255, never a Uint8Array (which JSON cannot hold). */
const binary: ScalarTag = {
  tag: BINARY_TAG,
  default: false,
  identify: () => false,
  resolve: (src: string) => Buffer.from(src, 'base64').toString('latin1'),
};

/** Parser tokens, stopping as soon as the open collections nest deeper than maxDepth. */
function* boundedTokens(source: string, maxDepth: number, lines: LineCounter) {
  const parser = new Parser(lines.addNewLine);
  lines.addNewLine(0);
  // The parser's stack holds the document and each open collection (plus the node being read).
  const limit = maxDepth + 2;
  for (const lexeme of new Lexer().lex(source, false)) {
    yield* parser.next(lexeme);
    if (parser.stack.length > limit) throw new YamlDecodeError(`yaml: line ${lines.linePos(parser.offset).line}: exceeded max depth of ${maxDepth}`);
  }
  yield* parser.end();
}

/** A repeated scalar key in any mapping of doc, found with one Set per mapping. */
function repeatedKey(doc: Document): string | undefined {
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (isScalar(pair.key)) {
          if (seen.has(pair.key.value)) return String(pair.key.value);
          seen.add(pair.key.value);
        }
        stack.push(pair.key, pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(isPair(item) ? item.value : item);
    }
  }
  return undefined;
}

/** go-yaml's reader takes tab, LF, CR and printable characters only. */
const CONTROL_CHARACTER = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]/;

/**
 * What go-yaml and sigs.k8s.io/yaml refuse that this parser would take: a mapping key that is a
 * collection (JSON keys are strings), and an alias inside the very node its anchor names (a
 * value containing itself, which would become a circular object).
 */
function structureError(doc: Document): string | undefined {
  const open = new Set<unknown>();
  const visit = (node: unknown): string | undefined => {
    if (isScalar(node)) return overflowError(node);
    if (isAlias(node)) {
      const target = node.resolve(doc);
      return open.has(target) ? `yaml: anchor '${node.source}' value contains itself` : undefined;
    }
    if (!isCollection(node)) return undefined;
    open.add(node);
    for (const item of node.items) {
      if (isPair(item)) {
        if (isCollection(item.key)) return 'yaml: invalid map key: a mapping or sequence cannot be a key';
        const inKey = visit(item.key) ?? visit(item.value);
        if (inKey) return inKey;
      } else {
        const inItem = visit(item);
        if (inItem) return inItem;
      }
    }
    open.delete(node);
    return undefined;
  };
  return visit(doc.contents);
}

/**
 * A number too large for a float64: go-yaml reads such a literal as a string (its float parse
 * fails), and an explicit `.inf`/`.nan` cannot become JSON. JavaScript would make Infinity,
 * which JSON turns into null; this keeps go-yaml's answer.
 */
function overflowError(node: { value: unknown; source?: string }): string | undefined {
  if (typeof node.value !== 'number' || Number.isFinite(node.value)) return undefined;
  const source = node.source ?? '';
  if (/^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/.test(source))
    return `json: unsupported value: ${Number.isNaN(node.value) ? 'NaN' : node.value > 0 ? '+Inf' : '-Inf'}`;
  node.value = source;
  return undefined;
}

/** The one document of source as a JSON value (null for an empty document). */
export function decodeYaml(source: string, opts: YamlOptions): unknown {
  if (CONTROL_CHARACTER.test(source)) throw new YamlDecodeError('yaml: control characters are not allowed');
  const composer = new Composer({
    version: opts.version ?? '1.2',
    uniqueKeys: false,
    customTags: (tags) => [...tags.filter((t) => (typeof t === 'string' ? t !== 'binary' : t.tag !== BINARY_TAG)), binary],
  });
  const lines = new LineCounter();
  let doc: Document.Parsed | undefined;
  for (const d of composer.compose(boundedTokens(source, opts.maxDepth, lines), true, source.length)) {
    if (doc !== undefined) throw new YamlDecodeError('Source contains multiple documents; please use YAML.parseAllDocuments()');
    doc = d;
  }
  if (doc === undefined) return null;
  const [error] = doc.errors;
  if (error !== undefined) {
    const { line, col } = lines.linePos(error.pos[0]);
    throw new YamlDecodeError(`${error.message} at line ${line}, column ${col}`);
  }
  const invalid = structureError(doc);
  if (invalid !== undefined) throw new YamlDecodeError(invalid);
  if (opts.uniqueKeys) {
    const key = repeatedKey(doc);
    if (key !== undefined) throw new YamlDecodeError(`yaml: mapping key ${JSON.stringify(key)} already defined`);
  }
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    if (e instanceof ReferenceError && /Excessive alias count/.test(e.message)) throw new YamlDecodeError('yaml: document contains excessive aliasing');
    throw new YamlDecodeError(e instanceof Error ? e.message : String(e));
  }
}
