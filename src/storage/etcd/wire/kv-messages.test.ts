/**
 * The hand-written etcd messages against etcd's .proto files as protobufjs reads them (the
 * encoding the etcd3 package sends and expects): what we encode decodes there to what we meant,
 * what it encodes decodes here to the same values.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { ProtoDecodeError } from '../../../machinery/protobuf-wire.js';
import { GRPC_FRAME_HEADER_BYTES } from './grpc-frame.js';
import { decodeRangeResponse, decodeTxnResponse, encodeRangeRequest, encodeTxnRequest } from './kv-messages.js';
import { decodeLeaseGrantResponse, decodeStatusResponse, encodeCompactionRequest, encodeLeaseGrantRequest } from './maintenance-messages.js';

const require = createRequire(import.meta.url);
const root = new protobuf.Root().loadSync(require.resolve('etcd3/proto/rpc.proto'), { keepCase: true });
const TxnRequest = root.lookupType('etcdserverpb.TxnRequest');
const RangeRequest = root.lookupType('etcdserverpb.RangeRequest');
const TxnResponse = root.lookupType('etcdserverpb.TxnResponse');
const RangeResponse = root.lookupType('etcdserverpb.RangeResponse');
const CompactionRequest = root.lookupType('etcdserverpb.CompactionRequest');
const LeaseGrantRequest = root.lookupType('etcdserverpb.LeaseGrantRequest');
const LeaseGrantResponse = root.lookupType('etcdserverpb.LeaseGrantResponse');
const StatusResponse = root.lookupType('etcdserverpb.StatusResponse');
const asObject = { longs: String, enums: String, bytes: String, defaults: true, oneofs: true } as const;

/** The message of a one-message gRPC frame, checking its header. */
function payload(frame: Buffer): Buffer {
  assert.equal(frame[0], 0, 'uncompressed');
  assert.equal(frame.readUInt32BE(1), frame.length - GRPC_FRAME_HEADER_BYTES, 'frame length');
  return frame.subarray(GRPC_FRAME_HEADER_BYTES);
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

describe('etcd KV messages', () => {
  it('encodes a create Txn as etcd reads it, the mod_revision 0 compare included', () => {
    const value = Buffer.alloc(1000, 'v');
    const frame = encodeTxnRequest({
      compare: [{ key: Buffer.from('/registry/configmaps/default/a'), target: 'Mod', result: 'Equal', mod_revision: 0 }],
      success: [{ request_put: { key: Buffer.from('/registry/configmaps/default/a'), value, lease: '7587869812345678901' } }],
    });
    const txn = TxnRequest.toObject(TxnRequest.decode(payload(frame)), asObject);
    assert.equal(txn.compare.length, 1);
    assert.equal(txn.compare[0].target, 'Mod');
    assert.equal(txn.compare[0].result, 'Equal');
    assert.equal(txn.compare[0].key, b64('/registry/configmaps/default/a'));
    // The oneof member is present though 0: etcd compares against it.
    assert.equal(txn.compare[0].target_union, 'mod_revision');
    assert.equal(txn.compare[0].mod_revision, '0');
    assert.equal(txn.success.length, 1);
    assert.equal(txn.success[0].request, 'request_put');
    assert.equal(txn.success[0].request_put.value, b64(value));
    assert.equal(txn.success[0].request_put.lease, '7587869812345678901');
    assert.deepEqual(txn.failure, []);
  });

  it('encodes update and delete Txns with their failure reads, and version compares', () => {
    const key = Buffer.from('/k/é');
    const frame = encodeTxnRequest({
      compare: [
        { key, target: 'Mod', result: 'Equal', mod_revision: 123_456_789_012 },
        { key, target: 'Version', result: 'Greater', version: 3 },
        { key, target: 'Create', result: 'NotEqual', create_revision: 2 },
      ],
      success: [{ request_delete_range: { key } }, { request_put: { key, value: Buffer.alloc(0) } }],
      failure: [{ request_range: { key } }],
    });
    const txn = TxnRequest.toObject(TxnRequest.decode(payload(frame)), asObject);
    assert.deepEqual(
      txn.compare.map((c: Record<string, string>) => [c.target, c.result, c[c.target_union]]),
      [
        ['Mod', 'Equal', '123456789012'],
        ['Version', 'Greater', '3'],
        ['Create', 'NotEqual', '2'],
      ],
    );
    assert.deepEqual(
      txn.success.map((op: { request: string }) => op.request),
      ['request_delete_range', 'request_put'],
    );
    assert.equal(txn.success[0].request_delete_range.key, b64(key));
    // An empty put is still a put (the oneof member is there, with no fields).
    assert.equal(txn.success[1].request_put.value, '');
    assert.equal(txn.failure[0].request, 'request_range');
    assert.equal(txn.failure[0].request_range.key, b64(key));
  });

  it('encodes ranges with end, limit and revision; the same bytes as protobufjs for set fields', () => {
    const req = { key: Buffer.from('/registry/pods/'), range_end: Buffer.from('/registry/pods0'), limit: 500, revision: 2 ** 40 };
    const frame = encodeRangeRequest(req);
    assert.deepEqual(payload(frame), Buffer.from(RangeRequest.encode(RangeRequest.fromObject(req)).finish()));
    const bare = RangeRequest.toObject(RangeRequest.decode(payload(encodeRangeRequest({ key: Buffer.from('k') }))), asObject);
    assert.equal(bare.limit, '0');
    assert.equal(bare.revision, '0');
    assert.equal(bare.range_end, '');
    const count = RangeRequest.toObject(RangeRequest.decode(payload(encodeRangeRequest({ key: Buffer.from('k'), count_only: true }))), asObject);
    assert.equal(count.count_only, true);
  });

  it('decodes Txn responses: header, succeeded, the failure read and unknown fields', () => {
    const kv = {
      key: Buffer.from('/registry/a'),
      create_revision: 2,
      mod_revision: 9_007_199_254_740_000,
      version: 4,
      value: Buffer.from('{"kind":"ConfigMap"}'),
      lease: '7587869812345678901',
    };
    const bytes = TxnResponse.encode(
      TxnResponse.fromObject({
        // 64-bit ids, which this decoder skips, and the raft term it does not keep.
        header: { cluster_id: '18446744073709551615', member_id: '9223372036854775808', revision: 77, raft_term: 5 },
        succeeded: false,
        responses: [{ response_range: { header: { revision: 77 }, kvs: [kv], more: true, count: 12 } }, { response_put: { header: { revision: 77 } } }],
      }),
    ).finish();
    const res = decodeTxnResponse(Buffer.from(bytes));
    assert.equal(res.header.revision, 77);
    assert.equal(res.succeeded, false);
    assert.equal(res.responses.length, 2);
    const range = res.responses[0].response_range;
    assert.ok(range);
    assert.equal(range.more, true);
    assert.equal(range.count, 12);
    assert.deepEqual(
      { ...range.kvs[0], key: range.kvs[0].key.toString(), value: range.kvs[0].value.toString() },
      {
        ...kv,
        key: '/registry/a',
        value: '{"kind":"ConfigMap"}',
      },
    );
    assert.equal(res.responses[1].response_put?.header.revision, 77);
  });

  it('decodes a succeeded Txn and an empty range at proto3 defaults', () => {
    const ok = decodeTxnResponse(Buffer.from(TxnResponse.encode(TxnResponse.fromObject({ header: { revision: 3 }, succeeded: true })).finish()));
    assert.deepEqual(ok, { header: { revision: 3 }, succeeded: true, responses: [] });
    const empty = decodeRangeResponse(Buffer.from(RangeResponse.encode(RangeResponse.fromObject({ header: { revision: 8 } })).finish()));
    assert.deepEqual(empty, { header: { revision: 8 }, kvs: [], more: false, count: 0 });
  });

  it('decodes many key-values as views into the response, not copies', () => {
    const kvs = Array.from({ length: 300 }, (_, i) => ({
      key: Buffer.from(`/k/${i}`),
      value: Buffer.alloc(100 + i, i),
      mod_revision: i + 2,
      create_revision: 2,
    }));
    const buf = Buffer.from(RangeResponse.encode(RangeResponse.fromObject({ header: { revision: 400 }, kvs, count: 300 })).finish());
    const res = decodeRangeResponse(buf);
    assert.equal(res.kvs.length, 300);
    assert.equal(res.kvs[299].key.toString(), '/k/299');
    assert.equal(res.kvs[299].value.length, 399);
    assert.equal(res.kvs[299].value.buffer, buf.buffer);
    assert.equal(res.kvs[299].mod_revision, 301);
  });

  it('refuses truncated messages and mismatched wire types', () => {
    const buf = Buffer.from(RangeResponse.encode(RangeResponse.fromObject({ header: { revision: 8 }, kvs: [{ key: Buffer.from('abc') }] })).finish());
    assert.throws(() => decodeRangeResponse(buf.subarray(0, buf.length - 1)), ProtoDecodeError);
    // Field 3 (more) sent length-delimited.
    assert.throws(() => decodeRangeResponse(Buffer.from([0x1a, 0x01, 0x00])), /wire type 2/);
    // A varint that never ends.
    assert.throws(() => decodeRangeResponse(Buffer.from([0x20, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])), ProtoDecodeError);
  });

  it('encodes compaction and lease grants, decodes lease ids with all 64 bits and the status sizes', () => {
    assert.deepEqual(CompactionRequest.toObject(CompactionRequest.decode(payload(encodeCompactionRequest({ revision: 1234, physical: true }))), asObject), {
      revision: '1234',
      physical: true,
    });
    assert.equal(LeaseGrantRequest.toObject(LeaseGrantRequest.decode(payload(encodeLeaseGrantRequest(3660))), asObject).TTL, '3660');
    const grant = decodeLeaseGrantResponse(
      Buffer.from(LeaseGrantResponse.encode(LeaseGrantResponse.fromObject({ header: { revision: 5 }, ID: '7587869812345678901', TTL: 3660 })).finish()),
    );
    assert.deepEqual(grant, { header: { revision: 5 }, ID: '7587869812345678901', TTL: 3660 });
    const status = decodeStatusResponse(
      Buffer.from(
        StatusResponse.encode(
          StatusResponse.fromObject({
            header: { revision: 9 },
            version: '3.4.23',
            dbSize: 2 ** 33,
            leader: '9223372036854775807',
            errors: ['x'],
            dbSizeInUse: 4096,
          }),
        ).finish(),
      ),
    );
    assert.deepEqual(status, { header: { revision: 9 }, dbSize: 2 ** 33, dbSizeInUse: 4096 });
  });
});
