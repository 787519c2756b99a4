import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBoolError, parseGoBool } from './go-bool.js';

test('parseGoBool accepts exactly the spellings of strconv.ParseBool', () => {
  for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) assert.equal(parseGoBool(t), true, t);
  for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False']) assert.equal(parseGoBool(f), false, f);
  for (const bad of ['', 'yes', 'tRUE', ' true', '2']) assert.equal(parseGoBool(bad), undefined, bad);
});

test('parseBoolError words the error as strconv.NumError does', () => {
  assert.equal(parseBoolError('nope'), 'strconv.ParseBool: parsing "nope": invalid syntax');
  assert.equal(parseBoolError('a"b'), 'strconv.ParseBool: parsing "a\\"b": invalid syntax');
});
