/**
 * The Protobuf codec's public surface: what the server's content negotiation needs. Media types
 * (`application/vnd.kubernetes.protobuf` / `application/vnd.orch.protobuf`) belong to the Brand;
 * this codec only handles bytes.
 */
export { decodeProtobufObject, encodeProtobufObject, type ProtobufTypeDefaults } from './codec.js';
export { decodeEnvelope, encodeEnvelope, type Envelope, hasProtobufMagic, PROTOBUF_MAGIC } from './envelope.js';
export { ProtobufDecodeError, ProtobufEncodeError, UnsupportedProtobufType } from './errors.js';
export { groupStem, isProtobufSupported, protobufTypeFor } from './registry.js';
export { canStreamProtobufList, protobufListPieces, type ProtobufListSource } from './list.js';
export { type GoZeroFields, goZeroFieldsFor } from './go-zero-fields.js';
