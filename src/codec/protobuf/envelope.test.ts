import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeEnvelope, encodeEnvelope, hasProtobufMagic, PROTOBUF_MAGIC } from './envelope.js';
import { ProtobufDecodeError } from './errors.js';
import { KUBECTL_1_33_CREATES } from './fixtures/kubectl-1.33.js';

describe('protobuf envelope', () => {
  it('starts with the magic 6b 38 73 00', () => {
    const bytes = encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap', raw: Uint8Array.of(1, 2, 3) });
    assert.deepEqual([...bytes.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
    assert.deepEqual([...PROTOBUF_MAGIC], [0x6b, 0x38, 0x73, 0x00]);
    assert.equal(hasProtobufMagic(bytes), true);
  });

  it('round-trips typeMeta, raw, contentEncoding and contentType', () => {
    const raw = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff); // a multi-byte length varint
    const bytes = encodeEnvelope({ apiVersion: 'events.k8s.io/v1', kind: 'Événement', raw, contentEncoding: 'gzip', contentType: 'application/x' });
    const env = decodeEnvelope(bytes);
    assert.equal(env.apiVersion, 'events.k8s.io/v1');
    assert.equal(env.kind, 'Événement');
    assert.deepEqual([...env.raw], [...raw]);
    assert.equal(env.contentEncoding, 'gzip');
    assert.equal(env.contentType, 'application/x');
  });

  it('re-encodes kubectl 1.33 envelopes byte for byte', () => {
    for (const f of KUBECTL_1_33_CREATES) {
      const original = Buffer.from(f.body, 'base64');
      const env = decodeEnvelope(original);
      assert.equal(env.apiVersion, f.json.apiVersion, f.name);
      assert.equal(env.contentEncoding, '');
      assert.equal(env.contentType, '');
      assert.deepEqual(Buffer.from(encodeEnvelope(env)), original, f.name);
    }
  });

  it('rejects a body without the magic, with a clear message', () => {
    for (const body of [
      Buffer.from('{"kind":"ConfigMap"}'),
      new Uint8Array(0),
      Uint8Array.of(0x6b, 0x38, 0x73),
      Uint8Array.of(0x6b, 0x38, 0x73, 0x01, 0x0a, 0x00),
    ]) {
      assert.equal(hasProtobufMagic(body), false);
      assert.throws(
        () => decodeEnvelope(body),
        (err: unknown) => err instanceof ProtobufDecodeError && /magic bytes 6b 38 73 00/.test(err.message),
      );
    }
  });

  it('rejects truncated and ill-typed envelopes as ProtobufDecodeError', () => {
    const good = encodeEnvelope({ apiVersion: 'v1', kind: 'Namespace', raw: Uint8Array.of(1, 2, 3, 4) });
    // Field boundaries: magic | typeMeta (17 bytes) | raw (6) | contentEncoding (2) | contentType (2).
    const boundaries = new Set([4, 21, 27, 29, 31]);
    assert.equal(good.length, 31);
    for (let cut = 5; cut < good.length; cut++) {
      if (boundaries.has(cut)) continue;
      assert.throws(() => decodeEnvelope(good.subarray(0, cut)), ProtobufDecodeError, `cut at ${cut}`);
    }
    // Field 2 (raw) sent as a varint instead of length-delimited.
    assert.throws(() => decodeEnvelope(Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x10, 0x01)), ProtobufDecodeError);
  });

  it('skips unknown envelope fields', () => {
    const extra = Buffer.concat([encodeEnvelope({ apiVersion: 'v1', kind: 'Secret', raw: new Uint8Array(0) }), Buffer.from([0x28, 0x07])]);
    assert.equal(decodeEnvelope(extra).kind, 'Secret');
  });
});
