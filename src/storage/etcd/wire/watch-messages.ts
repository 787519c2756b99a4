/**
 * etcd's Watch messages (rpc.proto WatchRequest / WatchCreateRequest / WatchCancelRequest /
 * WatchResponse, kv.proto Event), encoded and decoded by hand as kv-messages.ts does for KV.
 */
import { bytesFieldSize, ProtoReader, ProtoWriter, varintFieldSize, WIRE_BYTES, WIRE_VARINT } from '../../../machinery/protobuf-wire.js';
import { GRPC_FRAME_HEADER_BYTES, writeFrameHeader } from './grpc-frame.js';
import { decodeKeyValue, decodeResponseHeader, expectWire, type KeyValue, type ResponseHeader } from './kv-messages.js';

export interface WatchCreateRequest {
  key: Uint8Array;
  range_end?: Uint8Array;
  /** 0: from the next revision. */
  start_revision?: number;
  progress_notify?: boolean;
  prev_kv?: boolean;
}

export interface WatchEvent {
  type: 'Put' | 'Delete';
  kv: KeyValue;
  prev_kv?: KeyValue;
}

export interface WatchResponse {
  header: ResponseHeader;
  watch_id: number;
  created: boolean;
  canceled: boolean;
  compact_revision: number;
  cancel_reason: string;
  events: WatchEvent[];
}

/** A WatchRequest { create_request } as one gRPC frame. */
export function encodeWatchCreateRequest(c: WatchCreateRequest): Buffer {
  const key = c.key.length > 0 ? bytesFieldSize(1, c.key.length) : 0;
  const end = c.range_end && c.range_end.length > 0 ? bytesFieldSize(2, c.range_end.length) : 0;
  const start = c.start_revision ? varintFieldSize(3, c.start_revision) : 0;
  const progress = c.progress_notify ? varintFieldSize(4, 1) : 0;
  const prev = c.prev_kv ? varintFieldSize(6, 1) : 0;
  const body = key + end + start + progress + prev;
  const size = bytesFieldSize(1, body);
  const w = new ProtoWriter(Buffer.allocUnsafe(GRPC_FRAME_HEADER_BYTES + size), GRPC_FRAME_HEADER_BYTES);
  writeFrameHeader(w.buf, size);
  w.messageHeader(1, body);
  if (key) w.bytesField(1, c.key);
  if (end && c.range_end) w.bytesField(2, c.range_end);
  if (c.start_revision) w.varintField(3, c.start_revision);
  if (progress) w.varintField(4, 1);
  if (prev) w.varintField(6, 1);
  return w.buf;
}

/** A WatchRequest { cancel_request { watch_id } } as one gRPC frame. */
export function encodeWatchCancelRequest(watchId: number): Buffer {
  const body = watchId ? varintFieldSize(1, watchId) : 0;
  const size = bytesFieldSize(2, body);
  const w = new ProtoWriter(Buffer.allocUnsafe(GRPC_FRAME_HEADER_BYTES + size), GRPC_FRAME_HEADER_BYTES);
  writeFrameHeader(w.buf, size);
  w.messageHeader(2, body);
  if (watchId) w.varintField(1, watchId);
  return w.buf;
}

function decodeEvent(r: ProtoReader, end: number): WatchEvent {
  let type = 0;
  let kv: KeyValue | undefined;
  let prev: KeyValue | undefined;
  while (r.pos < end) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1) {
      expectWire(wire, WIRE_VARINT, field, 'Event');
      type = r.varint();
    } else if (field === 2) {
      expectWire(wire, WIRE_BYTES, field, 'Event');
      kv = decodeKeyValue(r, r.messageEnd());
    } else if (field === 3) {
      expectWire(wire, WIRE_BYTES, field, 'Event');
      prev = decodeKeyValue(r, r.messageEnd());
    } else r.skip(wire);
  }
  const ev: WatchEvent = {
    type: type === 1 ? 'Delete' : 'Put',
    kv: kv ?? { key: Buffer.alloc(0), create_revision: 0, mod_revision: 0, version: 0, value: Buffer.alloc(0), lease: '0' },
  };
  if (prev) ev.prev_kv = prev;
  return ev;
}

/** Decodes a WatchResponse message. */
export function decodeWatchResponse(buf: Buffer): WatchResponse {
  const r = new ProtoReader(buf);
  const res: WatchResponse = { header: { revision: 0 }, watch_id: 0, created: false, canceled: false, compact_revision: 0, cancel_reason: '', events: [] };
  while (r.more()) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    switch (field) {
      case 1:
        expectWire(wire, WIRE_BYTES, field, 'WatchResponse');
        res.header = decodeResponseHeader(r, r.messageEnd());
        break;
      case 2:
        expectWire(wire, WIRE_VARINT, field, 'WatchResponse');
        res.watch_id = r.varint();
        break;
      case 3:
        expectWire(wire, WIRE_VARINT, field, 'WatchResponse');
        res.created = r.varint() !== 0;
        break;
      case 4:
        expectWire(wire, WIRE_VARINT, field, 'WatchResponse');
        res.canceled = r.varint() !== 0;
        break;
      case 5:
        expectWire(wire, WIRE_VARINT, field, 'WatchResponse');
        res.compact_revision = r.varint();
        break;
      case 6:
        expectWire(wire, WIRE_BYTES, field, 'WatchResponse');
        res.cancel_reason = r.bytes().toString('utf8');
        break;
      case 11:
        expectWire(wire, WIRE_BYTES, field, 'WatchResponse');
        res.events.push(decodeEvent(r, r.messageEnd()));
        break;
      default:
        r.skip(wire);
    }
  }
  return res;
}
