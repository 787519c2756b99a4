/**
 * Protobuf <-> JSON objects for the API server: a request body in
 * `application/vnd.kubernetes.protobuf` becomes the same object the JSON path would produce,
 * and a JSON-shaped object can be answered as Protobuf. Which kinds are supported is
 * registry.ts; unsupported ones throw UnsupportedProtobufType so the server can answer 415
 * or fall back to JSON.
 */
import { decodeEnvelope, encodeEnvelope } from './envelope.js';
import { ProtobufDecodeError, ProtobufEncodeError } from './errors.js';
import { jsonToProtobufMessage, protobufMessageToJson } from './json-shape.js';
import { protobufTypeFor } from './registry.js';

export interface ProtobufTypeDefaults {
  apiVersion: string;
  kind: string;
}

/**
 * Decodes envelope + typed message into the JSON form (apiVersion and kind first, then fields as
 * Go's encoding/json writes them). `defaults` supplies apiVersion/kind when the envelope leaves
 * them empty, as upstream's decoder takes them from the request path.
 * Throws ProtobufDecodeError for malformed bytes, UnsupportedProtobufType for unknown kinds.
 */
export function decodeProtobufObject(bytes: Uint8Array, defaults?: ProtobufTypeDefaults): Record<string, unknown> {
  const env = decodeEnvelope(bytes);
  if (env.contentEncoding !== '') {
    throw new ProtobufDecodeError(`unsupported Protobuf envelope contentEncoding ${JSON.stringify(env.contentEncoding)}`);
  }
  if (env.contentType !== '' && !env.contentType.endsWith('protobuf')) {
    throw new ProtobufDecodeError(`unsupported Protobuf envelope contentType ${JSON.stringify(env.contentType)}`);
  }
  const apiVersion = env.apiVersion || defaults?.apiVersion || '';
  const kind = env.kind || defaults?.kind || '';
  const type = protobufTypeFor(apiVersion, kind);
  let message: ReturnType<typeof type.decode>;
  try {
    message = type.decode(env.raw);
  } catch (err) {
    throw new ProtobufDecodeError(`malformed ${kind} Protobuf message: ${(err as Error).message}`);
  }
  try {
    return protobufMessageToJson(type, message, { apiVersion, kind });
  } catch (err) {
    // Whatever the client's bytes hold that has no JSON form (a time past year 9999, nesting
    // past the stack) is a malformed body, never a server error.
    if (err instanceof ProtobufDecodeError) throw err;
    throw new ProtobufDecodeError(`malformed ${kind} Protobuf message: ${(err as Error).message}`);
  }
}

/**
 * Encodes a JSON-shaped object (with apiVersion and kind) as envelope + typed message; fields
 * unknown to the message are dropped. Throws UnsupportedProtobufType for unknown kinds and
 * ProtobufEncodeError for ill-typed values.
 */
export function encodeProtobufObject(obj: Record<string, unknown>): Uint8Array {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const type = protobufTypeFor(apiVersion, kind);
  const plain = jsonToProtobufMessage(type, obj);
  let raw: Uint8Array;
  try {
    raw = type.encode(plain).finish();
  } catch (err) {
    throw new ProtobufEncodeError(`cannot encode ${kind} as Protobuf: ${(err as Error).message}`);
  }
  return encodeEnvelope({ apiVersion, kind, raw });
}
