/**
 * etcd's KV messages (etcdserverpb rpc.proto, mvccpb kv.proto), encoded and decoded by hand for
 * exactly the fields the store uses; field numbers are those of the .proto files shipped in
 * node_modules/etcd3/proto. Field names are the .proto's own. Requests are encoded straight
 * into a gRPC frame (5 bytes reserved in front), so a call copies the value once.
 *
 * Revisions and counts are numbers (etcd's int64 revisions stay far below 2^53); lease ids,
 * which use all 64 bits, are decimal strings as etcd3 gives them.
 */
import {
  bigVarintSize,
  bytesFieldSize,
  ProtoDecodeError,
  ProtoReader,
  ProtoWriter,
  tagSize,
  varintFieldSize,
  WIRE_BYTES,
  WIRE_VARINT,
} from '../../../machinery/protobuf-wire.js';
import { GRPC_FRAME_HEADER_BYTES, writeFrameHeader } from './grpc-frame.js';

export interface RangeRequest {
  key: Uint8Array;
  /** Empty or absent: the key alone; "\0": every key from key on. */
  range_end?: Uint8Array;
  limit?: number;
  /** 0: the current revision. */
  revision?: number;
  count_only?: boolean;
}

export interface PutRequest {
  key: Uint8Array;
  value: Uint8Array;
  /** A lease id (decimal, as etcd3's), 0 or absent: none. */
  lease?: string | number;
}

export interface DeleteRangeRequest {
  key: Uint8Array;
  range_end?: Uint8Array;
}

export type RequestOp = { request_range: RangeRequest } | { request_put: PutRequest } | { request_delete_range: DeleteRangeRequest };

/** Compare.CompareTarget, by value. */
const COMPARE_TARGETS = { Version: 0, Create: 1, Mod: 2, Value: 3, Lease: 4 } as const;
/** Compare.CompareResult, by value. */
const COMPARE_RESULTS = { Equal: 0, Greater: 1, Less: 2, NotEqual: 3 } as const;

/** A Txn guard on one key's version, create or mod revision (the target_union members the store compares). */
export type Compare = { key: Uint8Array; result: keyof typeof COMPARE_RESULTS } & (
  | { target: 'Version'; version: number }
  | { target: 'Create'; create_revision: number }
  | { target: 'Mod'; mod_revision: number }
);

export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure?: RequestOp[];
}

export interface ResponseHeader {
  revision: number;
}

export interface KeyValue {
  key: Buffer;
  create_revision: number;
  mod_revision: number;
  version: number;
  value: Buffer;
  /** The key's lease id, '0' without one. */
  lease: string;
}

export interface RangeResponse {
  header: ResponseHeader;
  kvs: KeyValue[];
  more: boolean;
  count: number;
}

export interface PutResponse {
  header: ResponseHeader;
}

export interface DeleteRangeResponse {
  header: ResponseHeader;
  deleted: number;
}

export interface ResponseOp {
  response_range?: RangeResponse;
  response_put?: PutResponse;
  response_delete_range?: DeleteRangeResponse;
}

export interface TxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: ResponseOp[];
}

// ---- encoding: sizes first, then one exact buffer ----

function optionalBytesSize(field: number, b: Uint8Array | undefined): number {
  return b !== undefined && b.length > 0 ? bytesFieldSize(field, b.length) : 0;
}

function optionalVarintSize(field: number, n: number | undefined): number {
  return n ? varintFieldSize(field, n) : 0;
}

function leaseOf(lease: string | number | undefined): bigint {
  return lease === undefined || lease === 0 || lease === '0' || lease === '' ? 0n : BigInt(lease);
}

function rangeRequestSize(r: RangeRequest): number {
  return (
    optionalBytesSize(1, r.key) +
    optionalBytesSize(2, r.range_end) +
    optionalVarintSize(3, r.limit) +
    optionalVarintSize(4, r.revision) +
    (r.count_only ? varintFieldSize(9, 1) : 0)
  );
}

function writeRangeRequest(w: ProtoWriter, r: RangeRequest): void {
  if (r.key.length > 0) w.bytesField(1, r.key);
  if (r.range_end !== undefined && r.range_end.length > 0) w.bytesField(2, r.range_end);
  if (r.limit) w.varintField(3, r.limit);
  if (r.revision) w.varintField(4, r.revision);
  if (r.count_only) w.varintField(9, 1);
}

function putRequestSize(p: PutRequest, lease: bigint): number {
  return optionalBytesSize(1, p.key) + optionalBytesSize(2, p.value) + (lease !== 0n ? tagSize(3) + bigVarintSize(lease) : 0);
}

function writePutRequest(w: ProtoWriter, p: PutRequest, lease: bigint): void {
  if (p.key.length > 0) w.bytesField(1, p.key);
  if (p.value.length > 0) w.bytesField(2, p.value);
  if (lease !== 0n) w.bigVarintField(3, lease);
}

