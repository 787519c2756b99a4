import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtobufObject, encodeProtobufObject } from './codec.js';
import { KUBECTL_1_33_CREATES } from './fixtures/kubectl-1.33.js';

// Bodies kubectl 1.33 really sent; the expected JSON is what it prints with --dry-run=client -o json.
describe('kubectl 1.33 Protobuf request bodies', () => {
  for (const f of KUBECTL_1_33_CREATES) {
    it(`decodes \`${f.command}\` to the JSON kubectl would have sent`, () => {
      assert.deepStrictEqual(decodeProtobufObject(Buffer.from(f.body, 'base64')), f.json);
    });

    it(`re-encodes \`${f.command}\` to bytes that decode the same`, () => {
      const decoded = decodeProtobufObject(Buffer.from(f.body, 'base64'));
      assert.deepStrictEqual(decodeProtobufObject(encodeProtobufObject(decoded)), f.json);
    });
  }

  it('decodes from a plain Uint8Array as well as a Buffer', () => {
    const f = KUBECTL_1_33_CREATES[1]!;
    const copy = new Uint8Array(Buffer.from(f.body, 'base64'));
    assert.deepStrictEqual(decodeProtobufObject(copy), f.json);
  });
});
