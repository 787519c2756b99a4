/**
 * Several versions of a group served side by side (as 1.25): discovery lists them preferred
 * first, an object written at one version reads at every other without loss, each version has
 * its OpenAPI and Protobuf, and a deprecated version answers with upstream's Warning, sets
 * apiserver_requested_deprecated_apis, and is what kubectl prints.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { kubectlFor } from './helpers/kubectl.js';
import { parsePrometheusText, samplesOf } from './helpers/prometheus-text.js';
import { openWatch } from './helpers/watch-client.js';

const NS = '/namespaces/default/horizontalpodautoscalers';
const hpas = (version: string) => `/apis/autoscaling/${version}${NS}`;
const TARGET = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

describe('API versions', () => {
  let cluster: TestCluster;
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    request(cluster, method, path, { body: body as object | undefined, headers });

  before(async () => {
    cluster = await startTestCluster();
  });
  after(() => cluster.close());

  it('lists every version, the preferred first, in discovery', async () => {
    const group = (await call('GET', '/apis/autoscaling')).json;
    assert.deepEqual(
      group.versions.map((v: { version: string }) => v.version),
      ['v2', 'v1', 'v2beta2'],
    );
    assert.deepEqual(group.preferredVersion, { groupVersion: 'autoscaling/v2', version: 'v2' });
    const flow = (await call('GET', '/apis/flowcontrol.apiserver.orch.io')).json;
    assert.deepEqual(
      flow.versions.map((v: { version: string }) => v.version),
      ['v1beta2', 'v1beta1'],
    );
    // One storage version: every version reports the same storage version hash.
    const hashes = new Set<string>();
    for (const v of ['v2', 'v1', 'v2beta2']) {
      const list = (await call('GET', `/apis/autoscaling/${v}`)).json;
      const names = list.resources.map((r: { name: string }) => r.name);
      assert.deepEqual(names, ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']);
      hashes.add(list.resources[0].storageVersionHash);
    }
    assert.equal(hashes.size, 1);
    const aggregated = (await call('GET', '/apis', undefined, { accept: 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList' })).json;
    const autoscaling = aggregated.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'autoscaling');
    assert.deepEqual(
      autoscaling.versions.map((v: { version: string }) => v.version),
      ['v2', 'v1', 'v2beta2'],
    );
  });

  it('reads an object created at v1 at v2 and v2beta2', async () => {
    const created = await call('POST', hpas('v1'), {
      metadata: { name: 'from-v1' },
      spec: { scaleTargetRef: TARGET, maxReplicas: 4, targetCPUUtilizationPercentage: 60 },
    });
    assert.equal(created.status, 201, created.text);
    const v2 = (await call('GET', `${hpas('v2')}/from-v1`)).json;
    assert.equal(v2.apiVersion, 'autoscaling/v2');
    assert.deepEqual(v2.spec, {
      scaleTargetRef: TARGET,
      minReplicas: 1,
      maxReplicas: 4,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
    });
    assert.deepEqual(v2.status, { desiredReplicas: 0 });
    const beta = (await call('GET', `${hpas('v2beta2')}/from-v1`)).json;
    assert.equal(beta.apiVersion, 'autoscaling/v2beta2');
    assert.deepEqual(beta.spec, v2.spec);
    assert.deepEqual(beta.status, { currentReplicas: 0, desiredReplicas: 0 });
    assert.equal(beta.metadata.resourceVersion, v2.metadata.resourceVersion);
  });

  it('keeps what v1 cannot say through a v1 read-modify-write', async () => {
    const spec = {
      scaleTargetRef: TARGET,
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [
        { type: 'Pods', pods: { metric: { name: 'packets' }, target: { type: 'AverageValue', averageValue: '1k' } } },
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
      ],
      behavior: { scaleDown: { stabilizationWindowSeconds: 120, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
    };
    const created = await call('POST', hpas('v2'), { metadata: { name: 'rich' }, spec });
    assert.equal(created.status, 201, created.text);
    // v2's defaults filled the behavior's unset parts.
    assert.deepEqual(created.json.spec.behavior, {
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { stabilizationWindowSeconds: 120, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
    });
    const v1 = (await call('GET', `${hpas('v1')}/rich`)).json;
    assert.equal(v1.spec.targetCPUUtilizationPercentage, 70);
    assert.equal(v1.metadata.annotations['autoscaling.alpha.orch.io/metrics'], '[{"type":"Pods","pods":{"metricName":"packets","targetAverageValue":"1k"}}]');
    assert.match(v1.metadata.annotations['autoscaling.alpha.orch.io/behavior'], /^\{"ScaleUp":\{"StabilizationWindowSeconds":0,/);
    v1.spec.maxReplicas = 12;
    const updated = await call('PUT', `${hpas('v1')}/rich`, v1);
    assert.equal(updated.status, 200, updated.text);
    const after = (await call('GET', `${hpas('v2')}/rich`)).json;
    assert.deepEqual(after.spec, { ...created.json.spec, maxReplicas: 12 });
    assert.equal(after.metadata.annotations, undefined);
  });

  it('streams a write at one version to watchers of every version, each in its own form', async () => {
    const watches = await Promise.all(['v1', 'v2beta2'].map((v) => openWatch(cluster, `${hpas(v)}?watch=true&fieldSelector=metadata.name%3Dwatched`)));
    try {
      const created = await call('POST', hpas('v2'), { metadata: { name: 'watched' }, spec: { scaleTargetRef: TARGET, maxReplicas: 2 } });
      assert.equal(created.status, 201, created.text);
      const [v1, beta] = await Promise.all(watches.map((w) => w.next()));
      assert.equal(v1.type, 'ADDED');
      assert.equal(v1.object.apiVersion, 'autoscaling/v1');
      assert.equal(v1.object.spec.targetCPUUtilizationPercentage, 80);
      assert.equal(beta.object.apiVersion, 'autoscaling/v2beta2');
      assert.deepEqual(beta.object.spec, created.json.spec);
      assert.equal(beta.object.metadata.resourceVersion, created.json.metadata.resourceVersion);
    } finally {
      for (const w of watches) w.close();
    }
  });

  it('validates every version on the v2 form', async () => {
    const bad = await call('POST', hpas('v2beta2'), {
      metadata: { name: 'bad' },
      spec: { scaleTargetRef: TARGET, maxReplicas: 3, metrics: [{ type: 'Pods', resource: { name: 'cpu' } }] },
    });
    assert.equal(bad.status, 422, bad.text);
    assert.deepEqual(
      bad.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
      [
        'spec.metrics[0].resource.target.type: Required value: must specify a metric target type',
        'spec.metrics[0].resource.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue',
        'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
        // The one source present is looked into; only a second one would be forbidden.
        'spec.metrics[0].pods: Required value: must populate information for the given metric source',
      ],
    );
  });

  it("warns on each request to a deprecated version with upstream's text, and records it", async () => {
    const deprecatedApis = async () => {
      const families = parsePrometheusText((await call('GET', '/metrics')).text);
      return samplesOf(families, 'apiserver_requested_deprecated_apis').map((s) => ({ ...s.labels, value: s.value }));
    };
    const list = await call('GET', hpas('v2beta2'));
    assert.equal(list.status, 200);
    assert.equal(
      list.headers.warning,
      '299 - "autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler"',
    );
    const status = await call('GET', `${hpas('v2beta2')}/from-v1/status`);
    assert.equal(status.status, 200);
    assert.ok(status.headers.warning);
    const flow = await call('GET', '/apis/flowcontrol.apiserver.orch.io/v1beta1/flowschemas');
    assert.equal(
      flow.headers.warning,
      '299 - "flowcontrol.apiserver.orch.io/v1beta1 FlowSchema is deprecated in v1.23+, unavailable in v1.26+; use flowcontrol.apiserver.orch.io/v1beta2 FlowSchema"',
    );
    const expected = [
      { group: 'autoscaling', version: 'v2beta2', resource: 'horizontalpodautoscalers', subresource: '', removed_release: '1.26', value: 1 },
      { group: 'autoscaling', version: 'v2beta2', resource: 'horizontalpodautoscalers', subresource: 'status', removed_release: '1.26', value: 1 },
      { group: 'flowcontrol.apiserver.orch.io', version: 'v1beta1', resource: 'flowschemas', subresource: '', removed_release: '1.26', value: 1 },
    ];
    const byLabels = (a: Record<string, unknown>, b: Record<string, unknown>) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    assert.deepEqual((await deprecatedApis()).sort(byLabels), expected.sort(byLabels));
    for (const v of ['v1', 'v2']) assert.equal((await call('GET', hpas(v))).headers.warning, undefined);
    assert.equal((await call('GET', '/apis/flowcontrol.apiserver.orch.io/v1beta2/flowschemas')).headers.warning, undefined);
    assert.equal((await deprecatedApis()).length, 3);
  });

  it('serves each version as Protobuf and in OpenAPI', async () => {
    for (const v of ['v2', 'v2beta2', 'v1']) {
      const r = await call('GET', `${hpas(v)}/rich`, undefined, { accept: 'application/vnd.orch.protobuf' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers['content-type'], 'application/vnd.orch.protobuf');
      const doc = (await call('GET', `/openapi/v3/apis/autoscaling/${v}`, undefined, { accept: 'application/json' })).json;
      assert.ok(doc.components.schemas[`io.k8s.api.autoscaling.${v}.HorizontalPodAutoscaler`], v);
    }
    const flow = await call('GET', '/apis/flowcontrol.apiserver.orch.io/v1beta1/prioritylevelconfigurations', undefined, {
      accept: 'application/vnd.orch.protobuf',
    });
    assert.equal(flow.status, 200);
    const swagger = (await call('GET', '/openapi/v2', undefined, { accept: 'application/json' })).json;
    assert.ok(swagger.paths['/apis/autoscaling/v2beta2/namespaces/{namespace}/horizontalpodautoscalers/{name}']);
    assert.ok(swagger.paths['/apis/flowcontrol.apiserver.orch.io/v1beta1/flowschemas']);
  });
});

describe('deprecated versions through kubectl (--kubernetes-compat)', () => {
  let cluster: TestCluster;
  let dir: string;
  before(async () => {
    [cluster, dir] = await Promise.all([startTestCluster({ kubernetesCompat: true }), mkdtemp(join(tmpdir(), 'kubectl-versions-'))]);
  });
  after(async () => {
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  });

  for (const version of ['1.27', '1.33']) {
    it(`kubectl ${version} prints the warning and reads the object at the version it names`, async () => {
      const kubectl = kubectlFor(version, cluster, join(dir, version));
      const autoscale = await kubectl.run(['get', 'horizontalpodautoscalers.v2beta2.autoscaling', '-A']);
      assert.equal(autoscale.code, 0, autoscale.stderr);
      assert.match(
        autoscale.stderr,
        /^Warning: autoscaling\/v2beta2 HorizontalPodAutoscaler is deprecated in v1\.23\+, unavailable in v1\.26\+; use autoscaling\/v2 HorizontalPodAutoscaler$/m,
      );
      const flow = await kubectl.run(['get', 'flowschemas.v1beta1.flowcontrol.apiserver.k8s.io']);
      assert.match(
        flow.stderr,
        /^Warning: flowcontrol\.apiserver\.k8s\.io\/v1beta1 FlowSchema is deprecated in v1\.23\+, unavailable in v1\.26\+; use flowcontrol\.apiserver\.k8s\.io\/v1beta2 FlowSchema$/m,
      );
      const manifest = join(dir, `hpa-${version}.yaml`);
      await writeFile(
        manifest,
        [
          'apiVersion: autoscaling/v1',
          'kind: HorizontalPodAutoscaler',
          `metadata: {name: web-${version.replace('.', '-')}, namespace: default}`,
          'spec:',
          '  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}',
          '  maxReplicas: 5',
          '  targetCPUUtilizationPercentage: 65',
          '',
        ].join('\n'),
      );
      await kubectl.ok(['apply', '--server-side', '-f', manifest]);
      const preferred = await kubectl.run(['get', 'hpa', '-n', 'default']);
      assert.equal(preferred.code, 0, preferred.stderr);
      assert.doesNotMatch(preferred.stderr, /Warning/);
      assert.match(preferred.stdout, new RegExp(`web-${version.replace('.', '-')}\\s+Deployment/web\\s+(cpu: )?<unknown>/65%\\s+1\\s+5\\s+0`));
      const v2 = JSON.parse(await kubectl.ok(['get', 'hpa.v2.autoscaling', `web-${version.replace('.', '-')}`, '-n', 'default', '-o', 'json']));
      assert.deepEqual(v2.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 65 } } }]);
    });
  }
});
