import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { AuthenticationFailure } from './authenticator.js';
import { bearerTokenAuthenticator, cachedTokenAuthenticator, type TokenAuthenticator, unionTokenAuthenticator } from './token.js';

const alice = { name: 'alice', groups: [] };
const known: TokenAuthenticator = { authenticateToken: (t) => (t === 'good' ? alice : undefined) };
const failing: TokenAuthenticator = {
  authenticateToken: () => {
    throw new AuthenticationFailure('expired');
  },
};
const reqWith = (authorization?: string) => ({ headers: { authorization } as IncomingHttpHeaders, rawHeaders: [], socket: {} as TLSSocket });

test('bearer: scheme in any case, one space; the header is removed on success', async () => {
  const auth = bearerTokenAuthenticator(known);
  const req = reqWith('bEaReR good');
  assert.deepEqual(await auth.authenticate(req), alice);
  assert.equal(req.headers.authorization, undefined);
  // Two spaces make an empty token: no credential at all (falls through, may become anonymous).
  assert.equal(await auth.authenticate(reqWith('Bearer  good')), undefined);
  assert.equal(await auth.authenticate(reqWith('Basic abc')), undefined);
  assert.equal(await auth.authenticate(reqWith()), undefined);
  await assert.rejects(Promise.resolve(auth.authenticate(reqWith('Bearer bad'))), AuthenticationFailure);
});

test('token union: the first method that knows the token wins; failures count only when none does', async () => {
  assert.deepEqual(await unionTokenAuthenticator([failing, known]).authenticateToken('good'), alice);
  await assert.rejects(Promise.resolve(unionTokenAuthenticator([known, failing]).authenticateToken('bad')), AuthenticationFailure);
  assert.equal(await unionTokenAuthenticator([known]).authenticateToken('bad'), undefined);
});

test('token cache: successes are remembered for the TTL, failures never; bounded', async () => {
  let now = 0;
  let calls = 0;
  const counting: TokenAuthenticator = {
    authenticateToken: (t) => {
      calls++;
      return t.startsWith('good') ? alice : undefined;
    },
  };
  const cached = cachedTokenAuthenticator(counting, { successTtlMs: 10_000, maxEntries: 2, now: () => now });
  await cached.authenticateToken('good');
  await cached.authenticateToken('good');
  assert.equal(calls, 1);
  await cached.authenticateToken('bad');
  await cached.authenticateToken('bad');
  assert.equal(calls, 3);
  now = 10_001;
  await cached.authenticateToken('good');
  assert.equal(calls, 4);
  // Two more distinct tokens push the oldest out.
  await cached.authenticateToken('good2');
  await cached.authenticateToken('good3');
  await cached.authenticateToken('good');
  assert.equal(calls, 7);
});
