import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  compareGoStrings,
  goQuote,
  goStringSlice,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  maskTrailingDash,
  nameIsDNSSubdomain,
  regexError,
  utf8Length,
  validateLabels,
  validatePathSegmentName,
} from './validation.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

test('regexError keeps upstream spacing', () => {
  assert.equal(regexError('m', 'f'), "m (regex used for validation is 'f')");
  assert.equal(regexError('m', 'f', 'a', 'b'), "m (e.g. 'a',  or 'b', regex used for validation is 'f')");
});

test('isDNS1123Subdomain', () => {
  for (const ok of ['a', 'example.com', 'a-b.c-d', '0', 'a'.repeat(253)]) assert.deepEqual(isDNS1123Subdomain(ok), [], ok);
  assert.deepEqual(isDNS1123Subdomain('Example.com'), [SUBDOMAIN_MSG]);
  assert.deepEqual(isDNS1123Subdomain(''), [SUBDOMAIN_MSG]);
  assert.deepEqual(isDNS1123Subdomain('a.'), [SUBDOMAIN_MSG]);
  assert.deepEqual(isDNS1123Subdomain('a'.repeat(254)), ['must be no more than 253 characters']);
  assert.deepEqual(isDNS1123Subdomain(`-${'a'.repeat(253)}`), ['must be no more than 253 characters', SUBDOMAIN_MSG]);
});

test('isDNS1123Label and isDNS1035Label', () => {
  assert.deepEqual(isDNS1123Label('my-name'), []);
  assert.deepEqual(isDNS1123Label('123-abc'), []);
  assert.deepEqual(isDNS1123Label('a.b'), [LABEL_MSG]);
  assert.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
  assert.deepEqual(isDNS1035Label('abc-123'), []);
  assert.deepEqual(isDNS1035Label('1abc'), [DNS1035_MSG]);
  assert.deepEqual(isDNS1035Label('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('lengths count UTF-8 bytes like Go', () => {
  assert.equal(utf8Length('aé€😀'), 1 + 2 + 3 + 4);
  assert.equal(utf8Length('\ud800'), 3);
  // 32 two-byte characters are 64 bytes: over the limit for Go even though length is 32.
  assert.deepEqual(isValidLabelValue('é'.repeat(32)), ['must be no more than 63 characters', LABEL_VALUE_MSG]);
});

test('isQualifiedName', () => {
  for (const ok of ['a', 'A', 'MyName', 'my.name', '123-abc', 'example.com/MyName', 'a/b', 'a'.repeat(63)]) {
    assert.deepEqual(isQualifiedName(ok), [], ok);
  }
  assert.deepEqual(isQualifiedName(''), ['name part must be non-empty', NAME_PART_MSG]);
  assert.deepEqual(isQualifiedName('-a'), [NAME_PART_MSG]);
  assert.deepEqual(isQualifiedName('a'.repeat(64)), ['name part must be no more than 63 characters']);
  assert.deepEqual(isQualifiedName('/a'), ['prefix part must be non-empty']);
  assert.deepEqual(isQualifiedName('a/'), ['name part must be non-empty', NAME_PART_MSG]);
  assert.deepEqual(isQualifiedName('Example.com/a'), [`prefix part ${SUBDOMAIN_MSG}`]);
  assert.deepEqual(isQualifiedName('a/b/c'), [
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]);
});

test('isValidLabelValue', () => {
  for (const ok of ['', 'a', 'MyValue', 'my_value', '12345', 'a.b-c_d', 'a'.repeat(63)]) assert.deepEqual(isValidLabelValue(ok), [], ok);
  assert.deepEqual(isValidLabelValue('-a'), [LABEL_VALUE_MSG]);
  assert.deepEqual(isValidLabelValue('a b'), [LABEL_VALUE_MSG]);
  assert.deepEqual(isValidLabelValue('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('path segment names', () => {
  assert.deepEqual(isValidPathSegmentName('.'), ["may not be '.'"]);
  assert.deepEqual(isValidPathSegmentName('..'), ["may not be '..'"]);
  assert.deepEqual(isValidPathSegmentName('a/b%c'), ["may not contain '/'", "may not contain '%'"]);
  assert.deepEqual(isValidPathSegmentName('system:admin'), []);
  assert.deepEqual(validatePathSegmentName('.', true), []);
  assert.deepEqual(validatePathSegmentName('a/', true), ["may not contain '/'"]);
});

test('maskTrailingDash keeps upstream quirk', () => {
  assert.equal(maskTrailingDash('foo-'), 'foa');
  assert.equal(maskTrailingDash('a-'), 'a');
  assert.equal(maskTrailingDash('-'), '-');
  assert.equal(maskTrailingDash('foo'), 'foo');
  assert.deepEqual(nameIsDNSSubdomain('foo-', true), []);
  assert.deepEqual(nameIsDNSSubdomain('foo-', false), [SUBDOMAIN_MSG]);
});

test('validateLabels reports at the map path', () => {
  assert.deepEqual(validateLabels({ ok: 'fine' }, 'metadata.labels'), []);
  assert.deepEqual(validateLabels({ '-k': '-v' }, 'metadata.labels'), [
    { type: 'FieldValueInvalid', field: 'metadata.labels', value: '-k', detail: NAME_PART_MSG },
    { type: 'FieldValueInvalid', field: 'metadata.labels', value: '-v', detail: LABEL_VALUE_MSG },
  ]);
});

test('goQuote matches strconv.Quote', () => {
  assert.equal(goQuote('abc'), '"abc"');
  assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(goQuote('\n\t\x00\x7f'), '"\\n\\t\\x00\\x7f"');
  assert.equal(goQuote('é😀'), '"é😀"');
  assert.equal(goQuote('\u00a0'), '"\\u00a0"');
  assert.equal(goStringSlice([]), '[]string(nil)');
  assert.equal(goStringSlice(['a', 'b']), '[]string{"a", "b"}');
});

test('compareGoStrings orders by UTF-8 bytes', () => {
  assert.ok(compareGoStrings('a', 'b') < 0);
  assert.ok(compareGoStrings('a', 'ab') < 0);
  // U+FFFD (EF BF BD) sorts before U+1F600 (F0 ...), unlike UTF-16 order.
  assert.ok(compareGoStrings('\ufffd', '😀') < 0);
  assert.ok(compareGoStrings('😀', '\ufffd') > 0);
});
