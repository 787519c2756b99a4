import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goFormat, goQuote } from './strategic-errors.js';

describe('strategic patch errors: Go formatting', () => {
  it('%v prints maps with sorted keys, slices space-separated, nil as <nil>', () => {
    assert.equal(goFormat({ b: [1, 'x'], a: null, c: { d: true } }), 'map[a:<nil> b:[1 x] c:map[d:true]]');
  });

  it('%v prints floats as Go does: exponent form outside [1e-4, 1e6)', () => {
    assert.equal(goFormat(1.5), '1.5');
    assert.equal(goFormat(1234567.5), '1.2345675e+06');
    assert.equal(goFormat(0.00001), '1e-05');
    assert.equal(goFormat(0.0001), '0.0001');
    assert.equal(goFormat(123456.5), '123456.5');
  });

  it('%s prints non-strings in the bad-verb form', () => {
    assert.equal(goFormat('delete', 's'), 'delete');
    assert.equal(goFormat(5, 's'), '%!s(int64=5)');
    assert.equal(goFormat(2.5, 's'), '%!s(float64=2.5)');
    assert.equal(goFormat(false, 's'), '%!s(bool=false)');
    assert.equal(goFormat(null, 's'), '%!s(<nil>)');
    assert.equal(goFormat({ a: 1 }, 's'), 'map[a:%!s(int64=1)]');
  });

  it('%q escapes quotes, backslashes and control characters', () => {
    assert.equal(goQuote('a"b\\c\n\x01'), '"a\\"b\\\\c\\n\\x01"');
  });
});