function deleteRangeRequestSize(d: DeleteRangeRequest): number {
  return optionalBytesSize(1, d.key) + optionalBytesSize(2, d.range_end);
}

function writeDeleteRangeRequest(w: ProtoWriter, d: DeleteRangeRequest): void {
  if (d.key.length > 0) w.bytesField(1, d.key);
  if (d.range_end !== undefined && d.range_end.length > 0) w.bytesField(2, d.range_end);
}

/** The RequestOp's oneof member: its field number and body size (the member is written even when empty). */
function requestOpBody(op: RequestOp, lease: bigint): { field: number; size: number } {
  if ('request_range' in op) return { field: 1, size: rangeRequestSize(op.request_range) };
  if ('request_put' in op) return { field: 2, size: putRequestSize(op.request_put, lease) };
  return { field: 3, size: deleteRangeRequestSize(op.request_delete_range) };
}

function writeRequestOp(w: ProtoWriter, op: RequestOp, lease: bigint, body: { field: number; size: number }): void {
  w.messageHeader(body.field, body.size);
  if ('request_range' in op) writeRangeRequest(w, op.request_range);
  else if ('request_put' in op) writePutRequest(w, op.request_put, lease);
  else writeDeleteRangeRequest(w, op.request_delete_range);
}

/** The compared value: the target_union member, written even when 0 (etcd reads its presence). */
function compareTargetValue(c: Compare): { field: number; value: number } {
  switch (c.target) {
    case 'Version':
      return { field: 4, value: c.version };
    case 'Create':
      return { field: 5, value: c.create_revision };
    case 'Mod':
      return { field: 6, value: c.mod_revision };
  }
}

function compareSize(c: Compare): number {
  const t = compareTargetValue(c);
  return (
    optionalVarintSize(1, COMPARE_RESULTS[c.result]) +
    optionalVarintSize(2, COMPARE_TARGETS[c.target]) +
    optionalBytesSize(3, c.key) +
    varintFieldSize(t.field, t.value)
  );
}

function writeCompare(w: ProtoWriter, c: Compare): void {
  const result = COMPARE_RESULTS[c.result];
  const target = COMPARE_TARGETS[c.target];
  if (result) w.varintField(1, result);
  if (target) w.varintField(2, target);
  if (c.key.length > 0) w.bytesField(3, c.key);
  const t = compareTargetValue(c);
  w.varintField(t.field, t.value);
}

/** A RangeRequest as one gRPC frame. */
export function encodeRangeRequest(r: RangeRequest): Buffer {
  const size = rangeRequestSize(r);
  const w = new ProtoWriter(Buffer.allocUnsafe(GRPC_FRAME_HEADER_BYTES + size), GRPC_FRAME_HEADER_BYTES);
  writeFrameHeader(w.buf, size);
  writeRangeRequest(w, r);
  return w.buf;
}

/** A TxnRequest as one gRPC frame. */
export function encodeTxnRequest(t: TxnRequest): Buffer {
  const ops = [...t.success.map((op) => ({ field: 2, op })), ...(t.failure ?? []).map((op) => ({ field: 3, op }))];
  const leases = ops.map(({ op }) => ('request_put' in op ? leaseOf(op.request_put.lease) : 0n));
  const bodies = ops.map(({ op }, i) => requestOpBody(op, leases[i]));
  const compareSizes = t.compare.map(compareSize);
  let size = 0;
  for (const s of compareSizes) size += bytesFieldSize(1, s);
  // A RequestOp is its oneof member: tag, length, body.
  const opSizes = bodies.map((b) => bytesFieldSize(b.field, b.size));
  for (let i = 0; i < ops.length; i++) size += bytesFieldSize(ops[i].field, opSizes[i]);
  const w = new ProtoWriter(Buffer.allocUnsafe(GRPC_FRAME_HEADER_BYTES + size), GRPC_FRAME_HEADER_BYTES);
  writeFrameHeader(w.buf, size);
  for (let i = 0; i < t.compare.length; i++) {
    w.messageHeader(1, compareSizes[i]);
    writeCompare(w, t.compare[i]);
  }
  for (let i = 0; i < ops.length; i++) {
    w.messageHeader(ops[i].field, opSizes[i]);
    writeRequestOp(w, ops[i].op, leases[i], bodies[i]);
  }
  return w.buf;
}

// ---- decoding: unknown fields skipped, absent fields at proto3's defaults ----

/** A known field must come with its declared wire type (a mismatch is a malformed message, not a skip). */
export function expectWire(wire: number, expected: number, field: number, message: string): void {
  if (wire !== expected) throw new ProtoDecodeError(`${message} field ${field} has wire type ${wire}, not ${expected}`);
}

