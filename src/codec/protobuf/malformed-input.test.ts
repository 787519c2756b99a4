/**
 * Protobuf bodies a client can get wrong or forge: each is a ProtobufDecodeError (the server's
 * 400), found in bounded time, never an unexpected exception (a 500).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { decodeProtobufObject } from './codec.js';
import { encodeEnvelope } from './envelope.js';
import { protobufTypeFor } from './registry.js';
import { ProtobufDecodeError } from './errors.js';

const CM = { apiVersion: 'v1', kind: 'ConfigMap' };

function configMapBody(raw: Uint8Array): Uint8Array {
  return encodeEnvelope({ ...CM, raw });
}

/** A ConfigMap named x whose metadata.creationTimestamp is {seconds}. */
function withCreationSeconds(seconds: string): Uint8Array {
  const time = protobuf.Writer.create().uint32(0x08).int64(seconds).finish();
  const meta = protobuf.Writer.create()
    .uint32(0x0a)
    .string('x')
    .uint32((8 << 3) | 2)
    .bytes(time)
    .finish();
  return protobuf.Writer.create().uint32(0x0a).bytes(meta).finish();
}

function assertMalformed(raw: Uint8Array, pattern?: RegExp): void {
  const start = performance.now();
  assert.throws(
    () => decodeProtobufObject(configMapBody(raw), CM),
    (e: unknown) => e instanceof ProtobufDecodeError && (pattern === undefined || pattern.test(e.message)),
  );
  // Bounded, not instant: the first call also loads the message types.
  assert.ok(performance.now() - start < 2000);
}

describe('malformed Protobuf bodies', () => {
  it('a time past what RFC 3339 can write (seconds = 2^63-1) is malformed, not a server error', () => {
    assertMalformed(withCreationSeconds('9223372036854775807'), /timestamp seconds .* out of range/);
    assertMalformed(withCreationSeconds('-9223372036854775808'), /out of range/);
    assertMalformed(withCreationSeconds('253402300800'), /out of range/);
  });

  it('times from year 0000 to 9999 still read', () => {
    const last = decodeProtobufObject(configMapBody(withCreationSeconds('253402300799')), CM) as { metadata: { creationTimestamp: string } };
    assert.equal(last.metadata.creationTimestamp, '9999-12-31T23:59:59Z');
    const first = decodeProtobufObject(configMapBody(withCreationSeconds('-62167219200')), CM) as { metadata: { creationTimestamp: string } };
    assert.equal(first.metadata.creationTimestamp, '0000-01-01T00:00:00Z');
  });

  it('a length past the end, an 11-byte varint, an unknown or truncated wire type are malformed', () => {
    assertMalformed(Uint8Array.of(0x0a, 0x7f, 0x01));
    assertMalformed(Uint8Array.of(0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f));
    // metadata.generation (an int64) as an 11-byte varint.
    const generation = Uint8Array.of(7 << 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    assertMalformed(Uint8Array.of(0x0a, generation.length, ...generation));
    assertMalformed(Uint8Array.of((5 << 3) | 7, 0x00));
    assertMalformed(Uint8Array.of((5 << 3) | 3));
  });

  it('a body of three million bytes of repeated data entries decodes in bounded time', () => {
    // Many small map entries: work proportional to the bytes, nothing more.
    const w = protobuf.Writer.create();
    w.uint32(0x0a).bytes(protobuf.Writer.create().uint32(0x0a).string('x').finish());
    const entry = protobuf.Writer.create().uint32(0x0a).string('k').uint32(0x12).string('v').finish();
    for (let i = 0; i < 100_000; i++) w.uint32((2 << 3) | 2).bytes(entry);
    const start = performance.now();
    const cm = decodeProtobufObject(configMapBody(w.finish()), CM) as { data: Record<string, string> };
    assert.deepEqual(cm.data, { k: 'v' });
    assert.ok(performance.now() - start < 2000);
  });

  it('a schema nested 100,000 levels (JSONSchemaProps.not in a CRD) is malformed, found fast', () => {
    const crdType = protobufTypeFor('apiextensions.k8s.io/v1', 'CustomResourceDefinition');
    const props = crdType.root.lookupType('k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps');
    const not = props.fields.not.id;
    // Built from the inside out: each level is a length-delimited `not` around the previous one.
    const chunks: Uint8Array[] = [];
    let inner = 0;
    for (let i = 0; i < 100_000; i++) {
      const head = protobuf.Writer.create()
        .uint32((not << 3) | 2)
        .uint32(inner)
        .finish();
      chunks.push(head);
      inner += head.length;
    }
    const schema = Buffer.concat(chunks.reverse());
    const validation = protobuf.Writer.create()
      .uint32((1 << 3) | 2)
      .bytes(schema)
      .finish();
    const version = protobuf.Writer.create()
      .uint32(0x0a)
      .string('v1')
      .uint32((4 << 3) | 2)
      .bytes(validation)
      .finish();
    const spec = protobuf.Writer.create()
      .uint32((7 << 3) | 2)
      .bytes(version)
      .finish();
    const raw = protobuf.Writer.create()
      .uint32((2 << 3) | 2)
      .bytes(spec)
      .finish();
    const body = encodeEnvelope({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', raw });
    const start = performance.now();
    assert.throws(() => decodeProtobufObject(body), ProtobufDecodeError);
    assert.ok(performance.now() - start < 2000);
  });
});
