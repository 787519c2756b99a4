import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { duplicateFields } from './duplicate-fields.js';

describe('duplicateFields', () => {
  it('reports each repeat of a key within one object, in order', () => {
    assert.deepEqual(duplicateFields('{"spec":{"replicas":1,"paused":true,"replicas":2,"paused":false}}'), ['replicas', 'paused']);
  });
  it('does not confuse the same key in different objects or string values with keys', () => {
    assert.deepEqual(duplicateFields('{"a":{"name":"x"},"b":[{"name":"name"},{"name":":"}],"c":"a"}'), []);
  });
  it('decodes escaped keys before comparing', () => {
    assert.deepEqual(duplicateFields('{"a\\u0062":1,"ab":2, "q\\"":3}'), ['ab']);
  });
});
