/**
 * The client's side of content negotiation, as client-go's rest.ContentConfig: bodies go out in
 * the configured content type (`application/vnd.orch.protobuf`, or Kubernetes' name in compat
 * mode) when the object's kind has a Protobuf message, JSON otherwise (custom resources,
 * patches, kinds without one: client-go's JSON fallback); answers are read by the Content-Type
 * the server chose. A Protobuf answer must start with the envelope's magic prefix, else it is
 * refused (apiserver.md: "A client receiving a Protobuf-typed response without the expected
 * prefix rejects it").
 */
import { decodeProtobufObject, encodeProtobufObject, hasProtobufMagic, isProtobufSupported } from '../codec/protobuf/index.js';

export const JSON_MEDIA_TYPE = 'application/json';

/** `application/vnd.<vendor>.protobuf`, with or without parameters. */
export function isProtobufMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const base = contentType.split(';', 1)[0].trim().toLowerCase();
  return base.startsWith('application/vnd.') && base.endsWith('.protobuf');
}

/**
 * The Accept header of requests: acceptContentTypes when given; else, as client-go, the content
 * type followed by `*\/*` (the server answers JSON where it has no Protobuf form); plain JSON
 * for a JSON client.
 */
export function acceptHeader(contentType: string | undefined, acceptContentTypes: string | undefined): string {
  if (acceptContentTypes) return acceptContentTypes;
  if (contentType && isProtobufMediaType(contentType)) return `${contentType}, */*`;
  return JSON_MEDIA_TYPE;
}

export interface EncodedBody {
  bytes: Buffer;
  contentType: string;
}

/** A request body in the client's content type when its kind has a Protobuf message, else JSON. */
export function encodeRequestBody(body: unknown, contentType: string | undefined): EncodedBody {
  if (contentType && isProtobufMediaType(contentType) && hasProtobufForm(body)) {
    const bytes = encodeProtobufObject(body);
    return { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType };
  }
  return { bytes: Buffer.from(JSON.stringify(body)), contentType: JSON_MEDIA_TYPE };
}

function hasProtobufForm(body: unknown): body is Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { apiVersion, kind } = body as { apiVersion?: unknown; kind?: unknown };
  return typeof apiVersion === 'string' && typeof kind === 'string' && isProtobufSupported(apiVersion, kind);
}

/** A response the server sent as Protobuf without the envelope's prefix. */
export class MalformedProtobufResponse extends Error {}

/**
 * The JSON-shaped object of a Protobuf answer; throws MalformedProtobufResponse when the bytes
 * are not an envelope of a known kind.
 */
export function decodeProtobufBody(body: Buffer): Record<string, unknown> {
  if (!hasProtobufMagic(body)) throw new MalformedProtobufResponse('Protobuf response without the envelope prefix');
  try {
    return decodeProtobufObject(body);
  } catch (e) {
    throw new MalformedProtobufResponse(`malformed Protobuf response: ${(e as Error).message}`);
  }
}
