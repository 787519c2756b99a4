import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVERYTHING, labelSelectorFromObject, labelSelectorFromSet, NOTHING, parseLabelSelector, validateLabelSelector } from './label-selector.js';
import { StatusError } from './status.js';

const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function parseError(s: string): string {
  try {
    parseLabelSelector(s);
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 400);
    assert.equal(e.reason, 'BadRequest');
    return e.message;
  }
  assert.fail(`expected ${JSON.stringify(s)} to be rejected`);
}

test('empty selector matches everything', () => {
  for (const s of ['', '   ', '\t\n']) {
    const m = parseLabelSelector(s);
    assert.equal(m.isEverything, true);
    assert.equal(m(undefined), true);
    assert.equal(m({ a: 'b' }), true);
    assert.equal(m.text, '');
  }
  assert.equal(EVERYTHING.isEverything, true);
  assert.equal(NOTHING({}), false);
});

test('equality-based requirements', () => {
  const m = parseLabelSelector('x=a,y==b,z!=c');
  assert.equal(m.isEverything, false);
  assert.equal(m({ x: 'a', y: 'b' }), true);
  assert.equal(m({ x: 'a', y: 'b', z: 'd' }), true);
  assert.equal(m({ x: 'a', y: 'b', z: 'c' }), false);
  assert.equal(m({ x: 'a' }), false);
  assert.equal(m(undefined), false);
  assert.equal(m.text, 'x=a,y==b,z!=c');
  assert.equal(m.requiresExactMatch('x'), 'a');
  assert.equal(m.requiresExactMatch('z'), undefined);
});

test('set-based requirements', () => {
  const m = parseLabelSelector('env in (prod, qa), tier notin (frontend), partition, !canary');
  assert.equal(m({ env: 'prod', partition: '' }), true);
  assert.equal(m({ env: 'qa', tier: 'backend', partition: 'x' }), true);
  assert.equal(m({ env: 'dev', partition: 'x' }), false);
  assert.equal(m({ env: 'qa', tier: 'frontend', partition: 'x' }), false);
  assert.equal(m({ env: 'qa' }), false);
  assert.equal(m({ env: 'qa', partition: 'x', canary: '' }), false);
  assert.equal(m.text, '!canary,env in (prod,qa),partition,tier notin (frontend)');
  assert.deepEqual(
    m.requirements.map((r) => [r.key, r.operator, r.values]),
    [
      ['canary', '!', []],
      ['env', 'in', ['prod', 'qa']],
      ['partition', 'exists', []],
      ['tier', 'notin', ['frontend']],
    ],
  );
});

test('empty values and keywords as values', () => {
  assert.deepEqual(parseLabelSelector('x in ()').requirements[0].values, ['']);
  assert.deepEqual(parseLabelSelector('x in (,a)').requirements[0].values, ['', 'a']);
  assert.deepEqual(parseLabelSelector('x in (a,,b)').requirements[0].values, ['', 'a', 'b']);
  assert.deepEqual(parseLabelSelector('x in (b,a,)').requirements[0].values, ['', 'a', 'b']);
  assert.deepEqual(parseLabelSelector('x=').requirements[0].values, ['']);
  assert.equal(parseLabelSelector('x=')({ x: '' }), true);
  assert.equal(parseLabelSelector('x=')({}), false);
  const kw = parseLabelSelector('in in (in, notin)');
  assert.equal(kw({ in: 'notin' }), true);
});

test('gt and lt compare as integers', () => {
  const m = parseLabelSelector('x>1,y<10');
  assert.equal(m({ x: '2', y: '9' }), true);
  assert.equal(m({ x: '1', y: '9' }), false);
  assert.equal(m({ x: 'a', y: '9' }), false);
  assert.equal(m({ y: '9' }), false);
  assert.equal(m({ x: '99999999999999999999', y: '9' }), false); // out of int64: ParseInt fails
  assert.equal(m.text, 'x>1,y<10');
});

test('inherited object members are not labels', () => {
  assert.equal(parseLabelSelector('constructor')({}), false);
  assert.equal(parseLabelSelector('!toString')({}), true);
  assert.equal(parseLabelSelector('hasOwnProperty notin (a)')({}), true);
  assert.equal(parseLabelSelector('valueOf in (a,b)')({}), false);
});

test('parse errors carry upstream messages', () => {
  assert.equal(parseError('x==a==b'), "found '==', expected: ',' or 'end of string'");
  assert.equal(parseError('!x=a'), "found '=', expected: ',' or 'end of string'");
  assert.equal(parseError(',x'), "found ',', expected: !, identifier, or 'end of string'");
  assert.equal(parseError('x,'), "found '', expected: identifier after ','");
  assert.equal(parseError('x y'), "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt");
  assert.equal(parseError('x in a'), "unable to parse requirement: found 'a' expected: '('");
  assert.equal(parseError('x in (a'), "unable to parse requirement: found '', expected: ',' or ')'");
  assert.equal(parseError('x in (a b)'), "unable to parse requirement: found 'b', expected: ',' or ')'");
  assert.equal(parseError('x in (='), "unable to parse requirement: found '=', expected: ',', ')' or identifier");
  assert.equal(parseError('x in (,='), "unable to parse requirement: found '=', expected: ',', or identifier");
  assert.equal(parseError('x=(a)'), "unable to parse requirement: found '(', expected: identifier");
  assert.equal(parseError('!'), "unable to parse requirement: found '', expected: identifier");
  assert.equal(parseError('x<a'), `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`);
  assert.equal(parseError('-x'), `unable to parse requirement: <nil>: Invalid value: "-x": ${NAME_PART_MSG}`);
  assert.equal(parseError('x=a||y=b'), `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${LABEL_VALUE_MSG}`);
  assert.equal(
    parseError('x in (-b,-a)'),
    `unable to parse requirement: [values[0][x]: Invalid value: "-a": ${LABEL_VALUE_MSG}, values[1][x]: Invalid value: "-b": ${LABEL_VALUE_MSG}]`,
  );
});

