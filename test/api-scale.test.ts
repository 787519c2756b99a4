// The scale subresource (issue 15): deployments, replicasets, statefulsets and
// replicationcontrollers answer an autoscaling/v1 Scale, writes change only spec.replicas,
// discovery names the Scale's group-version, and `kubectl scale` / `kubectl autoscale` work.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from './helpers/cluster.js';
import { kubectlWorkspace } from './helpers/kubectl.js';

const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

const WORKLOADS = [
  {
    path: '/apis/apps/v1/namespaces/default/deployments',
    obj: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template('web') },
    },
    selector: 'app=web',
  },
  {
    path: '/apis/apps/v1/namespaces/default/replicasets',
    obj: {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'rs' },
      spec: { replicas: 1, selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['rs', 'x'] }] }, template: template('rs') },
    },
    selector: 'app in (rs,x)',
  },
  {
    path: '/apis/apps/v1/namespaces/default/statefulsets',
    obj: {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: { replicas: 3, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') },
    },
    selector: 'app=db',
  },
  {
    path: '/api/v1/namespaces/default/replicationcontrollers',
    obj: {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc' },
      spec: { replicas: 1, selector: { app: 'rc', tier: 'a' }, template: { ...template('rc'), metadata: { labels: { app: 'rc', tier: 'a' } } } },
    },
    selector: 'app=rc,tier=a',
  },
];

describe('scale subresource', { concurrency: true }, () => {
  const ws = kubectlWorkspace();

  it('answers each workload as an autoscaling/v1 Scale and writes only spec.replicas', async () => {
    for (const w of WORKLOADS) {
      const made = await request(ws.cluster, 'POST', w.path, { body: w.obj });
      assert.equal(made.status, 201, made.text);
      const created = made.json;
      const url = `${w.path}/${w.obj.metadata.name}/scale`;
      const got = await request(ws.cluster, 'GET', url);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.json, {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: {
          name: w.obj.metadata.name,
          namespace: 'default',
          uid: created.metadata.uid,
          resourceVersion: created.metadata.resourceVersion,
          creationTimestamp: created.metadata.creationTimestamp,
        },
        spec: { replicas: w.obj.spec.replicas },
        status: { replicas: 0, selector: w.selector },
      });
      const put = await request(ws.cluster, 'PUT', url, { body: { ...got.json, spec: { replicas: 5 } } });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.json.kind, 'Scale');
      assert.equal(put.json.spec.replicas, 5);
      const parent = await request(ws.cluster, 'GET', `${w.path}/${w.obj.metadata.name}`);
      assert.equal(parent.json.spec.replicas, 5);
      assert.deepEqual(parent.json.spec.template, created.spec.template, 'nothing but replicas changes');
      // The old resourceVersion is a compare-and-swap that now fails.
      const stale = await request(ws.cluster, 'PUT', url, { body: { ...got.json, spec: { replicas: 6 } } });
      assert.equal(stale.status, 409, stale.text);
      const negative = await request(ws.cluster, 'PUT', url, {
        body: { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: w.obj.metadata.name }, spec: { replicas: -1 } },
      });
      assert.equal(negative.status, 422);
      assert.equal(
        negative.json.message,
        `Scale.autoscaling "${w.obj.metadata.name}" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`,
      );
      const patched = await request(ws.cluster, 'PATCH', url, { body: { spec: { replicas: 0 } }, headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(patched.json.spec, {}, 'zero replicas is omitted, as upstream');
    }
  });

  it('is in discovery with the Scale group-version', async () => {
    const apps = await request(ws.cluster, 'GET', '/apis/apps/v1');
    const entry = apps.json.resources.find((r: { name: string }) => r.name === 'deployments/scale');
    assert.deepEqual(entry, {
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    const core = await request(ws.cluster, 'GET', '/api/v1');
    assert.ok(core.json.resources.some((r: { name: string }) => r.name === 'replicationcontrollers/scale'));
  });

  for (const version of ['1.27', '1.33']) {
    it(`kubectl ${version} scale and autoscale`, async () => {
      const k = ws.kubectl(version);
      const name = `k${version.replace('.', '')}`;
      await k.ok(['create', 'deployment', name, '--image=nginx']);
      assert.equal((await k.ok(['scale', 'deployment', name, '--replicas=4'])).trim(), `deployment.apps/${name} scaled`);
      assert.equal((await k.ok(['get', 'deployment', name, '-o', 'jsonpath={.spec.replicas}'])).trim(), '4');
      const wrong = await k.run(['scale', 'deployment', name, '--replicas=2', '--resource-version=1']);
      assert.notEqual(wrong.code, 0);
      const fields = JSON.parse(await k.ok(['get', 'deployment', name, '-o', 'json', '--show-managed-fields'])).metadata.managedFields;
      const scaleEntry = fields.find((f: { subresource?: string }) => f.subresource === 'scale');
      assert.equal(scaleEntry?.apiVersion, 'apps/v1', 'ownership is recorded against the Deployment');
      assert.deepEqual(scaleEntry?.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
      assert.match(await k.ok(['autoscale', 'deployment', name, '--max=5']), /autoscaled/);
    });
  }
});
