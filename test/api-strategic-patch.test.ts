// PATCH with application/strategic-merge-patch+json: kubectl 1.33's strategic patches (its
// default `kubectl patch` type, and `kubectl set image`) and the Status answers upstream gives.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { request } from './helpers/cluster.js';
import { kubectlWorkspace } from './helpers/kubectl.js';

const SMP = 'application/strategic-merge-patch+json';

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    containers: [
      { name: 'app', image: 'nginx:1', env: [{ name: 'MODE', value: 'a' }] },
      { name: 'sidecar', image: 'envoy:1' },
      { name: 'logger', image: 'fluentd:1' },
    ],
  },
};

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'shop' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'shop' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    template: {
      metadata: { labels: { app: 'shop' } },
      spec: {
        containers: [
          { name: 'front', image: 'front:1' },
          { name: 'back', image: 'back:1' },
        ],
      },
    },
  },
};

type Named = { name: string; image: string };

describe('strategic merge patch', () => {
  const ws = kubectlWorkspace();
  const kubectl = ws.kubectl('1.33');

  before(async () => {
    for (const [path, body] of [
      ['/api/v1/namespaces/default/pods', pod],
      ['/apis/apps/v1/namespaces/default/deployments', deployment],
    ] as const) {
      const r = await request(ws.cluster, 'POST', path, { body });
      assert.equal(r.status, 201, r.text);
    }
  });

  const images = async (path: string, containersOf: (o: any) => Named[]) => {
    const r = await request(ws.cluster, 'GET', path);
    assert.equal(r.status, 200, r.text);
    return containersOf(r.json).map((c) => [c.name, c.image]);
  };
  const podImages = () => images('/api/v1/namespaces/default/pods/web', (o) => o.spec.containers);
  const deploymentImages = () => images('/apis/apps/v1/namespaces/default/deployments/shop', (o) => o.spec.template.spec.containers);

  it('kubectl patch --type=strategic changes one container of a Pod and keeps the others', async () => {
    const out = await kubectl.ok(['patch', 'pod', 'web', '--type=strategic', '-p', '{"spec":{"containers":[{"name":"sidecar","image":"envoy:2"}]}}']);
    assert.match(out, /pod\/web patched/);
    assert.deepEqual(await podImages(), [
      ['app', 'nginx:1'],
      ['sidecar', 'envoy:2'],
      ['logger', 'fluentd:1'],
    ]);
    const r = await request(ws.cluster, 'GET', '/api/v1/namespaces/default/pods/web');
    assert.deepEqual(r.json.spec.containers[0].env, [{ name: 'MODE', value: 'a' }]);
  });

  it('kubectl patch (strategic by default) and kubectl set image change one container of a Deployment', async () => {
    await kubectl.ok(['patch', 'deployment', 'shop', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"back","image":"back:2"}]}}}}']);
    assert.deepEqual(await deploymentImages(), [
      ['front', 'front:1'],
      ['back', 'back:2'],
    ]);
    assert.match(await kubectl.ok(['set', 'image', 'deployment/shop', 'front=front:2']), /deployment.apps\/shop image updated/);
    assert.deepEqual(await deploymentImages(), [
      ['front', 'front:2'],
      ['back', 'back:2'],
    ]);
  });

  it('kubectl apply (client-side) sends a three-way strategic patch: one image changed, one container removed', async () => {
    const manifest = (containers: Named[]) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'applied', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'applied' } }, template: { metadata: { labels: { app: 'applied' } }, spec: { containers } } },
    });
    const file = await ws.file(
      'applied.json',
      JSON.stringify(
        manifest([
          { name: 'x', image: 'x:1' },
          { name: 'y', image: 'y:1' },
          { name: 'z', image: 'z:1' },
        ]),
      ),
    );
    assert.match(await kubectl.ok(['apply', '--validate=false', '-f', file]), /created/);
    await ws.file(
      'applied.json',
      JSON.stringify(
        manifest([
          { name: 'z', image: 'z:1' },
          { name: 'x', image: 'x:2' },
        ]),
      ),
    );
    assert.match(await kubectl.ok(['apply', '--validate=false', '-f', file]), /configured/);
    assert.deepEqual(await images('/apis/apps/v1/namespaces/default/deployments/applied', (o) => o.spec.template.spec.containers), [
      ['z', 'z:1'],
      ['x', 'x:2'],
    ]);
  });

  it('$retainKeys switches a Deployment strategy, clearing rollingUpdate', async () => {
    await kubectl.ok(['patch', 'deployment', 'shop', '--type=strategic', '-p', '{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}']);
    const r = await request(ws.cluster, 'GET', '/apis/apps/v1/namespaces/default/deployments/shop');
    assert.deepEqual(r.json.spec.strategy, { type: 'Recreate' });
  });

  it('$patch: delete of a Pod container reaches validation (422 as upstream); labels merge, null deleting', async () => {
    const r = await request(ws.cluster, 'PATCH', '/api/v1/namespaces/default/pods/web', {
      headers: { 'content-type': SMP },
      body: { metadata: { labels: { app: null, tier: 'front' } }, spec: { containers: [{ name: 'logger', $patch: 'delete' }] } },
    });
    // Removing a container is a forbidden pod update, as upstream: the patch applied, validation refused it.
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.reason, 'Invalid');
    const labels = await request(ws.cluster, 'PATCH', '/api/v1/namespaces/default/pods/web', {
      headers: { 'content-type': `${SMP}; charset=utf-8` },
      body: { metadata: { labels: { app: null, tier: 'front' } } },
    });
    assert.equal(labels.status, 200, labels.text);
    assert.deepEqual(labels.json.metadata.labels, { tier: 'front' });
  });

  it('answers bad directives and bodies with upstream messages', async () => {
    const patch = (body: string) =>
      request(ws.cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/shop', { headers: { 'content-type': SMP }, body });
    const bad = await patch('{"spec":{"template":{"spec":{"containers":[{"name":"back","$patch":"remove"}]}}}}');
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json.reason, 'BadRequest');
    assert.equal(bad.json.message, 'unknown patch type: remove in map: map[$patch:remove name:back]');
    const order = await patch('{"spec":{"$setElementOrder/volumes":"x"}}');
    assert.equal(order.status, 400, order.text);
    assert.equal(order.json.message, 'expected a []interface {}, but received a string');
    const retain = await patch('{"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":{"maxSurge":2}}}}');
    assert.equal(retain.status, 400, retain.text);
    assert.equal(retain.json.message, 'invalid patch format of retainKeys');
    const list = await patch('[]');
    assert.equal(list.status, 400, list.text);
    assert.equal(list.json.message, 'json: cannot unmarshal array into Go value of type map[string]interface {}');
    const unknown = await patch('{"spec":{"$setElementOrder/sidecars":[]}}');
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.json.message, 'unable to find api field in struct DeploymentSpec for the json field "sidecars"');
  });

  it('lists strategic merge patch among the accepted types of a built-in type', async () => {
    const r = await request(ws.cluster, 'PATCH', '/api/v1/namespaces/default/pods/web', { headers: { 'content-type': 'application/x-unknown' }, body: '{}' });
    assert.equal(r.status, 415, r.text);
    assert.equal(r.json.reason, 'UnsupportedMediaType');
    assert.match(
      r.json.message,
      /^the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, application\/merge-patch\+json, application\/strategic-merge-patch\+json(, |$)/,
    );
  });

  it("a patched object its type cannot hold is 422 with the unstructured converter's text, as upstream", async () => {
    const cases: [string, string][] = [
      ['{"metadata":{"labels":"x"}}', ' "" is invalid: patch: Invalid value: "map[metadata:map[labels:x]]": cannot restore map from string'],
      [
        '{"metadata":{"finalizers":{"a":"b"}}}',
        ' "" is invalid: patch: Invalid value: "map[metadata:map[finalizers:map[a:b]]]": cannot restore slice from map',
      ],
      ['{"spec":{"nodeName":5}}', ' "" is invalid: patch: Invalid value: "map[spec:map[nodeName:5]]": cannot convert int64 to string'],
      ['{"spec":"x"}', ' "" is invalid: patch: Invalid value: "map[spec:x]": cannot restore struct from: string'],
    ];
    for (const [body, message] of cases) {
      const r = await request(ws.cluster, 'PATCH', '/api/v1/namespaces/default/pods/web', { body, headers: { 'content-type': SMP } });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.json.message, message);
      assert.deepEqual(r.json.details, { causes: [{ reason: 'FieldValueInvalid', message: message.slice(' "" is invalid: patch: '.length), field: 'patch' }] });
    }
    // kubectl shows the same text.
    const run = await kubectl.run(['patch', 'pod', 'web', '-p', '{"metadata":{"labels":"x"}}']);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /cannot restore map from string/);
  });
});
