import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtobufEncodeError } from './errors.js';
import { ProtobufDecodeError } from './errors.js';
import {
  extraValueFromJson,
  extraValueToJson,
  intOrStringFromJson,
  intOrStringToJson,
  microTimeToJson,
  quantityFromJson,
  quantityToJson,
  rawExtensionFromJson,
  rawExtensionToJson,
  timeFromJson,
  timeToJson,
} from './wire-values.js';

describe('protobuf wire values', () => {
  it('parses RFC 3339 with offsets, fractions and small years', () => {
    assert.deepEqual(timeFromJson('2024-01-01T00:00:00Z'), { seconds: 1704067200, nanos: 0 });
    assert.deepEqual(timeFromJson('2024-01-01T01:30:00.5+01:30'), { seconds: 1704067200, nanos: 500_000_000 });
    assert.deepEqual(timeFromJson('2023-12-31T20:00:00-04:00'), { seconds: 1704067200, nanos: 0 });
    assert.deepEqual(timeFromJson('0001-01-01T00:00:00Z'), { seconds: -62135596800, nanos: 0 });
    assert.deepEqual(timeFromJson('0050-06-01T00:00:00.000000001Z').nanos, 1);
  });

  it('rejects malformed or impossible timestamps', () => {
    for (const bad of ['2024-02-30T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01', '2024-01-01T00:00:00', 1704067200, null]) {
      assert.throws(() => timeFromJson(bad), ProtobufEncodeError, String(bad));
    }
  });

  it('formats Time (seconds) and MicroTime (microseconds); the zero time is null', () => {
    assert.equal(timeToJson({ seconds: 1704067200, nanos: 999_999_999 }), '2024-01-01T00:00:00Z');
    assert.equal(microTimeToJson({ seconds: 1704067200, nanos: 1_999 }), '2024-01-01T00:00:00.000001Z');
    assert.equal(timeToJson({}), null);
    assert.equal(microTimeToJson({}), null);
  });

  it('converts IntOrString and Quantity', () => {
    assert.equal(intOrStringToJson(intOrStringFromJson(8080)), 8080);
    assert.equal(intOrStringToJson(intOrStringFromJson('http')), 'http');
    assert.equal(intOrStringToJson({}), 0);
    assert.throws(() => intOrStringFromJson(1.5), ProtobufEncodeError);
    assert.equal(quantityToJson(quantityFromJson('100m')), '100m');
    assert.equal(quantityToJson(quantityFromJson(2)), '2');
    assert.equal(quantityToJson({}), '0');
  });

  it('converts embedded raw JSON (RawExtension) and ExtraValue lists', () => {
    const doc = { spec: { a: [1, 'x', null] } };
    assert.deepEqual(rawExtensionToJson(rawExtensionFromJson(doc)), doc);
    assert.equal(rawExtensionToJson({}), null);
    assert.equal(rawExtensionToJson({ raw: new Uint8Array(0) }), null);
    assert.throws(() => rawExtensionToJson({ raw: Uint8Array.of(0x0a, 0x01) }), ProtobufDecodeError);
    assert.deepEqual(extraValueToJson(extraValueFromJson(['a', 'b'])), ['a', 'b']);
    assert.equal(extraValueToJson({}), null);
    assert.throws(() => extraValueFromJson(['a', 1]), ProtobufEncodeError);
    assert.throws(() => extraValueFromJson('a'), ProtobufEncodeError);
  });
});
