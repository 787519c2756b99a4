/**
 * The Kubernetes Protobuf envelope: 4 magic bytes `6b 38 73 00` ("k8s\0") followed by a
 * runtime.Unknown message { typeMeta{apiVersion=1, kind=2}=1, raw=2, contentEncoding=3,
 * contentType=4 }. `raw` holds the typed message. Hand-written (not via the .proto) because it
 * is four fields, runs on every request, and must work before any schema is loaded.
 */
import protobuf from 'protobufjs';
import { varintSize, writeVarint } from '../../machinery/protobuf-wire.js';
import { ProtobufDecodeError } from './errors.js';

/** The 4-byte prefix of every Protobuf-encoded object. */
export const PROTOBUF_MAGIC: Readonly<Uint8Array> = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export interface Envelope {
  apiVersion: string;
  kind: string;
  /** The serialized typed message (a view into the input when decoding). */
  raw: Uint8Array;
  /** Empty means no encoding. */
  contentEncoding: string;
  /** Empty means the Protobuf media type. */
  contentType: string;
}

/** True when `bytes` starts with the envelope magic; never throws. */
export function hasProtobufMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0x00;
}

const WIRE_LEN = 2;

/** Decodes magic + Unknown; throws ProtobufDecodeError when the magic is missing or the message is malformed. */
export function decodeEnvelope(bytes: Uint8Array): Envelope {
  if (!hasProtobufMagic(bytes)) {
    throw new ProtobufDecodeError('not a Protobuf-encoded object: the body does not start with the magic bytes 6b 38 73 00');
  }
  const env: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  try {
    const r = protobuf.Reader.create(bytes.subarray(4));
    while (r.pos < r.len) {
      const tag = r.uint32();
      const field = tag >>> 3;
      if (field >= 1 && field <= 4 && (tag & 7) !== WIRE_LEN) {
        throw new ProtobufDecodeError(`envelope field ${field} has wire type ${tag & 7}, want 2`);
      }
      switch (field) {
        case 1:
          readTypeMeta(r, env);
          break;
        case 2:
          env.raw = r.bytes();
          break;
        case 3:
          env.contentEncoding = r.string();
          break;
        case 4:
          env.contentType = r.string();
          break;
        default:
          // Unknown fields are skipped, as Go's generated Unmarshal does.
          r.skipType(tag & 7);
      }
    }
  } catch (err) {
    if (err instanceof ProtobufDecodeError) throw err;
    throw new ProtobufDecodeError(`malformed Protobuf envelope: ${(err as Error).message}`);
  }
  return env;
}

function readTypeMeta(r: protobuf.Reader, env: Envelope): void {
  const end = r.uint32() + r.pos;
  if (end > r.len) throw new ProtobufDecodeError('malformed Protobuf envelope: typeMeta runs past the end');
  while (r.pos < end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if ((field === 1 || field === 2) && (tag & 7) !== WIRE_LEN) {
      throw new ProtobufDecodeError(`envelope typeMeta field ${field} has wire type ${tag & 7}, want 2`);
    }
    if (field === 1) env.apiVersion = r.string();
    else if (field === 2) env.kind = r.string();
    else r.skipType(tag & 7);
  }
}

/**
 * The bytes of an envelope around a typed message of `rawLength` bytes that is written in between
 * (a list streamed item by item): head + raw + tail equals encodeEnvelope's output.
 */
export function envelopeParts(apiVersion: string, kind: string, rawLength: number): { head: Buffer; tail: Buffer } {
  const whole = encodeEnvelope({ apiVersion, kind, raw: new Uint8Array(0) });
  // Empty raw is `12 00`; the head ends before that 0, the tail is what follows it.
  const rawAt = 4 + 1 + varintSize(typeMetaLength(apiVersion, kind)) + typeMetaLength(apiVersion, kind);
  const head = Buffer.allocUnsafe(rawAt + 1 + varintSize(rawLength));
  Buffer.from(whole.buffer, whole.byteOffset, rawAt + 1).copy(head);
  writeVarint(head, rawAt + 1, rawLength);
  return { head, tail: Buffer.from(whole.subarray(rawAt + 2)) };
}

function typeMetaLength(apiVersion: string, kind: string): number {
  const apiVersionLen = Buffer.byteLength(apiVersion);
  const kindLen = Buffer.byteLength(kind);
  return 1 + varintSize(apiVersionLen) + apiVersionLen + 1 + varintSize(kindLen) + kindLen;
}

/** Encodes magic + Unknown, writing every field as Go does (empty strings included), so output matches client-go byte for byte. */
export function encodeEnvelope(env: { apiVersion: string; kind: string; raw: Uint8Array; contentEncoding?: string; contentType?: string }): Uint8Array {
  const apiVersionLen = Buffer.byteLength(env.apiVersion);
  const kindLen = Buffer.byteLength(env.kind);
  const encodingLen = Buffer.byteLength(env.contentEncoding ?? '');
  const typeLen = Buffer.byteLength(env.contentType ?? '');
  const typeMetaLen = 1 + varintSize(apiVersionLen) + apiVersionLen + 1 + varintSize(kindLen) + kindLen;
  const total =
    4 +
    (1 + varintSize(typeMetaLen) + typeMetaLen) +
    (1 + varintSize(env.raw.length) + env.raw.length) +
    (1 + varintSize(encodingLen) + encodingLen) +
    (1 + varintSize(typeLen) + typeLen);
  const out = Buffer.allocUnsafe(total);
  out.set(PROTOBUF_MAGIC, 0);
  let pos = 4;
  out[pos++] = 0x0a;
  pos = writeVarint(out, pos, typeMetaLen);
  out[pos++] = 0x0a;
  pos = writeVarint(out, pos, apiVersionLen);
  pos += out.write(env.apiVersion, pos);
  out[pos++] = 0x12;
  pos = writeVarint(out, pos, kindLen);
  pos += out.write(env.kind, pos);
  out[pos++] = 0x12;
  pos = writeVarint(out, pos, env.raw.length);
  out.set(env.raw, pos);
  pos += env.raw.length;
  out[pos++] = 0x1a;
  pos = writeVarint(out, pos, encodingLen);
  pos += out.write(env.contentEncoding ?? '', pos);
  out[pos++] = 0x22;
  pos = writeVarint(out, pos, typeLen);
  out.write(env.contentType ?? '', pos);
  return out;
}