export function decodeResponseHeader(r: ProtoReader, end: number): ResponseHeader {
  const header: ResponseHeader = { revision: 0 };
  while (r.pos < end) {
    const tag = r.varint();
    const field = tag >>> 3;
    if (field === 3) {
      expectWire(tag & 7, WIRE_VARINT, 3, 'ResponseHeader');
      header.revision = r.varint();
    } else r.skip(tag & 7);
  }
  return header;
}

export function decodeKeyValue(r: ProtoReader, end: number): KeyValue {
  const kv: KeyValue = { key: EMPTY, create_revision: 0, mod_revision: 0, version: 0, value: EMPTY, lease: '0' };
  while (r.pos < end) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    switch (field) {
      case 1:
        expectWire(wire, WIRE_BYTES, field, 'KeyValue');
        kv.key = r.bytes();
        break;
      case 2:
        expectWire(wire, WIRE_VARINT, field, 'KeyValue');
        kv.create_revision = r.varint();
        break;
      case 3:
        expectWire(wire, WIRE_VARINT, field, 'KeyValue');
        kv.mod_revision = r.varint();
        break;
      case 4:
        expectWire(wire, WIRE_VARINT, field, 'KeyValue');
        kv.version = r.varint();
        break;
      case 5:
        expectWire(wire, WIRE_BYTES, field, 'KeyValue');
        kv.value = r.bytes();
        break;
      case 6:
        expectWire(wire, WIRE_VARINT, field, 'KeyValue');
        kv.lease = r.bigVarint().toString();
        break;
      default:
        r.skip(wire);
    }
  }
  return kv;
}

const EMPTY = Buffer.alloc(0);

function decodeRangeResponseBody(r: ProtoReader, end: number): RangeResponse {
  const res: RangeResponse = { header: { revision: 0 }, kvs: [], more: false, count: 0 };
  while (r.pos < end) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    switch (field) {
      case 1:
        expectWire(wire, WIRE_BYTES, field, 'RangeResponse');
        res.header = decodeResponseHeader(r, r.messageEnd());
        break;
      case 2:
        expectWire(wire, WIRE_BYTES, field, 'RangeResponse');
        res.kvs.push(decodeKeyValue(r, r.messageEnd()));
        break;
      case 3:
        expectWire(wire, WIRE_VARINT, field, 'RangeResponse');
        res.more = r.varint() !== 0;
        break;
      case 4:
        expectWire(wire, WIRE_VARINT, field, 'RangeResponse');
        res.count = r.varint();
        break;
      default:
        r.skip(wire);
    }
  }
  return res;
}

/** Decodes a message body whose only field of interest is the header (field 1), plus `deleted` (2) for DeleteRange. */
function decodeHeaderOnly(r: ProtoReader, end: number, message: string): { header: ResponseHeader; deleted: number } {
  const res = { header: { revision: 0 }, deleted: 0 };
  while (r.pos < end) {
    const tag = r.varint();
    const field = tag >>> 3;
    if (field === 1) {
      expectWire(tag & 7, WIRE_BYTES, field, message);
      res.header = decodeResponseHeader(r, r.messageEnd());
    } else if (field === 2 && message === 'DeleteRangeResponse') {
      expectWire(tag & 7, WIRE_VARINT, field, message);
      res.deleted = r.varint();
    } else r.skip(tag & 7);
  }
  return res;
}

function decodeResponseOp(r: ProtoReader, end: number): ResponseOp {
  const op: ResponseOp = {};
  while (r.pos < end) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field >= 1 && field <= 3) expectWire(wire, WIRE_BYTES, field, 'ResponseOp');
    if (field === 1) op.response_range = decodeRangeResponseBody(r, r.messageEnd());
    else if (field === 2) op.response_put = { header: decodeHeaderOnly(r, r.messageEnd(), 'PutResponse').header };
    else if (field === 3) op.response_delete_range = decodeHeaderOnly(r, r.messageEnd(), 'DeleteRangeResponse');
    else r.skip(wire);
  }
  return op;
}

/** Decodes a RangeResponse message (the frame's payload). */
export function decodeRangeResponse(buf: Buffer): RangeResponse {
  return decodeRangeResponseBody(new ProtoReader(buf), buf.length);
}

/** Decodes a TxnResponse message (the frame's payload). */
export function decodeTxnResponse(buf: Buffer): TxnResponse {
  const r = new ProtoReader(buf);
  const res: TxnResponse = { header: { revision: 0 }, succeeded: false, responses: [] };
  while (r.more()) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    switch (field) {
      case 1:
        expectWire(wire, WIRE_BYTES, field, 'TxnResponse');
        res.header = decodeResponseHeader(r, r.messageEnd());
        break;
      case 2:
        expectWire(wire, WIRE_VARINT, field, 'TxnResponse');
        res.succeeded = r.varint() !== 0;
        break;
      case 3:
        expectWire(wire, WIRE_BYTES, field, 'TxnResponse');
        res.responses.push(decodeResponseOp(r, r.messageEnd()));
        break;
      default:
        r.skip(wire);
    }
  }
  return res;
}
