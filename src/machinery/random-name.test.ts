import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateName, NAME_ALPHABET } from './random-name.js';

test('appends five characters from the alphabet', () => {
  assert.equal(
    generateName('web-', () => 0),
    'web-bbbbb',
  );
  assert.equal(
    generateName('web-', () => 0.9999999),
    'web-99999',
  );
  assert.equal(
    generateName('', () => 1),
    '99999',
  ); // a source returning 1 stays in range
  const seq = [0, 1 / 27, 2 / 27, 3 / 27, 26 / 27];
  let i = 0;
  assert.equal(
    generateName('x-', () => seq[i++]),
    'x-bcdf9',
  );
});

test('truncates the base so the name fits 63 characters', () => {
  const name = generateName('a'.repeat(100), () => 0.5);
  assert.equal(name.length, 63);
  assert.equal(name.slice(0, 58), 'a'.repeat(58));
  assert.equal(generateName('a'.repeat(58), () => 0).length, 63);
});

test('default randomness uses only the alphabet', () => {
  for (let n = 0; n < 100; n++) {
    const suffix = generateName('p-').slice(2);
    assert.equal(suffix.length, 5);
    for (const c of suffix) assert.ok(NAME_ALPHABET.includes(c), c);
  }
});
