import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonSyntaxError, parseJsonSteps } from './json-parse-steps.js';
import { runAtOnce } from './pace.js';

const parse = (text: string) => runAtOnce((due) => parseJsonSteps(text, due));

test('stepped parsing gives what JSON.parse gives', () => {
  const texts = [
    '0',
    '-0',
    ' -12.5e+3 ',
    '"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\\ud800 lone"',
    'true',
    'false',
    'null',
    '[]',
    '{}',
    ' [ 1 , [ ] , { } , "x" , null ] ',
    '{"a":1,"b":{"c":[1,2,{"d":"e"}]},"a":2}',
    '{"__proto__":{"x":1},"constructor":"c","10":"ten","2":"two"}',
    '{"k":"v\u2028w","é":"ü"}',
    '[[[[[[[[[[1]]]]]]]]]]',
    '1E400',
    '{"a" : [ true , false ] , "b" :null}',
  ];
  for (const t of texts) {
    const got = parse(t);
    assert.deepEqual(got, JSON.parse(t), t);
    assert.equal(JSON.stringify(got), JSON.stringify(JSON.parse(t)), t);
  }
  assert.ok(Object.is(parse('-0'), -0));
  assert.equal(Object.getPrototypeOf(parse('{"__proto__":{"x":1}}')), Object.prototype, 'a __proto__ key stays a key');
});

test('stepped parsing refuses what JSON.parse refuses', () => {
  const bad = [
    '',
    ' ',
    '01',
    '1.',
    '.5',
    '+1',
    '[1,]',
    '{"a":1,}',
    '{a:1}',
    '"\t"',
    '"\\x"',
    '"\\u12g4"',
    '"abc',
    '[1 2]',
    '{"a" 1}',
    'tru',
    'nul',
    '1 2',
    '[',
    '{"a":1',
    '}',
    "'a'",
    'NaN',
    '-',
  ];
  for (const t of bad) {
    assert.throws(() => JSON.parse(t), SyntaxError, `JSON.parse accepts ${t}`);
    assert.throws(() => parse(t), JsonSyntaxError, `accepted ${JSON.stringify(t)}`);
  }
});

test('a map of 120,000 labels parses in steps, pausing when due', () => {
  const labels: Record<string, string> = {};
  for (let i = 0; i < 120_000; i++) labels[`k${i}`] = 'v';
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels } });
  let looks = 0;
  let pauses = 0;
  const steps = parseJsonSteps(text, () => ++looks % 4 === 0);
  let r = steps.next();
  while (!r.done) {
    pauses++;
    r = steps.next();
  }
  assert.deepEqual(r.value, JSON.parse(text));
  assert.ok(pauses >= 5, `${pauses} pauses`);
});

test('stepped parsing agrees with JSON.parse on 500 random documents', () => {
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const chars = ['a', 'é', '"', '\\', '\n', '\u0001', '\ud83d', '😀', ' ', '/', '\u2028'];
  const value = (depth: number): unknown => {
    switch (rand(depth > 4 ? 4 : 7)) {
      case 0:
        return rand(2) === 0 ? rand(1000) - 500 : (rand(100000) - 50000) / 7;
      case 1:
        return Array.from({ length: rand(6) }, () => chars[rand(chars.length)]).join('');
      case 2:
        return [true, false, null][rand(3)];
      case 3:
        return rand(10) ** 20;
      case 4:
      case 5:
        return Array.from({ length: rand(5) }, () => value(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: rand(5) }, () => [['__proto__', 'a', 'b', '1', 'x y'][rand(5)], value(depth + 1)]));
    }
  };
  const space = () => [' ', '', '\n', '\t', '\r\n '][rand(5)];
  for (let k = 0; k < 500; k++) {
    const v = value(0);
    const text = JSON.stringify(v, null, rand(2) === 0 ? undefined : space() || 1).replace(/([,:[{])/g, (m) => (rand(3) === 0 ? `${m}${space()}` : m));
    assert.equal(JSON.stringify(parse(text)), JSON.stringify(JSON.parse(text)), text);
  }
});
