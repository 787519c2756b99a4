/**
 * Service cluster IPs and node ports, as upstream allocates them: from --service-cluster-ip-range
 * and --service-node-port-range, free ones only, requested ones checked, freed with the Service.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;
const SVC = '/api/v1/namespaces/default/services';

before(async () => {
  cluster = await startTestCluster();
});
after(() => cluster?.close());

function service(name: string, spec: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], selector: { app: name }, ...spec } };
}

async function create(name: string, spec: Record<string, unknown> = {}) {
  return request(cluster, 'POST', SVC, { body: service(name, spec) });
}

function inDefaultRange(ip: string): boolean {
  const m = /^10\.0\.0\.(\d+)$/.exec(ip);
  return m !== null && Number(m[1]) > 0 && Number(m[1]) < 255;
}

describe('Service cluster IPs', () => {
  it('a ClusterIP Service gets a free IP of 10.0.0.0/24 in clusterIP and clusterIPs; two get different ones', async () => {
    const a = (await create('a')).json;
    const b = (await create('b')).json;
    assert.ok(inDefaultRange(a.spec.clusterIP), a.spec.clusterIP);
    assert.deepEqual(a.spec.clusterIPs, [a.spec.clusterIP]);
    assert.notEqual(a.spec.clusterIP, b.spec.clusterIP);
  });

  it('a requested IP is kept when free, refused when taken or out of range', async () => {
    const ok = await create('fixed', { clusterIP: '10.0.0.200' });
    assert.equal(ok.status, 201);
    assert.deepEqual(ok.json.spec.clusterIPs, ['10.0.0.200']);
    const taken = await create('taken', { clusterIP: '10.0.0.200' });
    assert.equal(taken.status, 422);
    assert.equal(
      taken.json.message,
      'Service "taken" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.200"}: failed to allocate IP 10.0.0.200: provided IP is already allocated',
    );
    const outside = await create('outside', { clusterIP: '10.9.0.1' });
    assert.equal(outside.status, 422);
    assert.match(outside.json.message, /provided IP \(10\.9\.0\.1\) is not in the valid range\. The range of valid IPs is 10\.0\.0\.0\/24$/);
  });

  it('deleting a Service frees its IP', async () => {
    assert.equal((await create('freed', { clusterIP: '10.0.0.201' })).status, 201);
    assert.equal((await request(cluster, 'DELETE', `${SVC}/freed`)).status, 200);
    assert.equal((await create('again', { clusterIP: '10.0.0.201' })).status, 201);
  });

  it('headless and ExternalName Services get no IP', async () => {
    const headless = (await create('headless', { clusterIP: 'None' })).json;
    assert.equal(headless.spec.clusterIP, 'None');
    const external = (await request(cluster, 'POST', SVC, { body: { metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'example.com' } } }))
      .json;
    assert.equal(external.spec.clusterIP, undefined);
  });
});

describe('Service node ports', () => {
  it('a NodePort Service gets a node port of 30000-32767 per port; a taken one is refused', async () => {
    const np = (
      await create('np', {
        type: 'NodePort',
        ports: [
          { port: 80, name: 'http' },
          { port: 443, name: 'https' },
        ],
      })
    ).json;
    const [p1, p2] = np.spec.ports.map((p: { nodePort: number }) => p.nodePort);
    for (const p of [p1, p2]) assert.ok(p >= 30000 && p <= 32767, String(p));
    assert.notEqual(p1, p2);
    const clash = await create('clash', { type: 'NodePort', ports: [{ port: 80, nodePort: p1 }] });
    assert.equal(clash.status, 422);
    assert.equal(clash.json.message, `Service "clash" is invalid: spec.ports[0].nodePort: Invalid value: ${p1}: provided port is already allocated`);
  });

  it('an update to NodePort allocates ports and keeps the cluster IP', async () => {
    const before = (await create('grow')).json;
    const res = await request(cluster, 'PATCH', `${SVC}/grow`, {
      body: { spec: { type: 'NodePort' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.spec.clusterIP, before.spec.clusterIP);
    assert.ok(res.json.spec.ports[0].nodePort >= 30000);
  });
});
