/** Encodes a response body in the first negotiated representation that can carry it. */
import { notAcceptable } from '../machinery/status.js';
import { yamlOf } from './yaml-encode.js';
import type { Encoding } from './negotiation.js';
import { encodeProtobufObject, isProtobufSupported } from './protobuf/index.js';

export interface EncodedBody {
  bytes: Buffer;
  contentType: string;
}

/** The first encoding of `encodings` able to carry objects of this apiVersion and kind. */
export function chooseEncoding(encodings: readonly Encoding[], apiVersion: string | undefined, kind: string | undefined): Encoding {
  for (const e of encodings) {
    if (e !== 'protobuf') return e;
    if (apiVersion && kind && isProtobufSupported(apiVersion, kind)) return e;
  }
  throw notAcceptable(['application/json', 'application/yaml']);
}

/** The Content-Type of an encoding (protobuf under the media type the client asked for). */
export function contentTypeOf(encoding: Encoding, protobufMediaType: string): string {
  return encoding === 'protobuf' ? protobufMediaType : encoding === 'yaml' ? 'application/yaml' : 'application/json';
}

/** The bytes of value in one encoding. */
export function encodeBytes(value: unknown, encoding: Encoding, pretty: boolean): Buffer {
  switch (encoding) {
    case 'yaml':
      return Buffer.from(yamlOf(value));
    case 'protobuf':
      return Buffer.from(encodeProtobufObject(value as Record<string, unknown>));
    default:
      // Go's json.Encoder ends every value with a newline, as upstream's serializer writes bodies.
      return Buffer.from(`${pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`);
  }
}

/** Encodes value in the first acceptable encoding that can carry it. */
export function encodeBody(value: unknown, encodings: readonly Encoding[], pretty: boolean, protobufMediaType: string): EncodedBody {
  const v = value as { apiVersion?: string; kind?: string };
  const encoding = chooseEncoding(encodings, v.apiVersion, v.kind);
  return { bytes: encodeBytes(value, encoding, pretty), contentType: contentTypeOf(encoding, protobufMediaType) };
}
