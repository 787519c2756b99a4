import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkFieldSelector, escapeFieldValue, fieldSelectorMatcher, parseFieldRequirements, parseFieldSelector } from './field-selector.js';
import { StatusError } from './status.js';

function rejection(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 400);
    assert.equal(e.reason, 'BadRequest');
    return e.message;
  }
  assert.fail('expected rejection');
}

const getter =
  (fields: Record<string, string>) =>
  (f: string): string | undefined =>
    fields[f];

test('empty selectors match everything', () => {
  for (const s of ['', ',', ',,']) {
    const m = parseFieldSelector(s);
    assert.equal(m.isEverything, true);
    assert.equal(m(getter({})), true);
  }
});

test('operators and sorting', () => {
  assert.deepEqual(parseFieldRequirements('status.phase!=Running,metadata.name==a,spec.nodeName=n'), [
    { field: 'metadata.name', op: '=', value: 'a' },
    { field: 'spec.nodeName', op: '=', value: 'n' },
    { field: 'status.phase', op: '!=', value: 'Running' },
  ]);
  const m = parseFieldSelector('metadata.name=a,status.phase!=Running');
  assert.equal(m(getter({ 'metadata.name': 'a', 'status.phase': 'Pending' })), true);
  assert.equal(m(getter({ 'metadata.name': 'a', 'status.phase': 'Running' })), false);
  assert.equal(m(getter({ 'metadata.name': 'b' })), false);
  assert.equal(m.requiresExactMatch('metadata.name'), 'a');
  assert.equal(m.requiresExactMatch('status.phase'), undefined);
  assert.equal(m.text, 'metadata.name=a,status.phase!=Running');
});

test('an absent field reads as the empty string', () => {
  assert.equal(parseFieldSelector('spec.nodeName=')(getter({})), true);
  assert.equal(parseFieldSelector('spec.nodeName!=')(getter({})), false);
  assert.equal(parseFieldSelector('spec.nodeName!=x')(getter({})), true);
});

test('escapes', () => {
  assert.deepEqual(parseFieldRequirements('a=b\\,c'), [{ field: 'a', op: '=', value: 'b,c' }]);
  assert.deepEqual(parseFieldRequirements('a=b\\=c'), [{ field: 'a', op: '=', value: 'b=c' }]);
  assert.deepEqual(parseFieldRequirements('a=b\\\\c'), [{ field: 'a', op: '=', value: 'b\\c' }]);
  assert.equal(escapeFieldValue('a\\b,c=d'), 'a\\\\b\\,c\\=d');
  const m = fieldSelectorMatcher([{ field: 'x', op: '=', value: 'a,b' }]);
  assert.equal(m.text, 'x=a\\,b');
  assert.deepEqual(parseFieldRequirements(m.text), m.requirements);
});

test('parse errors carry upstream messages', () => {
  assert.equal(
    rejection(() => parseFieldSelector('abc')),
    "invalid selector: 'abc'; can't understand 'abc'",
  );
  assert.equal(
    rejection(() => parseFieldSelector('a=b,cd')),
    "invalid selector: 'a=b,cd'; can't understand 'cd'",
  );
  assert.equal(
    rejection(() => parseFieldSelector('a=b=c')),
    'invalid field selector: unescaped character in value: 61',
  );
  assert.equal(
    rejection(() => parseFieldSelector('a!==b')),
    'invalid field selector: unescaped character in value: 61',
  );
  assert.equal(
    rejection(() => parseFieldSelector('a=b\\x')),
    'invalid field selector: invalid escape sequence: \\x',
  );
  assert.equal(
    rejection(() => parseFieldSelector('a=b\\')),
    'invalid field selector: invalid escape sequence: \\',
  );
});

test('checkFieldSelector', () => {
  const allowed = new Set(['metadata.name', 'metadata.namespace']);
  checkFieldSelector(parseFieldRequirements('metadata.name=a'), allowed);
  assert.equal(
    rejection(() => checkFieldSelector(parseFieldRequirements('spec.foo=a,metadata.name=b'), allowed)),
    'field label not supported: spec.foo',
  );
  assert.equal(
    rejection(() => checkFieldSelector(parseFieldRequirements('foo.bar=baz'), allowed, 'not-known')),
    '"foo.bar" is not a known field selector: only "metadata.name", "metadata.namespace"',
  );
  // The first unsupported field in selector order is reported.
  assert.equal(
    rejection(() => checkFieldSelector(parseFieldRequirements('z=1,b=2'), allowed)),
    'field label not supported: b',
  );
});
