/**
 * OpenID Connect against an identity provider the test runs on loopback (discovery + JWKS,
 * tokens signed with jose): claim rules, prefixes, required claims, and key rotation.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { ensureCertificates } from '../src/pki/certificates.js';

let dir: string;
let idp: https.Server;
let issuer: string;
let cluster: TestCluster;
let emailCluster: TestCluster;
const signing: { kid: string; key: KeyObject; pub: KeyObject }[] = [];

function rsa(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, key: privateKey, pub: publicKey };
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-oidc-'));
  const pki = await ensureCertificates(join(dir, 'pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
  signing.push(rsa('one'));
  idp = https.createServer({ cert: pki.serverCertPem, key: pki.serverKeyPem }, (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/keys` }));
    else if (req.url === '/keys')
      res.end(JSON.stringify({ keys: signing.map((s) => ({ ...s.pub.export({ format: 'jwk' }), kid: s.kid, use: 'sig', alg: 'RS256' })) }));
    else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  issuer = `https://localhost:${(idp.address() as AddressInfo).port}`;
  const base = { issuerUrl: issuer, clientId: 'orch', caPem: pki.caCertPem, signingAlgs: ['RS256'], requiredClaims: new Map<string, string>() };
  cluster = await startTestCluster({
    storageBackend: 'memory',
    oidc: { ...base, usernameClaim: 'sub', groupsClaim: 'groups', groupsPrefix: 'oidc:', requiredClaims: new Map([['tenant', 'blue']]) },
  });
  emailCluster = await startTestCluster({ storageBackend: 'memory', oidc: { ...base, usernameClaim: 'email', groupsClaim: 'groups' } });
  // Discovery runs in the background: wait until a token is accepted.
  for (let i = 0; i < 100; i++) {
    const r = await call(emailCluster, await token({ email: 'x@example.com', groups: ['system:masters'] }));
    if (r.status === 200) break;
    await new Promise((res) => setTimeout(res, 50));
  }
});
after(async () => {
  await cluster.close();
  await emailCluster.close();
  idp.close();
  await rm(dir, { recursive: true, force: true });
});

async function token(claims: Record<string, unknown>, opts: { kid?: string; iss?: string; aud?: string; exp?: number } = {}): Promise<string> {
  const key = signing.find((s) => s.kid === (opts.kid ?? 'one')) ?? signing[0];
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ tenant: 'blue', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setIssuer(opts.iss ?? issuer)
    .setAudience(opts.aud ?? 'orch')
    .setSubject('alice')
    .setIssuedAt(now)
    .setExpirationTime(opts.exp ?? now + 600)
    .sign(key.key);
}

const call = (c: TestCluster, t: string) => request(c, 'GET', '/api/v1/namespaces', { anonymous: true, headers: { authorization: `Bearer ${t}` } });

test('the username claim with the issuer prefix, groups with the groups prefix', async () => {
  const r = await call(cluster, await token({ groups: ['dev', 'ops'] }));
  assert.equal(r.status, 403);
  assert.equal(r.json.message, `namespaces is forbidden: User "${issuer}#alice" cannot list resource "namespaces" in API group "" at the cluster scope`);
  // groups are prefixed: 'system:masters' from the provider becomes 'oidc:system:masters', not an admin.
  assert.equal((await call(cluster, await token({ groups: 'system:masters' }))).status, 403);
});

test('email usernames take no prefix and must be verified when the claim says so', async () => {
  assert.equal((await call(emailCluster, await token({ email: 'a@example.com', groups: ['system:masters'] }))).status, 200);
  assert.equal((await call(emailCluster, await token({ email: 'a@example.com', email_verified: true, groups: ['system:masters'] }))).status, 200);
  assert.equal((await call(emailCluster, await token({ email: 'a@example.com', email_verified: false, groups: ['system:masters'] }))).status, 401);
  assert.equal((await call(emailCluster, await token({ groups: ['system:masters'] }))).status, 401, 'no email claim');
});

test('wrong audience, expired, another issuer, a missing required claim or a forged signature are 401', async () => {
  const now = Math.floor(Date.now() / 1000);
  for (const t of [
    await token({}, { aud: 'someone-else' }),
    await token({}, { exp: now - 10 }),
    await token({}, { iss: 'https://other.example' }),
    await token({ tenant: 'red' }),
  ]) {
    assert.equal((await call(cluster, t)).status, 401);
  }
  const forged = rsa('one');
  const bad = await new SignJWT({ tenant: 'blue' })
    .setProtectedHeader({ alg: 'RS256', kid: 'one' })
    .setIssuer(issuer)
    .setAudience('orch')
    .setSubject('x')
    .setExpirationTime('10m')
    .sign(forged.key);
  assert.equal((await call(cluster, bad)).status, 401);
});

test('a token naming a new key id refreshes the keys (rotation)', async () => {
  signing.push(rsa('two'));
  // The refresh is rate-limited to one per 10 s after the last load.
  await new Promise((r) => setTimeout(r, 10_500));
  const r = await call(emailCluster, await token({ email: 'b@example.com', groups: ['system:masters'] }, { kid: 'two' }));
  assert.equal(r.status, 200);
});
