import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import { fieldErrorBody, type FieldError } from '../../machinery/status.js';
import { DecodeError } from './decoding.js';
import { defaultSecret, validateConfigMapUpdate, validateSecret } from './config-validation.js';
import { decodeGoBase64 } from './go-base64.js';

const show = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

test('Go base64: padding required, CR/LF ignored, upstream error offsets', () => {
  assert.equal(decodeGoBase64('YWRtaW4=').toString(), 'admin');
  assert.equal(decodeGoBase64('YWRt\naW4=').toString(), 'admin');
  assert.equal(decodeGoBase64('').length, 0);
  for (const [text, offset] of [
    ['YQ', 0],
    ['YQ=', 3],
    ['Y', 0],
    ['a b=', 1],
    ['YQ==YQ==', 4],
    ['=', 0],
  ] as const) {
    assert.throws(() => decodeGoBase64(text), { message: `illegal base64 data at input byte ${offset}` }, text);
  }
});

test('defaultSecret folds stringData into data and refuses bad base64', () => {
  const s: Record<string, any> = { data: { a: 'eA==' }, stringData: { b: 'y' } };
  defaultSecret(s);
  assert.deepEqual(s, { type: 'Opaque', data: { a: 'eA==', b: 'eQ==' } });
  assert.throws(() => defaultSecret({ data: { a: '!' } }), DecodeError);
});

test('secret types are in the brand domain', () => {
  const sa = { type: 'kubernetes.io/service-account-token', metadata: {}, data: {} };
  assert.deepEqual(show(validateSecret(sa, KUBERNETES_BRAND)), ['metadata.annotations[kubernetes.io/service-account.name]: Required value']);
  assert.deepEqual(show(validateSecret(sa, ORCH_BRAND)), []);
  const docker = { type: 'orch.io/dockerconfigjson', metadata: {}, data: { '.dockerconfigjson': Buffer.from('[1]').toString('base64') } };
  assert.deepEqual(show(validateSecret(docker, ORCH_BRAND)), [
    'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
  ]);
  const basic = { type: 'orch.io/basic-auth', metadata: {}, data: {} };
  assert.deepEqual(show(validateSecret(basic, ORCH_BRAND)), ['data[username]: Required value', 'data[password]: Required value']);
});

test('an immutable ConfigMap keeps its data and its immutability', () => {
  const old = { immutable: true, data: { a: '1' } };
  assert.deepEqual(show(validateConfigMapUpdate({ immutable: true, data: { a: '1' } }, old)), []);
  assert.deepEqual(show(validateConfigMapUpdate({ immutable: false, data: { a: '2' } }, old)), [
    'immutable: Forbidden: field is immutable when `immutable` is set',
    'data: Forbidden: field is immutable when `immutable` is set',
  ]);
});
