/**
 * Collection bodies as sequences of byte pieces, so a large list is written (and its items
 * encoded) a batch at a time instead of built in one buffer. Concatenated, the pieces are the
 * exact bytes the whole-object encoders produce (`JSON.stringify`, pretty or compact, and
 * encodeProtobufObject). A zero-length piece carries nothing: it marks work done (an item
 * encoded) where the writer may yield to the event loop.
 */
export { canStreamProtobufList, protobufListPieces, type ProtobufListSource } from './protobuf/index.js';

export interface JsonArrayObject {
  /** The object's other fields, in order; the array is written after them. */
  head: Record<string, unknown>;
  /** The array's key. */
  key: string;
  /** Source items (objects of a list); each gives zero or more array elements. */
  count: number;
  /**
   * The elements of source item i: values to encode, or one element already encoded as
   * compact JSON (compact output only).
   */
  elements(i: number): Buffer | readonly unknown[];
  /** How an array with no element is written: `[]`, or `null` as Go writes a nil slice. */
  emptyAs: '[]' | 'null';
  /** Indented as JSON.stringify(value, null, 2) plus a newline (the `pretty` output). */
  pretty: boolean;
}

const EMPTY = Buffer.alloc(0);

/** The pieces of JSON.stringify({...head, [key]: elements}) (pretty: with 2-space indents and a final newline). */
export function* jsonArrayObjectPieces(o: JsonArrayObject): Generator<Buffer, void, undefined> {
  const { pretty } = o;
  const head = pretty ? JSON.stringify(o.head, null, 2) : JSON.stringify(o.head);
  // The head without its closing brace (`\n}` when pretty), then the array's key.
  const hasFields = Object.keys(o.head).length > 0;
  const open = hasFields ? head.slice(0, pretty ? -2 : -1) : '{';
  const key = JSON.stringify(o.key);
  yield Buffer.from(`${open}${hasFields ? ',' : ''}${pretty ? `\n  ${key}: ` : `${key}:`}`);
  const first = Buffer.from(pretty ? '[\n    ' : '[');
  const separator = Buffer.from(pretty ? ',\n    ' : ',');
  let written = 0;
  for (let i = 0; i < o.count; i++) {
    const elements = o.elements(i);
    if (Buffer.isBuffer(elements)) {
      if (pretty) throw new Error('pre-encoded elements cannot be pretty-printed');
      yield written++ === 0 ? first : separator;
      yield elements;
      continue;
    }
    for (const value of elements) {
      yield written++ === 0 ? first : separator;
      // Nested two levels deeper than at the top: every line after the first gains four spaces.
      yield Buffer.from(pretty ? JSON.stringify(value, null, 2).replaceAll('\n', '\n    ') : JSON.stringify(value));
    }
    if (elements.length === 0) yield EMPTY;
  }
  const close = written === 0 ? o.emptyAs : pretty ? '\n  ]' : ']';
  yield Buffer.from(pretty ? `${close}\n}\n` : `${close}}`);
}
