import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deepEqual } from './deep-equal.js';
import { ownValue, setOwn } from './own-property.js';

const NAMES = Object.getOwnPropertyNames(Object.prototype);

describe('own properties', () => {
  it('ownValue finds no inherited member under any Object.prototype name', () => {
    for (const key of NAMES) {
      assert.equal(ownValue({}, key), undefined, key);
      assert.equal(ownValue(JSON.parse(`{"${key}":"v"}`), key), 'v', key);
    }
  });

  it('setOwn stores every name as an own key, and `__proto__` never as the prototype', () => {
    for (const key of NAMES) {
      const o: Record<string, unknown> = {};
      setOwn(o, key, { polluted: 'yes' });
      assert.ok(Object.hasOwn(o, key), key);
      assert.equal(Object.getPrototypeOf(o), Object.prototype, key);
      assert.equal(JSON.stringify(o), `{"${key}":{"polluted":"yes"}}`);
    }
  });

  it('deepEqual tells an own key from an inherited member', () => {
    for (const key of NAMES) {
      const own = JSON.parse(`{"${key}":1}`);
      assert.equal(deepEqual(own, { other: 1 }), false, key);
      assert.equal(deepEqual({ other: 1 }, own), false, key);
      assert.equal(deepEqual(own, JSON.parse(`{"${key}":1}`)), true, key);
    }
  });
});
