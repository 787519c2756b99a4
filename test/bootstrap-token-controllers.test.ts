/**
 * The bootstrap-token controllers of the all-in-one (with --enable-bootstrap-token-auth): the
 * token cleaner deletes a token Secret when it expires (and the token stops authenticating);
 * the bootstrap signer signs `cluster-info` for each signing token, verifiably with the token,
 * and drops the signature when the token goes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { detachedSignatureValid } from '../src/machinery/detached-jws.js';
import { eventually, request, startTestCluster, type TestCluster } from './helpers/cluster.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

function tokenSecret(id: string, secret: string, extra: Record<string, string>) {
  const data: Record<string, string> = { 'token-id': b64(id), 'token-secret': b64(secret) };
  for (const [k, v] of Object.entries(extra)) data[k] = b64(v);
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: `bootstrap-token-${id}` }, type: 'bootstrap.orch.io/token', data };
}

/** RFC 3339 at whole seconds, as kubeadm writes `expiration`. */
function rfc3339(ms: number): string {
  return new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

describe('bootstrap-token controllers', () => {
  let cluster: TestCluster;
  const secrets = '/api/v1/namespaces/orch-system/secrets';
  const clusterInfo = '/api/v1/namespaces/orch-public/configmaps/cluster-info';

  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory', enableBootstrapTokenAuth: true });
  });
  after(() => cluster.close());

  const withToken = (token: string) =>
    request(cluster, 'GET', '/api/v1/namespaces/default/pods', { anonymous: true, headers: { authorization: `Bearer ${token}` } });

  test('cluster-info holds a kubeconfig naming the server and its CA', async () => {
    let cm: any;
    assert.ok(await eventually(async () => (cm = (await request(cluster, 'GET', clusterInfo)).json)?.data?.kubeconfig !== undefined));
    const kubeconfig = parse(cm.data.kubeconfig);
    assert.equal(kubeconfig.clusters[0].cluster.server, cluster.url);
    assert.equal(Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), cluster.caPem);
    // A joining node reads it without credentials (kubeadm's Role for system:anonymous), and nothing else there.
    let anonymous: any;
    assert.ok(await eventually(async () => (anonymous = await request(cluster, 'GET', clusterInfo, { anonymous: true })).status === 200));
    assert.equal(anonymous.json.data.kubeconfig, cm.data.kubeconfig);
    assert.equal((await request(cluster, 'GET', '/api/v1/namespaces/orch-public/configmaps', { anonymous: true })).status, 403);
  });

  test('an expiring token authenticates, signs cluster-info, then is cleaned up and unsigned', async () => {
    const expiration = rfc3339(Date.now() + 2500);
    const body = tokenSecret('abcdef', '0123456789abcdef', {
      expiration,
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
    });
    assert.equal((await request(cluster, 'POST', secrets, { body })).status, 201);
    // The same lifetime, presented only after the cleanup: the authenticator's 10 s cache of
    // successes (upstream's too) never holds it.
    const unseen = tokenSecret('bbbbbb', 'bbbbbbbbbbbbbbbb', { expiration, 'usage-bootstrap-authentication': 'true' });
    assert.equal((await request(cluster, 'POST', secrets, { body: unseen })).status, 201);
    // A token only for authentication is never signed with.
    const authOnly = tokenSecret('zzzzzz', 'zzzzzzzzzzzzzzzz', { 'usage-bootstrap-authentication': 'true' });
    assert.equal((await request(cluster, 'POST', secrets, { body: authOnly })).status, 201);

    const valid = await withToken('abcdef.0123456789abcdef');
    assert.equal(valid.status, 403, valid.text);
    assert.match(valid.json.message, /User "system:bootstrap:abcdef"/);

    let cm: any;
    assert.ok(await eventually(async () => (cm = (await request(cluster, 'GET', clusterInfo)).json)?.data?.['jws-kubeconfig-abcdef'] !== undefined));
    const signature = cm.data['jws-kubeconfig-abcdef'];
    assert.match(signature, /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/, 'a detached JWS');
    assert.deepEqual(JSON.parse(Buffer.from(signature.split('.')[0], 'base64url').toString()), { alg: 'HS256', kid: 'abcdef' });
    assert.ok(detachedSignatureValid(signature, cm.data.kubeconfig, 'abcdef', '0123456789abcdef'));
    assert.ok(!detachedSignatureValid(signature, cm.data.kubeconfig, 'abcdef', 'wrongwrongwrong0'));
    assert.equal(cm.data['jws-kubeconfig-zzzzzz'], undefined);

    // At expiry the cleaner deletes the Secret; the token no longer authenticates.
    const gone = await eventually(async () => (await request(cluster, 'GET', `${secrets}/bootstrap-token-abcdef`)).status === 404, 8000);
    assert.ok(gone, 'the expired token Secret was deleted');
    assert.ok(Date.now() >= Date.parse(expiration) - 50, 'not deleted before it expired');
    assert.ok(await eventually(async () => (await request(cluster, 'GET', `${secrets}/bootstrap-token-bbbbbb`)).status === 404));
    assert.equal((await withToken('bbbbbb.bbbbbbbbbbbbbbbb')).status, 401);
    assert.equal((await request(cluster, 'GET', `${secrets}/bootstrap-token-zzzzzz`)).status, 200, 'a token without expiration stays');
    assert.ok(await eventually(async () => (await request(cluster, 'GET', clusterInfo)).json.data['jws-kubeconfig-abcdef'] === undefined));
  });

  test('a token Secret already expired (or with an unparseable expiration) is deleted at once', async () => {
    const body = tokenSecret('oldtok', 'aaaaaaaaaaaaaaaa', { expiration: 'yesterday' });
    assert.equal((await request(cluster, 'POST', secrets, { body })).status, 201);
    assert.ok(await eventually(async () => (await request(cluster, 'GET', `${secrets}/bootstrap-token-oldtok`)).status === 404));
  });
});
