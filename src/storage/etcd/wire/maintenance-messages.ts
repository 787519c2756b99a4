/**
 * etcd's Maintenance.Status (rpc.proto StatusRequest / StatusResponse): the member's health
 * check and its database sizes, on the same connection as the store's reads and writes, so the
 * `etcd` check fails and recovers with them.
 */
import { ProtoReader, WIRE_BYTES, WIRE_VARINT } from '../../../machinery/protobuf-wire.js';
import { GRPC_FRAME_HEADER_BYTES, writeFrameHeader } from './grpc-frame.js';
import { decodeResponseHeader, expectWire, type ResponseHeader } from './kv-messages.js';

export interface StatusResponse {
  header: ResponseHeader;
  /** The backend database's file size, and the part of it in use (bytes). */
  dbSize: number;
  dbSizeInUse: number;
}

/** The empty StatusRequest as a gRPC frame. */
export function encodeStatusRequest(): Buffer {
  const frame = Buffer.allocUnsafe(GRPC_FRAME_HEADER_BYTES);
  writeFrameHeader(frame, 0);
  return frame;
}

/** Decodes a StatusResponse message. */
export function decodeStatusResponse(buf: Buffer): StatusResponse {
  const r = new ProtoReader(buf);
  const res: StatusResponse = { header: { revision: 0 }, dbSize: 0, dbSizeInUse: 0 };
  while (r.more()) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1) {
      expectWire(wire, WIRE_BYTES, field, 'StatusResponse');
      res.header = decodeResponseHeader(r, r.messageEnd());
    } else if (field === 3) {
      expectWire(wire, WIRE_VARINT, field, 'StatusResponse');
      res.dbSize = r.varint();
    } else if (field === 9) {
      expectWire(wire, WIRE_VARINT, field, 'StatusResponse');
      res.dbSizeInUse = r.varint();
    } else r.skip(wire);
  }
  return res;
}
