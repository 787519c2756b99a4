import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSchemas } from '../api/schema/index.js';
import { StatusError } from '../machinery/status.js';
import { PatchSchema, strategicMergePatch } from './strategic-merge-patch.js';

type JsonMap = Record<string, unknown>;

function schemaOf(group: string, version: string, kind: string): PatchSchema {
  const name = apiSchemas().nameOfKind(group, version, kind);
  assert.ok(name !== undefined, `no definition for ${group}/${version} ${kind}`);
  return PatchSchema.forDefinition(apiSchemas(), name);
}

const pod = (): JsonMap => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, finalizers: ['a/one'] },
  spec: {
    containers: [
      { name: 'web', image: 'nginx:1', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80, protocol: 'TCP' }] },
      { name: 'sidecar', image: 'envoy:1' },
      { name: 'logger', image: 'fluentd:1' },
    ],
    tolerations: [{ key: 'k', operator: 'Exists' }],
    volumes: [{ name: 'data', emptyDir: {} }],
  },
});

const deployment = (): JsonMap => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd' },
  spec: {
    replicas: 2,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: {
      metadata: { labels: { app: 'd' } },
      spec: {
        containers: [
          { name: 'a', image: 'a:1' },
          { name: 'b', image: 'b:1' },
        ],
      },
    },
  },
});

describe('strategic merge patch over the served schemas: Pod', () => {
  const schema = schemaOf('', 'v1', 'Pod');
  const containers = (o: JsonMap) => (o.spec as JsonMap).containers as JsonMap[];

  it('changes one container by name and keeps the others in place', () => {
    const out = strategicMergePatch(pod(), { spec: { containers: [{ name: 'sidecar', image: 'envoy:2' }] } }, schema);
    assert.deepEqual(
      containers(out).map((c) => [c.name, c.image]),
      [
        ['web', 'nginx:1'],
        ['sidecar', 'envoy:2'],
        ['logger', 'fluentd:1'],
      ],
    );
    assert.deepEqual(containers(out)[0].env, [{ name: 'A', value: '1' }]);
  });

  it('merges env by name, deletes a container with $patch: delete, and appends a new one', () => {
    const patch = {
      spec: {
        containers: [
          { name: 'web', env: [{ name: 'B', value: '2' }] },
          { name: 'logger', $patch: 'delete' },
          { name: 'new', image: 'busybox' },
        ],
      },
    };
    const out = containers(strategicMergePatch(pod(), patch, schema));
    assert.deepEqual(
      out.map((c) => c.name),
      ['web', 'new', 'sidecar'],
    );
    assert.deepEqual(out[0].env, [
      { name: 'B', value: '2' },
      { name: 'A', value: '1' },
    ]);
  });

  it('merges labels (null deletes), unites finalizers, replaces tolerations', () => {
    const patch = {
      metadata: { labels: { tier: null, version: 'v2' }, finalizers: ['b/two'] },
      spec: { tolerations: [{ key: 'other', operator: 'Exists' }] },
    };
    const out = strategicMergePatch(pod(), patch, schema);
    assert.deepEqual((out.metadata as JsonMap).labels, { app: 'web', version: 'v2' });
    assert.deepEqual((out.metadata as JsonMap).finalizers, ['b/two', 'a/one']);
    assert.deepEqual((out.spec as JsonMap).tolerations, [{ key: 'other', operator: 'Exists' }]);
  });

  it('a volume with $retainKeys switches its source (volumes are merge,retainKeys)', () => {
    const patch = { spec: { volumes: [{ name: 'data', $retainKeys: ['configMap', 'name'], configMap: { name: 'cm' } }] } };
    const out = strategicMergePatch(pod(), patch, schema);
    assert.deepEqual((out.spec as JsonMap).volumes, [{ name: 'data', configMap: { name: 'cm' } }]);
  });

  it('$setElementOrder/containers reorders the containers', () => {
    const patch = { spec: { '$setElementOrder/containers': [{ name: 'logger' }, { name: 'web' }, { name: 'sidecar' }] } };
    assert.deepEqual(
      containers(strategicMergePatch(pod(), patch, schema)).map((c) => c.name),
      ['logger', 'web', 'sidecar'],
    );
  });

  it('refuses $setElementOrder of a field PodSpec does not have, as upstream words it', () => {
    assert.throws(
      () => strategicMergePatch(pod(), { spec: { '$setElementOrder/sidecars': [] } }, schema),
      (e: unknown) => e instanceof StatusError && e.code === 400 && e.message === 'unable to find api field in struct PodSpec for the json field "sidecars"',
    );
  });
});

describe('strategic merge patch over the served schemas: Deployment', () => {
  const schema = schemaOf('apps', 'v1', 'Deployment');

  it('switches the strategy with $retainKeys, clearing rollingUpdate', () => {
    const patch = { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } };
    const out = strategicMergePatch(deployment(), patch, schema);
    assert.deepEqual((out.spec as JsonMap).strategy, { type: 'Recreate' });
    assert.equal((out.spec as JsonMap).replicas, 2);
  });

  it('sets one image the way `kubectl set image` patches it', () => {
    const patch = { spec: { template: { spec: { containers: [{ image: 'b:2', name: 'b' }] } } } };
    const out = strategicMergePatch(deployment(), patch, schema);
    const template = (out.spec as JsonMap).template as JsonMap;
    assert.deepEqual((template.spec as JsonMap).containers, [
      { name: 'a', image: 'a:1' },
      { name: 'b', image: 'b:2' },
    ]);
    assert.deepEqual(template.metadata, { labels: { app: 'd' } });
  });
});

describe('strategic merge patch: any patch is a result or a Status', () => {
  const schema = schemaOf('', 'v1', 'Pod');
  // A small deterministic generator of patches mixing fields, directives and wrong types.
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const keys = [
    'spec',
    'containers',
    'name',
    'image',
    'env',
    'volumes',
    'metadata',
    'labels',
    'finalizers',
    'tolerations',
    '$patch',
    '$retainKeys',
    '$setElementOrder/containers',
    '$deleteFromPrimitiveList/finalizers',
    'x',
  ];
  const scalars: unknown[] = [null, 'web', 'sidecar', 'delete', 'replace', 'merge', 1, 2.5, true];
  const value = (depth: number): unknown => {
    const pick = rand(depth > 3 ? 2 : 4);
    if (pick < 2) return scalars[rand(scalars.length)];
    if (pick === 2) return Array.from({ length: rand(3) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: 1 + rand(3) }, () => [keys[rand(keys.length)], value(depth + 1)]));
  };

  it('never throws anything but a StatusError', () => {
    for (let i = 0; i < 2000; i++) {
      const patch = { spec: value(1), metadata: value(1) } as JsonMap;
      try {
        const out = strategicMergePatch(pod(), patch, schema);
        assert.ok(out !== null && typeof out === 'object');
      } catch (e) {
        assert.ok(e instanceof StatusError, `patch ${JSON.stringify(patch)} threw ${String(e)}`);
        assert.ok(e.code === 400 || e.code === 422);
      }
    }
  });
});
