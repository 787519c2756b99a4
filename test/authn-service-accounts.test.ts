/**
 * Service-account tokens over HTTPS: a bound token signed with the serving key authenticates as
 * its ServiceAccount until the ServiceAccount is deleted; the issuer's discovery documents
 * publish the key that verifies it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPublicKey } from 'node:crypto';
import { importJWK, jwtVerify } from 'jose';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { pkiPaths } from '../src/pki/certificates.js';
import { signingKeyFromPem } from '../src/auth/authn/service-account-keys.js';
import { signBoundToken } from '../src/auth/authn/service-account-token.js';

const ISSUER = 'https://orch.default.svc.cluster.local';
const names = { legacyIssuer: 'orch/serviceaccount', claimDomain: 'orch.io', extraDomain: 'authentication.orch.io' };

let cluster: TestCluster;
let key: ReturnType<typeof signingKeyFromPem>;
before(async () => {
  cluster = await startTestCluster({ storageBackend: 'memory' });
  key = signingKeyFromPem(await readFile(pkiPaths(join(cluster.dataDir, 'pki')).serverKey, 'utf8'), 'serving key');
});
after(() => cluster.close());

async function tokenFor(name: string, uid: string, expirationSeconds = 3600): Promise<string> {
  const t = await signBoundToken(key, {
    issuer: ISSUER,
    audiences: [ISSUER],
    expirationSeconds,
    namespace: 'default',
    serviceAccount: { name, uid },
    names,
    now: Date.now(),
  });
  return t.token;
}

const bearer = (token: string) => ({ anonymous: true, headers: { authorization: `Bearer ${token}` } });

test('a bound token is its ServiceAccount until the ServiceAccount is deleted', async () => {
  const created = await request(cluster, 'POST', '/api/v1/namespaces/default/serviceaccounts', { body: { metadata: { name: 'builder' } } });
  assert.equal(created.status, 201);
  const uid = created.json.metadata.uid;
  const r = await request(cluster, 'GET', '/api/v1/namespaces/default/pods', bearer(await tokenFor('builder', uid)));
  assert.equal(r.status, 403);
  assert.equal(
    r.json.message,
    'pods is forbidden: User "system:serviceaccount:default:builder" cannot list resource "pods" in API group "" in the namespace "default"',
  );
  // A token for another incarnation of the name (other uid) is 401.
  assert.equal((await request(cluster, 'GET', '/api/v1/namespaces/default/pods', bearer(await tokenFor('builder', 'stale-uid')))).status, 401);
  assert.equal((await request(cluster, 'DELETE', '/api/v1/namespaces/default/serviceaccounts/builder')).status, 200);
  // A token not yet seen (the success cache holds a seen one for 10 s, as upstream) is refused at once.
  assert.equal((await request(cluster, 'GET', '/api/v1/namespaces/default/pods', bearer(await tokenFor('builder', uid, 7200)))).status, 401);
});

test('the issuer discovery documents publish the verifying key', async () => {
  const config = await request(cluster, 'GET', '/.well-known/openid-configuration');
  assert.equal(config.status, 200);
  assert.equal(config.headers['cache-control'], 'public, max-age=3600');
  assert.deepEqual(Object.keys(config.json), [
    'issuer',
    'jwks_uri',
    'response_types_supported',
    'subject_types_supported',
    'id_token_signing_alg_values_supported',
  ]);
  assert.equal(config.json.issuer, ISSUER);
  assert.equal(config.json.jwks_uri, `${cluster.url}/openid/v1/jwks`);
  assert.deepEqual(config.json.id_token_signing_alg_values_supported, ['ES256']);
  const jwks = await request(cluster, 'GET', '/openid/v1/jwks');
  assert.equal(jwks.headers['content-type'], 'application/jwk-set+json');
  const jwk = jwks.json.keys.find((k: { kid: string }) => k.kid === key.kid);
  assert.ok(jwk, 'the signing key is published');
  assert.equal(jwk.use, 'sig');
  // A relying party can verify a token with what is published.
  const token = await tokenFor('anyone', 'u');
  const { payload } = await jwtVerify(token, await importJWK(jwk, jwk.alg), { issuer: ISSUER });
  assert.equal(payload.sub, 'system:serviceaccount:default:anyone');
  assert.ok(createPublicKey({ key: jwk, format: 'jwk' }));
});
