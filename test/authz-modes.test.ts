/**
 * The Node, ABAC, Webhook, AlwaysAllow and AlwaysDeny modes in a running server, with users
 * from client certificates the cluster's CA signs: kubelets reach only what their pods use and
 * write only their own objects (NodeRestriction), ABAC policies allow what they say, a webhook
 * decides (and its failure is 500, never a hang), AlwaysDeny refuses with upstream's reason.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { stringify } from 'yaml';
import { startupErrorLine } from '../src/cmd/startup-errors.js';
import { ensureCertificates, issueClientCertificate, pkiPaths } from '../src/pki/certificates.js';
import { type RawResponse, request, startTestCluster, type TestCluster } from './helpers/cluster.js';

let dir: string;
let nodeAbac: TestCluster;
let deny: TestCluster;
let allow: TestCluster;
let hooked: TestCluster;
let hookServer: https.Server;
const reviews: any[] = [];
/** Clients by user, per cluster (each cluster has its own CA). */
const agents = new Map<string, https.Agent>();

const POLICY = [
  '# who may do what, one policy per line',
  JSON.stringify({
    apiVersion: 'abac.authorization.orch.io/v1beta1',
    kind: 'Policy',
    spec: { user: 'alice', readonly: true, namespace: '*', resource: '*', apiGroup: '*' },
  }),
  '',
  JSON.stringify({
    apiVersion: 'abac.authorization.kubernetes.io/v1beta1',
    kind: 'Policy',
    spec: { group: 'devs', namespace: 'team', resource: '*', apiGroup: '*' },
  }),
  JSON.stringify({ user: 'carol', namespace: 'team', resource: 'configmaps' }),
].join('\n');

async function caOf(cluster: TestCluster): Promise<{ cert: string; key: string }> {
  const paths = pkiPaths(join(cluster.dataDir, 'pki'));
  return { cert: await readFile(paths.caCert, 'utf8'), key: await readFile(paths.caKey, 'utf8') };
}

async function user(cluster: TestCluster, tag: string, name: string, groups: string[]): Promise<void> {
  const ca = await caOf(cluster);
  const issued = await issueClientCertificate(ca.cert, ca.key, name, groups);
  agents.set(`${tag}/${name}`, new https.Agent({ cert: issued.certPem, key: issued.keyPem, ca: cluster.caPem, keepAlive: false }));
}

/** A request as one of the users made for a cluster. */
function as(
  cluster: TestCluster,
  tag: string,
  name: string,
  method: string,
  path: string,
  body?: object,
  headers?: Record<string, string>,
): Promise<RawResponse> {
  const agent = agents.get(`${tag}/${name}`);
  assert.ok(agent, `no client for ${name}`);
  return request(cluster, method, path, { anonymous: true, agent, body, headers });
}

const admin = (cluster: TestCluster, method: string, path: string, body?: object) => request(cluster, method, path, { body });

