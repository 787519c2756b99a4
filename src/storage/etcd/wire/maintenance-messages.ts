/**
 * The store's occasional etcd calls (rpc.proto), on the same connection as its reads and writes:
 * Maintenance.Status (the `etcd` health check, which so fails and recovers with them, and the
 * database sizes), Maintenance.Defragment, KV.Compact, Lease.LeaseGrant.
 */
import { ProtoReader, ProtoWriter, varintFieldSize, WIRE_BYTES, WIRE_VARINT } from '../../../machinery/protobuf-wire.js';
import { GRPC_FRAME_HEADER_BYTES, writeFrameHeader } from './grpc-frame.js';
import { decodeResponseHeader, expectWire, type ResponseHeader } from './kv-messages.js';

export interface StatusResponse {
  header: ResponseHeader;
  /** The backend database's file size, and the part of it in use (bytes). */
  dbSize: number;
  dbSizeInUse: number;
}

/** An empty request (StatusRequest, DefragmentRequest) as a gRPC frame. */
export function encodeEmptyRequest(): Buffer {
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

/** A response of which only the header is read (DefragmentResponse, CompactionResponse). */
export function decodeHeaderResponse(buf: Buffer): { header: ResponseHeader } {
  const r = new ProtoReader(buf);
  let header: ResponseHeader = { revision: 0 };
  while (r.more()) {
    const tag = r.varint();
    if (tag >>> 3 === 1) {
      expectWire(tag & 7, WIRE_BYTES, 1, 'response');
      header = decodeResponseHeader(r, r.messageEnd());
    } else r.skip(tag & 7);
  }
  return { header };
}

/** A CompactionRequest as a gRPC frame. */
export function encodeCompactionRequest(c: { revision: number; physical?: boolean }): Buffer {
  const size = (c.revision ? varintFieldSize(1, c.revision) : 0) + (c.physical ? varintFieldSize(2, 1) : 0);
  const w = new ProtoWriter(Buffer.allocUnsafe(GRPC_FRAME_HEADER_BYTES + size), GRPC_FRAME_HEADER_BYTES);
  writeFrameHeader(w.buf, size);
  if (c.revision) w.varintField(1, c.revision);
  if (c.physical) w.varintField(2, 1);
  return w.buf;
}

/** A LeaseGrantRequest for a lease of ttlSeconds whose id etcd chooses, as a gRPC frame. */
export function encodeLeaseGrantRequest(ttlSeconds: number): Buffer {
  const size = ttlSeconds ? varintFieldSize(1, ttlSeconds) : 0;
  const w = new ProtoWriter(Buffer.allocUnsafe(GRPC_FRAME_HEADER_BYTES + size), GRPC_FRAME_HEADER_BYTES);
  writeFrameHeader(w.buf, size);
  if (ttlSeconds) w.varintField(1, ttlSeconds);
  return w.buf;
}

export interface LeaseGrantResponse {
  header: ResponseHeader;
  /** The lease id, decimal (it uses all 64 bits). */
  ID: string;
  TTL: number;
}

/** Decodes a LeaseGrantResponse message. */
export function decodeLeaseGrantResponse(buf: Buffer): LeaseGrantResponse {
  const r = new ProtoReader(buf);
  const res: LeaseGrantResponse = { header: { revision: 0 }, ID: '0', TTL: 0 };
  while (r.more()) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1) {
      expectWire(wire, WIRE_BYTES, field, 'LeaseGrantResponse');
      res.header = decodeResponseHeader(r, r.messageEnd());
    } else if (field === 2) {
      expectWire(wire, WIRE_VARINT, field, 'LeaseGrantResponse');
      res.ID = r.bigVarint().toString();
    } else if (field === 3) {
      expectWire(wire, WIRE_VARINT, field, 'LeaseGrantResponse');
      res.TTL = r.varint();
    } else r.skip(wire);
  }
  return res;
}