test('lexer quirks follow upstream', () => {
  // A NUL inside an identifier ends it but lexing continues; a NUL between tokens ends input.
  assert.equal(parseLabelSelector('x=a\0,y').text, 'x=a,y');
  assert.equal(parseLabelSelector('x=a \0 ,y').text, 'x=a');
  assert.equal(parseLabelSelector('x!=a').requirements[0].operator, '!=');
});

test('parsed selectors are cached', () => {
  assert.equal(parseLabelSelector('app=web'), parseLabelSelector('app=web'));
});

test('labelSelectorFromSet', () => {
  assert.equal(labelSelectorFromSet(undefined).isEverything, true);
  assert.equal(labelSelectorFromSet({}).isEverything, true);
  const m = labelSelectorFromSet({ b: '2', a: '1' });
  assert.equal(m.text, 'a=1,b=2');
  assert.equal(m({ a: '1', b: '2', c: '3' }), true);
  assert.equal(m({ a: '1' }), false);
});

function objectError(sel: Parameters<typeof labelSelectorFromObject>[0]): string {
  try {
    labelSelectorFromObject(sel);
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 400);
    return e.message;
  }
  assert.fail('expected rejection');
}

test('labelSelectorFromObject', () => {
  assert.equal(labelSelectorFromObject(null).isNothing, true);
  assert.equal(labelSelectorFromObject(undefined)({}), false);
  assert.equal(labelSelectorFromObject({}).isEverything, true);
  assert.equal(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] }).isEverything, true);
  const m = labelSelectorFromObject({
    matchLabels: { app: 'web' },
    matchExpressions: [
      { key: 'tier', operator: 'In', values: ['b', 'a'] },
      { key: 'env', operator: 'NotIn', values: ['dev'] },
      { key: 'zone', operator: 'Exists' },
      { key: 'canary', operator: 'DoesNotExist', values: [] },
    ],
  });
  assert.equal(m.text, 'app=web,!canary,env notin (dev),tier in (a,b),zone'); // sorted by key
  assert.equal(m({ app: 'web', tier: 'a', zone: 'z' }), true);
  assert.equal(m({ app: 'web', tier: 'a', zone: 'z', env: 'dev' }), false);
  assert.equal(m({ app: 'web', tier: 'c', zone: 'z' }), false);

  assert.equal(objectError({ matchExpressions: [{ key: 'a', operator: 'Foo' }] }), '"Foo" is not a valid pod selector operator');
  assert.equal(
    objectError({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }),
    "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
  );
  assert.equal(
    objectError({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }),
    'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist',
  );
  assert.equal(objectError({ matchLabels: { '-a': 'b' } }), `key: Invalid value: "-a": ${NAME_PART_MSG}`);
  assert.equal(objectError({ matchLabels: { a: '-b' } }), `values[0][a]: Invalid value: "-b": ${LABEL_VALUE_MSG}`);
});

test('validateLabelSelector', () => {
  assert.deepEqual(validateLabelSelector(null, 'spec.selector'), []);
  assert.deepEqual(
    validateLabelSelector(
      {
        matchLabels: { '-k': 'v' },
        matchExpressions: [
          { key: 'a', operator: 'In' },
          { key: 'b', operator: 'Exists', values: ['x'] },
          { key: 'c', operator: 'Bogus', values: ['-v'] },
        ],
      },
      'spec.selector',
    ),
    [
      { type: 'FieldValueInvalid', field: 'spec.selector.matchLabels', value: '-k', detail: NAME_PART_MSG },
      { type: 'FieldValueRequired', field: 'spec.selector.matchExpressions[0].values', detail: "must be specified when `operator` is 'In' or 'NotIn'" },
      {
        type: 'FieldValueForbidden',
        field: 'spec.selector.matchExpressions[1].values',
        detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      },
      { type: 'FieldValueInvalid', field: 'spec.selector.matchExpressions[2].operator', value: 'Bogus', detail: 'not a valid selector operator' },
      { type: 'FieldValueInvalid', field: 'spec.selector.matchExpressions[2].values[0]', value: '-v', detail: LABEL_VALUE_MSG },
    ],
  );
  assert.deepEqual(
    validateLabelSelector({ matchExpressions: [{ key: 'c', operator: 'In', values: ['-v'] }] }, 's', {
      allowInvalidLabelValueInSelector: true,
    }),
    [],
  );
});