const pod = (name: string, node: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { nodeName: node, containers: [{ name: 'c', image: 'busybox' }], ...spec },
});

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-authz-modes-'));
  const policyFile = join(dir, 'abac.jsonl');
  await writeFile(policyFile, POLICY);
  nodeAbac = await startTestCluster({ storageBackend: 'memory', authorization: { modes: ['Node', 'ABAC'], policyFile } });
  deny = await startTestCluster({ storageBackend: 'memory', authorization: { modes: ['AlwaysDeny'] } });
  allow = await startTestCluster({ storageBackend: 'memory', authorization: { modes: ['AlwaysAllow'] } });

  const pki = await ensureCertificates(join(dir, 'hook-pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
  hookServer = https.createServer({ cert: pki.serverCertPem, key: pki.serverKeyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      reviews.push(review);
      if (review.spec.user === 'broken') {
        res.statusCode = 500;
        res.end();
        return;
      }
      const status =
        review.spec.user === 'dave'
          ? { allowed: true }
          : review.spec.user === 'mallory'
            ? { allowed: false, denied: true, reason: 'mallory is banned' }
            : { allowed: false, reason: 'not mine' };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status }));
    });
  });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
  const kubeconfig = join(dir, 'authz-hook.kubeconfig');
  await writeFile(
    kubeconfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'hook',
          cluster: {
            server: `https://localhost:${(hookServer.address() as AddressInfo).port}/sar`,
            'certificate-authority-data': Buffer.from(pki.caCertPem).toString('base64'),
          },
        },
      ],
      users: [{ name: 'apiserver', user: {} }],
      contexts: [{ name: 'hook', context: { cluster: 'hook', user: 'apiserver' } }],
      'current-context': 'hook',
    }),
  );
  hooked = await startTestCluster({
    storageBackend: 'memory',
    authorization: { modes: ['Webhook'], webhook: { kubeconfigPath: kubeconfig, version: 'v1beta1', authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000 } },
  });

  for (const [name, groups] of [
    ['system:node:node1', ['system:nodes']],
    ['alice', []],
    ['bob', ['devs']],
    ['carol', []],
  ] as const)
    await user(nodeAbac, 'na', name, [...groups]);
  await user(deny, 'deny', 'alice', []);
  await user(allow, 'allow', 'alice', []);
  for (const name of ['dave', 'mallory', 'erin', 'broken']) await user(hooked, 'hook', name, []);

  // The objects the kubelet tests look at.
  assert.equal((await admin(nodeAbac, 'POST', '/api/v1/namespaces', { metadata: { name: 'team' } })).status, 201);
  for (const name of ['mine', 'theirs', 'cm-mine']) {
    const kind = name.startsWith('cm') ? 'configmaps' : 'secrets';
    assert.equal((await admin(nodeAbac, 'POST', `/api/v1/namespaces/default/${kind}`, { metadata: { name }, data: {} })).status, 201);
  }
  const volumes = [
    { name: 's', secret: { secretName: 'mine' } },
    { name: 'c', configMap: { name: 'cm-mine' } },
  ];
  assert.equal((await admin(nodeAbac, 'POST', '/api/v1/namespaces/default/pods', pod('on-node1', 'node1', { volumes }))).status, 201);
  assert.equal(
    (await admin(nodeAbac, 'POST', '/api/v1/namespaces/default/pods', pod('on-node2', 'node2', { volumes: [{ name: 's', secret: { secretName: 'theirs' } }] })))
      .status,
    201,
  );
  assert.equal((await admin(nodeAbac, 'POST', '/api/v1/namespaces/default/pods', pod('also-node1', 'node1'))).status, 201);
});

after(async () => {
  for (const a of agents.values()) a.destroy();
  await Promise.all([nodeAbac, deny, allow, hooked].map((c) => c?.close()));
  hookServer?.closeAllConnections();
  hookServer?.close();
  await rm(dir, { recursive: true, force: true });
});

const node1 = (method: string, path: string, body?: object, headers?: Record<string, string>) =>
  as(nodeAbac, 'na', 'system:node:node1', method, path, body, headers);

test("Node: a kubelet reads the secrets and config maps of its pods, not others', and loses them with the pod", async () => {
  assert.equal((await node1('GET', '/api/v1/namespaces/default/secrets/mine')).status, 200);
  assert.equal((await node1('GET', '/api/v1/namespaces/default/configmaps/cm-mine')).status, 200);
  // A watch of one secret (as kubelets watch) names it by field selector.
  const watch = await node1('GET', '/api/v1/namespaces/default/secrets?watch=1&fieldSelector=metadata.name%3Dmine&timeoutSeconds=1');
  assert.equal(watch.status, 200);
  assert.match(watch.text, /"name":"mine"/);
  const list = await node1('GET', '/api/v1/namespaces/default/secrets?fieldSelector=metadata.name%3Dmine');
  assert.equal(list.status, 200);
  assert.equal(list.json.items.length, 1);
  assert.equal((await node1('GET', '/api/v1/namespaces/default/secrets?fieldSelector=metadata.name%3Dtheirs')).status, 403);
  const theirs = await node1('GET', '/api/v1/namespaces/default/secrets/theirs');
  assert.equal(theirs.status, 403);
  assert.equal(
    theirs.json.message,
    'secrets "theirs" is forbidden: User "system:node:node1" cannot get resource "secrets" in API group "" in the namespace "default": ' +
      "no relationship found between node 'node1' and this object\nNo policy matched.",
  );
  // Listing every secret is not reading one of its pods'.
  assert.equal((await node1('GET', '/api/v1/namespaces/default/secrets')).status, 403);
  assert.equal((await admin(nodeAbac, 'DELETE', '/api/v1/namespaces/default/pods/on-node1?gracePeriodSeconds=0')).status, 200);
  assert.equal((await node1('GET', '/api/v1/namespaces/default/secrets/mine')).status, 403);
  assert.equal((await node1('GET', '/api/v1/namespaces/default/configmaps/cm-mine')).status, 403);
});

