/**
 * A List as Protobuf, item by item, with the same bytes as encodeProtobufObject of the whole list.
 * The envelope states the list message's length before its items, so every item is encoded once
 * to learn its size; items are kept encoded up to a budget and encoded again when written past
 * it, so memory stays bounded whatever the list's size (a client that stops reading pins at
 * most the budget, not the whole response).
 */
import protobuf from 'protobufjs';
import { varintSize, writeVarint } from '../../machinery/protobuf-wire.js';
import { envelopeParts } from './envelope.js';
import { ProtobufEncodeError } from './errors.js';
import { jsonToProtobufMessage } from './json-shape.js';
import { protobufTypeFor } from './registry.js';

/**
 * Encoded items kept between the sizing pass and the writing pass: lists up to this size are
 * encoded once; past it, the rest is encoded again as it is written (twice the CPU for those
 * items), so a client that stops reading pins at most this much.
 */
const KEEP_ENCODED_BYTES = 4 * 1024 * 1024;

export interface ProtobufListSource {
  apiVersion: string;
  /** The list kind (e.g. ConfigMapList). */
  kind: string;
  metadata: Record<string, unknown>;
  count: number;
  /** The JSON object of item i (each is asked for once or twice, in order). */
  item(i: number): Record<string, unknown>;
  /** Encoded items kept between the passes; default 4 MiB. */
  keepEncodedBytes?: number;
}

/** The list's `items` field, when it is the message's last field by number (as in every Kubernetes list). */
function itemsField(listType: protobuf.Type): { tag: number; type: protobuf.Type } | undefined {
  const field = listType.fields.items?.resolve();
  if (field === undefined || !field.repeated || !(field.resolvedType instanceof protobuf.Type)) return undefined;
  if (listType.fieldsArray.some((f) => f.id > field.id)) return undefined;
  return { tag: (field.id << 3) | 2, type: field.resolvedType };
}

/** True when lists of this kind can be written item by item (else encode the whole list). */
export function canStreamProtobufList(apiVersion: string, kind: string): boolean {
  return itemsField(protobufTypeFor(apiVersion, kind)) !== undefined;
}

function encodeWith(type: protobuf.Type, json: Record<string, unknown>, kind: string): Uint8Array {
  const plain = jsonToProtobufMessage(type, json);
  try {
    return type.encode(plain).finish();
  } catch (err) {
    throw new ProtobufEncodeError(`cannot encode ${kind} as Protobuf: ${(err as Error).message}`);
  }
}

/** An empty piece: a point where the writer may yield, with nothing to write. */
const YIELD_POINT = Buffer.alloc(0);

/**
 * The list's bytes in pieces, and YIELD_POINT after each item of the sizing pass; `size.bytes`
 * is the whole length from the first non-empty piece on. Throws (before any byte is produced)
 * what encodeProtobufObject would throw.
 */
export function* protobufListPieces(src: ProtobufListSource, size: { bytes?: number } = {}): Generator<Buffer, void, undefined> {
  const listType = protobufTypeFor(src.apiVersion, src.kind);
  const items = itemsField(listType);
  if (items === undefined) throw new Error(`${src.kind} cannot be streamed`);
  const meta = encodeWith(listType, { apiVersion: src.apiVersion, kind: src.kind, metadata: src.metadata }, src.kind);
  const sizes = new Array<number>(src.count);
  const kept = new Array<Uint8Array | undefined>(src.count);
  let keptBytes = 0;
  let rawLength = meta.length;
  const tagSize = varintSize(items.tag);
  for (let i = 0; i < src.count; i++) {
    const bytes = encodeWith(items.type, src.item(i), src.kind);
    sizes[i] = bytes.length;
    rawLength += tagSize + varintSize(bytes.length) + bytes.length;
    if (keptBytes + bytes.length <= (src.keepEncodedBytes ?? KEEP_ENCODED_BYTES)) {
      kept[i] = bytes;
      keptBytes += bytes.length;
    }
    yield YIELD_POINT;
  }
  const { head, tail } = envelopeParts(src.apiVersion, src.kind, rawLength);
  size.bytes = head.length + rawLength + tail.length;
  yield head;
  yield Buffer.from(meta.buffer, meta.byteOffset, meta.length);
  for (let i = 0; i < src.count; i++) {
    const bytes = kept[i] ?? encodeWith(items.type, src.item(i), src.kind);
    kept[i] = undefined;
    const size = sizes[i] as number;
    const prefix = Buffer.allocUnsafe(tagSize + varintSize(size));
    writeVarint(prefix, writeVarint(prefix, 0, items.tag), size);
    yield prefix;
    yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  }
  yield tail;
}
