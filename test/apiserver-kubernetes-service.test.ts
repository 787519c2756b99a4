/**
 * The bootstrap-controller's Service: the API server's own Service in `default` (`kubernetes`
 * under --kubernetes-compat, `orch` otherwise) at the first address of the cluster-IP range,
 * port 443 to the secure port, with Endpoints and an EndpointSlice naming the advertised
 * address, recreated after a user deletes them; seen through kubectl.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventually, request } from './helpers/cluster.js';
import { assertOk } from './helpers/invalid.js';
import { kubectlWorkspace, parseTable, rowNamed } from './helpers/kubectl.js';
import { advertiseAddress } from '../src/registry/kubernetes-service.js';

describe('the kubernetes Service (compat mode)', () => {
  const ws = kubectlWorkspace({ storageBackend: 'memory', kubernetesCompat: true, serviceClusterIPRange: '10.96.0.0/16', endpointReconcileIntervalMs: 200 });
  const kubectl = ws.kubectl('1.31');
  const ip = advertiseAddress('127.0.0.1');

  test('kubectl get service kubernetes: first IP of the range, 443/TCP', async () => {
    const { rows } = parseTable(await kubectl.ok(['get', 'service', 'kubernetes', '-n', 'default']));
    const row = rowNamed(rows, 'kubernetes');
    assert.deepEqual(row?.slice(0, 5), ['kubernetes', 'ClusterIP', '10.96.0.1', '<none>', '443/TCP']);
    const svc = JSON.parse(await kubectl.ok(['get', 'service', 'kubernetes', '-n', 'default', '-o', 'json']));
    assert.deepEqual(svc.metadata.labels, { component: 'apiserver', provider: 'kubernetes' });
    assert.deepEqual(svc.spec.ports, [{ name: 'https', port: 443, protocol: 'TCP', targetPort: ws.cluster.port }]);
    assert.equal(svc.spec.sessionAffinity, 'None');
    assert.equal(svc.spec.selector, undefined);
  });

  test('Endpoints and EndpointSlice name the advertised address and the secure port', async () => {
    const out = await kubectl.ok(['get', 'endpoints', 'kubernetes', '-n', 'default']);
    assert.equal(rowNamed(parseTable(out).rows, 'kubernetes')?.[1], `${ip}:${ws.cluster.port}`);
    const ep = JSON.parse(await kubectl.ok(['get', 'endpoints', 'kubernetes', '-n', 'default', '-o', 'json']));
    assert.deepEqual(ep.subsets, [{ addresses: [{ ip }], ports: [{ name: 'https', port: ws.cluster.port, protocol: 'TCP' }] }]);
    assert.equal(ep.metadata.labels['endpointslice.kubernetes.io/skip-mirror'], 'true');
    const slice = JSON.parse(await kubectl.ok(['get', 'endpointslices.discovery.k8s.io', 'kubernetes', '-n', 'default', '-o', 'json']));
    assert.equal(slice.addressType, 'IPv4');
    assert.equal(slice.metadata.labels['kubernetes.io/service-name'], 'kubernetes');
    assert.deepEqual(slice.endpoints, [{ addresses: [ip], conditions: { ready: true } }]);
    assert.deepEqual(slice.ports, [{ name: 'https', port: ws.cluster.port, protocol: 'TCP' }]);
  });

  test('deleted by a user, the Service, Endpoints and EndpointSlice come back', async () => {
    const before = assertOk(await request(ws.cluster, 'GET', '/api/v1/namespaces/default/services/kubernetes')).metadata.uid;
    await kubectl.ok(['delete', 'service', 'kubernetes', '-n', 'default']);
    await kubectl.ok(['delete', 'endpoints', 'kubernetes', '-n', 'default']);
    await kubectl.ok(['delete', 'endpointslices.discovery.k8s.io', 'kubernetes', '-n', 'default']);
    const back = async (path: string) => (await request(ws.cluster, 'GET', path)).status === 200;
    assert.ok(
      await eventually(async () => {
        const r = await request(ws.cluster, 'GET', '/api/v1/namespaces/default/services/kubernetes');
        return r.status === 200 && r.json.metadata.uid !== before && r.json.spec.clusterIP === '10.96.0.1';
      }, 3000),
      'Service not recreated',
    );
    assert.ok(await eventually(() => back('/api/v1/namespaces/default/endpoints/kubernetes'), 3000), 'Endpoints not recreated');
    assert.ok(await eventually(() => back('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes'), 3000), 'EndpointSlice not recreated');
  });

  test('a changed port is put back; labels a user added stay', async () => {
    const path = '/api/v1/namespaces/default/services/kubernetes';
    const svc = assertOk(await request(ws.cluster, 'GET', path));
    svc.metadata.labels.team = 'platform';
    svc.spec.ports[0].port = 8443;
    assertOk(await request(ws.cluster, 'PUT', path, { body: svc }));
    assert.ok(await eventually(async () => (await request(ws.cluster, 'GET', path)).json.spec.ports[0].port === 443, 3000), 'port not restored');
    assert.equal(assertOk(await request(ws.cluster, 'GET', path)).metadata.labels.team, 'platform');
  });
});

describe('the orch Service (orch mode)', () => {
  const ws = kubectlWorkspace({ storageBackend: 'memory' });
  const kubectl = ws.kubectl('1.33');

  test('is named orch, labelled provider=orch, at the first IP of the default range', async () => {
    const svc = JSON.parse(await kubectl.ok(['get', 'service', 'orch', '-n', 'default', '-o', 'json']));
    assert.equal(svc.spec.clusterIP, '10.0.0.1');
    assert.deepEqual(svc.metadata.labels, { component: 'apiserver', provider: 'orch' });
    const slice = assertOk(await request(ws.cluster, 'GET', '/apis/discovery.orch.io/v1/namespaces/default/endpointslices/orch'));
    assert.equal(slice.metadata.labels['orch.io/service-name'], 'orch');
    const health = await request(ws.cluster, 'GET', '/readyz?verbose');
    assert.match(health.text, /\[\+\]poststarthook\/bootstrap-controller ok/);
  });
});