test('Node + NodeRestriction: a kubelet writes its own Node, Lease and pod status only', async () => {
  assert.equal((await node1('POST', '/api/v1/nodes', { metadata: { name: 'node1', labels: { 'orch.io/hostname': 'node1' } } })).status, 201);
  const other = await node1('POST', '/api/v1/nodes', { metadata: { name: 'node2' } });
  assert.equal(other.status, 403);
  assert.equal(other.json.message, 'nodes "node2" is forbidden: node "node1" is not allowed to modify node "node2"');
  const relabel = await node1(
    'PATCH',
    '/api/v1/nodes/node1',
    { metadata: { labels: { 'node-restriction.orch.io/trusted': 'yes' } } },
    {
      'content-type': 'application/merge-patch+json',
    },
  );
  assert.equal(relabel.status, 403);
  assert.equal(relabel.json.message, 'nodes "node1" is forbidden: is not allowed to modify labels: node-restriction.orch.io/trusted');
  assert.equal(
    (await node1('PATCH', '/api/v1/nodes/node1', { metadata: { labels: { 'node.orch.io/pool': 'a' } } }, { 'content-type': 'application/merge-patch+json' }))
      .status,
    200,
  );

  const leases = '/apis/coordination.orch.io/v1/namespaces/orch-node-lease/leases';
  assert.equal((await node1('POST', leases, { metadata: { name: 'node1' }, spec: { holderIdentity: 'node1' } })).status, 201);
  const foreignLease = await node1('POST', leases, { metadata: { name: 'node2' }, spec: {} });
  assert.equal(foreignLease.status, 403);
  assert.equal(
    foreignLease.json.message,
    'leases.coordination.orch.io "node2" is forbidden: can only access node lease with the same name as the requesting node',
  );
  assert.equal((await node1('PUT', `${leases}/node1`, (await node1('GET', `${leases}/node1`)).json)).status, 200);
  assert.equal((await node1('POST', '/apis/coordination.orch.io/v1/namespaces/default/leases', { metadata: { name: 'node1' }, spec: {} })).status, 403);

  const merge = { 'content-type': 'application/merge-patch+json' };
  assert.equal((await node1('PATCH', '/api/v1/namespaces/default/pods/also-node1/status', { status: { phase: 'Running' } }, merge)).status, 200);
  const foreignPod = await node1('PATCH', '/api/v1/namespaces/default/pods/on-node2/status', { status: { phase: 'Running' } }, merge);
  assert.equal(foreignPod.status, 403);
  assert.equal(foreignPod.json.message, 'pods "on-node2" is forbidden: node "node1" can only update pod status for pods with spec.nodeName set to itself');

  const notMirror = await node1('POST', '/api/v1/namespaces/default/pods', pod('static', 'node1'));
  assert.equal(notMirror.status, 403);
  assert.equal(
    notMirror.json.message,
    'pods "static" is forbidden: pod does not have "orch.io/config.mirror" annotation, node "node1" can only create mirror pods',
  );
  const mirror = pod('static', 'node1');
  (mirror.metadata as Record<string, unknown>).annotations = { 'orch.io/config.mirror': 'hash' };
  assert.equal((await node1('POST', '/api/v1/namespaces/default/pods', mirror)).status, 201);
  const del = await node1('DELETE', '/api/v1/namespaces/default/pods/on-node2');
  assert.equal(del.status, 403);
  assert.equal(del.json.message, 'pods "on-node2" is forbidden: node "node1" can only delete pods with spec.nodeName set to itself');
});

