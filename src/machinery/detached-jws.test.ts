import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { computeDetachedSignature, detachedSignatureValid } from './detached-jws.js';

test('a detached HS256 JWS: the compact form without its payload, keyed by the token secret', () => {
  const sig = computeDetachedSignature('content', 'abcdef', 'abcdef0123456789');
  const [header, payload, mac] = sig.split('.');
  assert.equal(payload, '');
  assert.equal(Buffer.from(header, 'base64url').toString(), '{"alg":"HS256","kid":"abcdef"}');
  const expected = createHmac('sha256', 'abcdef0123456789')
    .update(`${header}.${Buffer.from('content').toString('base64url')}`)
    .digest('base64url');
  assert.equal(mac, expected);
  assert.ok(detachedSignatureValid(sig, 'content', 'abcdef', 'abcdef0123456789'));
  assert.ok(!detachedSignatureValid(sig, 'content2', 'abcdef', 'abcdef0123456789'));
  assert.ok(!detachedSignatureValid(sig, 'content', 'abcdeg', 'abcdef0123456789'));
});
