/**
 * CertificateSigningRequests end to end: a request approved with kubectl (compat) or through
 * `/approval` (orch) is signed by the cluster CA for the requested lifetime and the certificate
 * authenticates as its subject; a denied one gets nothing; bad usages or a bad kubelet subject
 * fail with upstream's condition; a node client request from an allowed requester is approved
 * by the approver on its own.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCertificates, loadX509 } from '../src/pki/certificates.js';
import { eventually, request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { kubectlFor } from './helpers/kubectl.js';
import { testUser } from './helpers/users.js';
import { csrBody, makeRequest } from './helpers/csr.js';

async function waitFor(cluster: TestCluster, group: string, name: string, done: (csr: any) => boolean): Promise<any> {
  let last: any;
  const ok = await eventually(async () => {
    last = (await request(cluster, 'GET', `/apis/${group}/v1/certificatesigningrequests/${name}`)).json;
    return done(last);
  }, 10_000);
  assert.ok(ok, `csr ${name} never reached the expected state: ${JSON.stringify(last?.status)}`);
  return last;
}

describe('CSR signing, compat mode with kubectl 1.33', () => {
  let cluster: TestCluster;
  let dir: string;
  const group = 'certificates.k8s.io';

  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory', kubernetesCompat: true });
    dir = await mkdtemp(join(tmpdir(), 'orch-csr-'));
  });
  after(async () => {
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('kubectl certificate approve: signed for the requested lifetime, authenticates as the subject', async () => {
    const kubectl = kubectlFor('1.33', cluster, join(dir, 'cache'));
    const req = await makeRequest('jane', ['dev']);
    const file = join(dir, 'jane.json');
    await writeFile(file, JSON.stringify(csrBody(group, 'jane', req, 'kubernetes.io/kube-apiserver-client', ['client auth'], 600)));
    await kubectl.ok(['create', '-f', file]);
    const created = (await request(cluster, 'GET', `/apis/${group}/v1/certificatesigningrequests/jane`)).json;
    assert.equal(created.spec.username, 'admin', 'the requester is recorded');
    assert.match(await kubectl.ok(['certificate', 'approve', 'jane']), /certificatesigningrequest.certificates.k8s.io\/jane approved/);
    const signed = await waitFor(cluster, group, 'jane', (c) => Boolean(c.status?.certificate));
    const certPem = Buffer.from(signed.status.certificate, 'base64').toString('utf8');
    const x509 = await loadX509();
    const cert = new x509.X509Certificate(certPem);
    const lifetime = (cert.notAfter.getTime() - Date.now()) / 1000;
    assert.ok(lifetime > 500 && lifetime <= 600, `lifetime ${lifetime}s`);
    // Authenticated (not 401), and without any role refused by name: the certificate is jane's.
    const denied = await request(cluster, 'GET', '/api/v1/namespaces/default/pods', { identity: { certPem, keyPem: req.keyPem } });
    assert.equal(denied.status, 403);
    assert.match(denied.json.message, /User "jane" cannot list resource "pods"/);
    const table = await kubectl.ok(['get', 'csr', 'jane']);
    assert.match(table, /Approved,Issued/);
  });

  test('kubectl certificate deny: no certificate is issued', async () => {
    const kubectl = kubectlFor('1.33', cluster, join(dir, 'cache'));
    const file = join(dir, 'mallory.json');
    await writeFile(file, JSON.stringify(csrBody(group, 'mallory', await makeRequest('mallory', []), 'kubernetes.io/kube-apiserver-client', ['client auth'])));
    await kubectl.ok(['create', '-f', file]);
    await kubectl.ok(['certificate', 'deny', 'mallory']);
    // A request approved after the denied one is signed; by then the denied one would have been too.
    const file2 = join(dir, 'bob.json');
    await writeFile(file2, JSON.stringify(csrBody(group, 'bob', await makeRequest('bob', []), 'kubernetes.io/kube-apiserver-client', ['client auth'])));
    await kubectl.ok(['create', '-f', file2]);
    await kubectl.ok(['certificate', 'approve', 'bob']);
    await waitFor(cluster, group, 'bob', (c) => Boolean(c.status?.certificate));
    const mallory = (await request(cluster, 'GET', `/apis/${group}/v1/certificatesigningrequests/mallory`)).json;
    assert.equal(mallory.status.certificate, undefined);
    assert.deepEqual(
      mallory.status.conditions.map((c: any) => [c.type, c.status]),
      [['Denied', 'True']],
    );
    // Once denied, approving is refused (the conditions are mutually exclusive).
    const again = await kubectl.run(['certificate', 'approve', 'mallory']);
    assert.notEqual(again.code, 0);
  });
});

describe('CSR signing, orch mode over raw HTTPS', () => {
  let cluster: TestCluster;
  const group = 'certificates.orch.io';
  const base = `/apis/${group}/v1/certificatesigningrequests`;

  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory' });
  });
  after(() => cluster.close());

  async function approve(name: string): Promise<void> {
    const csr = (await request(cluster, 'GET', `${base}/${name}`)).json;
    csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'approved by test' }] };
    const res = await request(cluster, 'PUT', `${base}/${name}/approval`, { body: csr });
    assert.equal(res.status, 200, res.text);
  }

  test('approved through /approval: the certificate authenticates as the subject', async () => {
    const req = await makeRequest('amy', ['qa', 'dev']);
    const res = await request(cluster, 'POST', base, {
      body: csrBody(group, 'amy', req, 'orch.io/kube-apiserver-client', ['digital signature', 'client auth']),
    });
    assert.equal(res.status, 201, res.text);
    await approve('amy');
    const signed = await waitFor(cluster, group, 'amy', (c) => Boolean(c.status?.certificate));
    const certPem = Buffer.from(signed.status.certificate, 'base64').toString('utf8');
    // Authenticated (not 401) and refused by name: the certificate is amy's.
    const res2 = await request(cluster, 'GET', '/api/v1/namespaces/default/pods', { identity: { certPem, keyPem: req.keyPem } });
    assert.equal(res2.status, 403, res2.text);
    assert.match(res2.json.message, /User "amy" cannot list resource "pods"/);
  });

  test('a status write cannot approve', async () => {
    const req = await makeRequest('sneaky', []);
    await request(cluster, 'POST', base, { body: csrBody(group, 'sneaky', req, 'orch.io/kube-apiserver-client', ['client auth']) });
    const csr = (await request(cluster, 'GET', `${base}/sneaky`)).json;
    csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Self', message: 'self' }] };
    const res = await request(cluster, 'PUT', `${base}/sneaky/status`, { body: csr });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.status.conditions, undefined);
  });

  test('usages a client certificate may not have: Failed with the signer message', async () => {
    const req = await makeRequest('server-ish', []);
    await request(cluster, 'POST', base, { body: csrBody(group, 'server-ish', req, 'orch.io/kube-apiserver-client', ['client auth', 'server auth']) });
    await approve('server-ish');
    const failed = await waitFor(cluster, group, 'server-ish', (c) => (c.status?.conditions ?? []).some((x: any) => x.type === 'Failed'));
    const condition = failed.status.conditions.find((x: any) => x.type === 'Failed');
    assert.equal(condition.reason, 'SignerValidationFailure');
    assert.equal(condition.message, 'invalid usage for client certificate: server auth');
    assert.equal(failed.status.certificate, undefined);
  });

  test('a kubelet client request with the wrong organization fails; a good one is auto-approved and signed', async () => {
    const bad = await makeRequest('system:node:n1', ['dev']);
    await request(cluster, 'POST', base, {
      body: csrBody(group, 'node-bad', bad, 'orch.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth']),
    });
    await approve('node-bad');
    const failed = await waitFor(cluster, group, 'node-bad', (c) => (c.status?.conditions ?? []).some((x: any) => x.type === 'Failed'));
    assert.equal(failed.status.conditions.find((x: any) => x.type === 'Failed').message, 'subject organization is not system:nodes');

    // The admin (system:masters) may create certificatesigningrequests/nodeclient: the approver approves.
    const good = await makeRequest('system:node:n1', ['system:nodes']);
    await request(cluster, 'POST', base, {
      body: csrBody(group, 'node-good', good, 'orch.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth']),
    });
    const signed = await waitFor(cluster, group, 'node-good', (c) => Boolean(c.status?.certificate));
    const approved = signed.status.conditions.find((x: any) => x.type === 'Approved');
    assert.equal(approved.reason, 'AutoApproved');
    assert.equal(approved.message, 'Auto approving kubelet client certificate after SubjectAccessReview.');
  });

  test('the approver asks a SubjectAccessReview for the requester: without nodeclient, no approval', async () => {
    const eve = await testUser(cluster, 'system:node:n2', ['system:nodes']);
    const rbac = '/apis/rbac.authorization.orch.io/v1/clusterrolebindings';
    const bind = (name: string, role: string) =>
      request(cluster, 'POST', rbac, {
        body: {
          metadata: { name },
          roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: role },
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'system:node:n2' }],
        },
      });
    assert.equal((await bind('n2-bootstrapper', 'system:node-bootstrapper')).status, 201);
    const first = await makeRequest('system:node:n2', ['system:nodes']);
    const usages = ['digital signature', 'client auth'];
    const created = await eve.request('POST', base, { body: csrBody(group, 'n2-first', first, 'orch.io/kube-apiserver-client-kubelet', usages) });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.spec.username, 'system:node:n2');
    // A request the admin makes after it is approved and signed: by then the approver has judged eve's.
    const sentinel = await makeRequest('system:node:n3', ['system:nodes']);
    await request(cluster, 'POST', base, { body: csrBody(group, 'n3-sentinel', sentinel, 'orch.io/kube-apiserver-client-kubelet', usages) });
    await waitFor(cluster, group, 'n3-sentinel', (c) => Boolean(c.status?.certificate));
    // May create for itself: the self-node-client rule approves the next request.
    assert.equal((await bind('n2-self', 'system:certificates.orch.io:certificatesigningrequests:selfnodeclient')).status, 201);
    const second = await makeRequest('system:node:n2', ['system:nodes']);
    await eve.request('POST', base, { body: csrBody(group, 'n2-second', second, 'orch.io/kube-apiserver-client-kubelet', usages) });
    const signed = await waitFor(cluster, group, 'n2-second', (c) => Boolean(c.status?.certificate));
    assert.equal(signed.status.conditions[0].message, 'Auto approving self kubelet client certificate after SubjectAccessReview.');
    const earlier = (await request(cluster, 'GET', `${base}/n2-first`)).json;
    assert.equal(earlier.status?.conditions, undefined, 'the request made without the permission stays pending');
  });

  test('a request for an unknown signer is left alone; expirationSeconds under 600 is refused', async () => {
    const req = await makeRequest('other', []);
    await request(cluster, 'POST', base, { body: csrBody(group, 'other', req, 'example.com/custom', ['client auth']) });
    await approve('other');
    const short = await request(cluster, 'POST', base, { body: csrBody(group, 'short', req, 'orch.io/kube-apiserver-client', ['client auth'], 599) });
    assert.equal(short.status, 422);
    assert.match(short.json.message, /spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds \(10 minutes\)/);
    // By the time a later request is signed, the unknown signer's would have been.
    await request(cluster, 'POST', base, { body: csrBody(group, 'later', await makeRequest('later', []), 'orch.io/kube-apiserver-client', ['client auth']) });
    await approve('later');
    await waitFor(cluster, group, 'later', (c) => Boolean(c.status?.certificate));
    const other = (await request(cluster, 'GET', `${base}/other`)).json;
    assert.equal(other.status.certificate, undefined);
    assert.equal(other.status.conditions.length, 1);
  });
});

describe('CSR signing with --cluster-signing-cert-file/--cluster-signing-key-file', () => {
  let cluster: TestCluster;
  let dir: string;
  let signingCaPem: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-signing-ca-'));
    const other = await ensureCertificates(join(dir, 'pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
    signingCaPem = other.caCertPem;
    cluster = await startTestCluster({ storageBackend: 'memory', clusterSigning: { certFile: other.paths.caCert, keyFile: other.paths.caKey } });
  });
  after(async () => {
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('the certificate is issued by the configured CA, not the serving one', async () => {
    const group = 'certificates.orch.io';
    const base = `/apis/${group}/v1/certificatesigningrequests`;
    const req = await makeRequest('carol', []);
    assert.equal((await request(cluster, 'POST', base, { body: csrBody(group, 'carol', req, 'orch.io/kube-apiserver-client', ['client auth']) })).status, 201);
    const csr = (await request(cluster, 'GET', `${base}/carol`)).json;
    csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] };
    assert.equal((await request(cluster, 'PUT', `${base}/carol/approval`, { body: csr })).status, 200);
    const signed = await waitFor(cluster, group, 'carol', (c) => Boolean(c.status?.certificate));
    const x509 = await loadX509();
    const cert = new x509.X509Certificate(Buffer.from(signed.status.certificate, 'base64').toString('utf8'));
    assert.ok(await cert.verify({ publicKey: new x509.X509Certificate(signingCaPem).publicKey, signatureOnly: true }));
    assert.ok(!(await cert.verify({ publicKey: new x509.X509Certificate(cluster.caPem).publicKey, signatureOnly: true })));
  });
});
