import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { AuthenticationFailure } from './authenticator.js';
import { signingKeyFromPem, verifyKeysFromPem } from './service-account-keys.js';
import { type ServiceAccountLookup, serviceAccountTokenAuthenticator, signBoundToken, signLegacyToken } from './service-account-token.js';
import type { Obj } from '../../machinery/object.js';

const names = { legacyIssuer: 'orch/serviceaccount', claimDomain: 'orch.io', extraDomain: 'authentication.orch.io' };
const ISSUER = 'https://orch.default.svc.cluster.local';
const NOW = Date.parse('2026-06-01T00:00:00Z');
const pem = (kind: 'ec' | 'rsa') =>
  (kind === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' }) : generateKeyPairSync('rsa', { modulusLength: 2048 })).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
const ecPem = pem('ec');
const key = signingKeyFromPem(ecPem, 'ec');
const otherKey = signingKeyFromPem(pem('ec'), 'other');

function world() {
  const objects = new Map<string, Obj>();
  const put = (kind: string, ns: string, name: string, obj: Obj) => objects.set(`${kind}/${ns}/${name}`, obj);
  const get = (kind: string) => async (ns: string, name: string) => objects.get(`${kind}/${ns}/${name}`);
  const lookup: ServiceAccountLookup = { serviceAccount: get('sa'), secret: get('secret'), pod: get('pod') };
  put('sa', 'default', 'builder', { metadata: { name: 'builder', uid: 'sa-uid' } });
  put('pod', 'default', 'web', { metadata: { name: 'web', uid: 'pod-uid' } });
  return { objects, put, lookup };
}

function authFor(w: ReturnType<typeof world>, now = NOW) {
  return serviceAccountTokenAuthenticator({
    keys: verifyKeysFromPem(ecPem, 'ec'),
    issuers: [ISSUER],
    apiAudiences: [ISSUER],
    names,
    lookup: w.lookup,
    lookupLegacy: true,
    now: () => now,
  });
}

const bound = (over: Partial<Parameters<typeof signBoundToken>[1]> = {}, k = key) =>
  signBoundToken(k, {
    issuer: ISSUER,
    audiences: [ISSUER],
    expirationSeconds: 3600,
    namespace: 'default',
    serviceAccount: { name: 'builder', uid: 'sa-uid' },
    names,
    now: NOW,
    ...over,
  }).then((t) => t.token);

test('a bound token is the service account, with pod extras when bound to a pod', async () => {
  const w = world();
  assert.deepEqual(await authFor(w).authenticateToken(await bound()), {
    name: 'system:serviceaccount:default:builder',
    uid: 'sa-uid',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:default'],
  });
  const user = await authFor(w).authenticateToken(await bound({ boundObject: { kind: 'Pod', name: 'web', uid: 'pod-uid' } }));
  assert.deepEqual({ ...user?.extra }, { 'authentication.orch.io/pod-name': ['web'], 'authentication.orch.io/pod-uid': ['pod-uid'] });
});

test('bound tokens fail (401) when expired, not yet valid, for another audience, or their objects are gone or replaced', async () => {
  const w = world();
  const auth = authFor(w);
  const cases: [string, Promise<string>, ReturnType<typeof authFor>?][] = [
    ['expired', bound({ now: NOW - 3 * 3600 * 1000 })],
    ['not yet valid', bound({ now: NOW + 3600 * 1000 })],
    ['wrong audience', bound({ audiences: ['https://elsewhere'] })],
    ['wrong key', bound({}, otherKey)],
    ['replaced service account', bound({ serviceAccount: { name: 'builder', uid: 'old-uid' } })],
    ['deleted pod', bound({ boundObject: { kind: 'Pod', name: 'gone', uid: 'x' } })],
  ];
  for (const [why, token] of cases) await assert.rejects(Promise.resolve(auth.authenticateToken(await token)), AuthenticationFailure, why);
  // Within the one-minute leeway an expired token still works, as go-jose's default.
  assert.ok(await authFor(w, NOW + 3630 * 1000).authenticateToken(await bound()));
});

test('foreign, malformed and unsigned tokens are not ours (fall through), and never throw other errors', async () => {
  const auth = authFor(world());
  const foreign = await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: key.alg }).setIssuer('https://idp.example').sign(key.privateKey);
  for (const token of [foreign, 'abc', 'a.b.c', 'x'.repeat(70_000), '', '..']) assert.equal(await auth.authenticateToken(token), undefined);
  const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: ISSUER })).toString('base64url')}.`;
  await assert.rejects(Promise.resolve(auth.authenticateToken(none)), AuthenticationFailure);
  const good = await bound();
  const [h, p] = good.split('.');
  const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'evil' })).toString('base64url')}.${good.split('.')[2]}`;
  await assert.rejects(Promise.resolve(auth.authenticateToken(tampered)), AuthenticationFailure);
});

test('legacy tokens: valid while their Secret holds them and the service account lives', async () => {
  const w = world();
  const token = await signLegacyToken(key, names, {
    namespace: 'default',
    secretName: 'builder-token',
    serviceAccountName: 'builder',
    serviceAccountUid: 'sa-uid',
  });
  w.put('secret', 'default', 'builder-token', { metadata: { name: 'builder-token', uid: 's' }, data: { token: Buffer.from(token).toString('base64') } });
  assert.equal((await authFor(w).authenticateToken(token))?.name, 'system:serviceaccount:default:builder');
  w.objects.delete('secret/default/builder-token');
  await assert.rejects(Promise.resolve(authFor(w).authenticateToken(token)), /invalidated/);
});

test('RSA keys sign RS256 and verify', async () => {
  const rsa = signingKeyFromPem(pem('rsa'), 'rsa');
  assert.equal(rsa.alg, 'RS256');
  const w = world();
  const auth = serviceAccountTokenAuthenticator({
    keys: [rsa],
    issuers: [ISSUER],
    apiAudiences: [ISSUER],
    names,
    lookup: w.lookup,
    lookupLegacy: true,
    now: () => NOW,
  });
  assert.ok(await auth.authenticateToken(await bound({}, rsa)));
});
