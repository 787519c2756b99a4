/**
 * Errors of the Protobuf codec. They are distinct classes so the server can map them without
 * string matching: an unsupported type becomes 415 (or a JSON fallback), a malformed body 400.
 */

/** The apiVersion/kind has no Protobuf message here; the caller should answer 415 or use JSON. */
export class UnsupportedProtobufType extends Error {
  override readonly name = 'UnsupportedProtobufType';
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
  ) {
    super(`no Protobuf serialization for ${apiVersion === '' ? '(no apiVersion)' : apiVersion}, Kind=${kind === '' ? '(no kind)' : kind}`);
  }
}

/** The bytes are not a well-formed Protobuf envelope or message (a client error: 400). */
export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError';
}

/** A JSON value cannot be written as the Protobuf field it belongs to (e.g. a bad timestamp). */
export class ProtobufEncodeError extends Error {
  override readonly name = 'ProtobufEncodeError';
}
