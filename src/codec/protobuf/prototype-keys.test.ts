import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtobufObject, encodeProtobufObject } from './codec.js';

const NAMES = Object.getOwnPropertyNames(Object.prototype);

describe('Protobuf maps', () => {
  it('round-trip every Object.prototype name as a key, `__proto__` included, prototypes untouched', () => {
    const data = Object.fromEntries(NAMES.map((n) => [n, `v-${n}`]));
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p', labels: Object.fromEntries([['constructor', 'y']]) }, data };
    const back = decodeProtobufObject(encodeProtobufObject(obj)) as { data: Record<string, string>; metadata: { labels: Record<string, string> } };
    assert.deepEqual(Object.keys(back.data).sort(), [...NAMES].sort());
    for (const n of NAMES) assert.equal(Object.hasOwn(back.data, n) && back.data[n], `v-${n}`);
    assert.equal(Object.getPrototypeOf(back.data), Object.prototype);
    assert.equal(back.metadata.labels.constructor, 'y');
  });
});