test('ABAC: readonly users read, groups write in their namespace, legacy lines work, the rest is 403 with "No policy matched."', async () => {
  assert.equal((await as(nodeAbac, 'na', 'alice', 'GET', '/api/v1/namespaces/default/pods')).status, 200);
  const write = await as(nodeAbac, 'na', 'alice', 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } });
  assert.equal(write.status, 403);
  assert.equal(
    write.json.message,
    'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "default": No policy matched.',
  );
  assert.equal((await as(nodeAbac, 'na', 'bob', 'POST', '/api/v1/namespaces/team/configmaps', { metadata: { name: 'x' } })).status, 201);
  assert.equal((await as(nodeAbac, 'na', 'bob', 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } })).status, 403);
  // v0 line: carol may do anything with config maps in team, nothing else.
  assert.equal((await as(nodeAbac, 'na', 'carol', 'DELETE', '/api/v1/namespaces/team/configmaps/x')).status, 200);
  assert.equal((await as(nodeAbac, 'na', 'carol', 'GET', '/api/v1/namespaces/team/secrets')).status, 403);
  assert.equal((await as(nodeAbac, 'na', 'carol', 'GET', '/version')).status, 403);
});

test('a bad ABAC line stops start-up with one line naming the file and line', async () => {
  const bad = join(dir, 'bad.jsonl');
  await writeFile(bad, `${POLICY}\n{"apiVersion":"abac.authorization.orch.io/v1beta1","kind":"Policy","spec":{"user":1}}\n`);
  await assert.rejects(
    () => startTestCluster({ storageBackend: 'memory', authorization: { modes: ['ABAC'], policyFile: bad } }),
    (e: unknown) => {
      const line = startupErrorLine(e);
      assert.match(
        line,
        new RegExp(
          `^error: error reading policy file ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, line 6: \\{.*\\}: json: cannot unmarshal number into Go struct field Policy\\.spec\\.user of type string$`,
        ),
      );
      return true;
    },
  );
});

test('AlwaysDeny: 403 with "Everything is forbidden."; system:masters still allowed', async () => {
  const r = await as(deny, 'deny', 'alice', 'GET', '/api/v1/namespaces');
  assert.equal(r.status, 403);
  assert.equal(
    r.json.message,
    'namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope: Everything is forbidden.',
  );
  assert.equal((await admin(deny, 'GET', '/api/v1/namespaces')).status, 200);
});

test('AlwaysAllow: any authenticated user may do anything', async () => {
  assert.equal((await as(allow, 'allow', 'alice', 'POST', '/api/v1/namespaces', { metadata: { name: 'alices' } })).status, 201);
  assert.equal((await as(allow, 'allow', 'alice', 'GET', '/api/v1/namespaces/alices')).status, 200);
});

test('Webhook: allowed proceeds, denied and no opinion are 403 with the reason, answers are cached, a failing webhook is 500', async () => {
  assert.equal((await as(hooked, 'hook', 'dave', 'GET', '/api/v1/namespaces/default/pods')).status, 200);
  const sent = reviews.find((r) => r.spec.user === 'dave');
  assert.equal(sent.apiVersion, 'authorization.orch.io/v1beta1');
  assert.deepEqual(sent.spec.group, ['system:authenticated']);
  assert.deepEqual(sent.spec.resourceAttributes, { namespace: 'default', verb: 'list', version: 'v1', resource: 'pods' });
  const denied = await as(hooked, 'hook', 'mallory', 'GET', '/api/v1/namespaces/default/pods');
  assert.equal(denied.status, 403);
  assert.equal(
    denied.json.message,
    'pods is forbidden: User "mallory" cannot list resource "pods" in API group "" in the namespace "default": mallory is banned',
  );
  const unsure = await as(hooked, 'hook', 'erin', 'GET', '/api/v1/namespaces/default/pods');
  assert.equal(unsure.status, 403);
  assert.match(unsure.json.message, /: not mine$/);
  // Cached: the same request is not sent again.
  const count = reviews.length;
  assert.equal((await as(hooked, 'hook', 'dave', 'GET', '/api/v1/namespaces/default/pods')).status, 200);
  assert.equal((await as(hooked, 'hook', 'erin', 'GET', '/api/v1/namespaces/default/pods')).status, 403);
  assert.equal(reviews.length, count);
  // The webhook fails every retry: nobody allowed, so 500, within the retry bound.
  const started = Date.now();
  const broken = await as(hooked, 'hook', 'broken', 'GET', '/api/v1/namespaces/default/pods');
  assert.equal(broken.status, 500);
  assert.equal(broken.json.reason, 'InternalError');
  assert.match(broken.json.message, /^Internal error occurred: Post "https:\/\/localhost:\d+\/sar": the webhook answered 500$/);
  assert.ok(Date.now() - started < 15_000);
});
