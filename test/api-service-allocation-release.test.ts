/**
 * Service addresses are held exactly as long as a stored Service holds them: a create that
 * fails after its IP was chosen, a dry run, and a deleted Service leave nothing behind (the
 * Service storage allocates in the write itself, as upstream's service REST).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;
const SVC = '/api/v1/namespaces/default/services';

before(async () => {
  cluster = await startTestCluster();
});
after(() => cluster?.close());

function service(name: string, spec: Record<string, unknown>) {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], selector: { app: name }, ...spec } };
}

describe('Service allocation lifetime', () => {
  it('a create refused by validation does not hold the IP and node port it asked for', async () => {
    const bad = await request(cluster, 'POST', SVC, {
      body: service('bad', { type: 'NodePort', clusterIP: '10.0.0.240', ports: [{ port: 80, nodePort: 31240, protocol: 'Bogus' }] }),
    });
    assert.equal(bad.status, 422, bad.text);
    assert.match(bad.json.message, /spec\.ports\[0\]\.protocol: Unsupported value: "Bogus"/);
    const good = await request(cluster, 'POST', SVC, {
      body: service('good', { type: 'NodePort', clusterIP: '10.0.0.240', ports: [{ port: 80, nodePort: 31240 }] }),
    });
    assert.equal(good.status, 201, good.text);
  });

  it('a dry-run create answers an address but holds none', async () => {
    const dry = await request(cluster, 'POST', `${SVC}?dryRun=All`, { body: service('dry', { clusterIP: '10.0.0.241' }) });
    assert.equal(dry.status, 201, dry.text);
    assert.deepEqual(dry.json.spec.clusterIPs, ['10.0.0.241']);
    const auto = await request(cluster, 'POST', `${SVC}?dryRun=All`, { body: service('dry-auto', { type: 'NodePort' }) });
    assert.match(auto.json.spec.clusterIP, /^10\.0\.0\.\d+$/);
    assert.ok(auto.json.spec.ports[0].nodePort >= 30000);
    assert.equal((await request(cluster, 'POST', SVC, { body: service('real', { clusterIP: '10.0.0.241' }) })).status, 201);
  });

  it('an update back to ClusterIP frees the node ports', async () => {
    const np = (await request(cluster, 'POST', SVC, { body: service('shrink', { type: 'NodePort', ports: [{ port: 80, nodePort: 31250 }] }) })).json;
    const body = { ...np, spec: { ...np.spec, type: 'ClusterIP', ports: [{ port: 80 }] } };
    const res = await request(cluster, 'PUT', `${SVC}/shrink`, { body });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.spec.ports[0].nodePort, undefined);
    const again = await request(cluster, 'POST', SVC, { body: service('reuse', { type: 'NodePort', ports: [{ port: 80, nodePort: 31250 }] }) });
    assert.equal(again.status, 201, again.text);
  });
});
