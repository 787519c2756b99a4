import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ALL_RESOURCES } from '../api/catalogue.js';
import { ORCH_BRAND } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import type { RequestContext } from '../registry/context.js';
import { bindPod } from '../registry/pod-binding.js';
import { Registry } from '../registry/registry.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { type Store, StoreError } from '../storage/interface.js';
import { type NodeGraphSource, nodeGraphSource } from './node-graph-source.js';

let registry: Registry;
let source: NodeGraphSource;
const ctx: RequestContext = { user: { name: 'admin', groups: ['system:masters'] }, brand: ORCH_BRAND, now: new Date() };

const create = async (group: string, resource: string, namespace: string, obj: Obj) => {
  const store = registry.byResource(group, resource);
  assert.ok(store, resource);
  return store.create(ctx, namespace, obj, { dryRun: false });
};
const remove = async (resource: string, namespace: string, name: string) => {
  const store = registry.byResource('', resource);
  assert.ok(store);
  await store.delete(ctx, namespace, name, { dryRun: false, gracePeriodSeconds: 0 });
};
const pod = (name: string, spec: Record<string, unknown>, meta: Record<string, unknown> = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...meta },
  spec: { containers: [{ name: 'c', image: 'x' }], ...spec },
});

before(async () => {
  registry = new Registry(ALL_RESOURCES, ORCH_BRAND, new MemoryStore());
  await registry.startCaches();
  // Present before the source starts: read from the cache's list.
  await create('', 'pods', 'default', pod('early', { nodeName: 'n1', imagePullSecrets: [{ name: 'pull' }] }));
  source = nodeGraphSource(registry, ORCH_BRAND);
  await source.start();
});

after(() => {
  source.stop();
  registry.stopCaches();
});

test('pods present at start and added later are in the graph; deleting one takes its edges away', async () => {
  const { graph } = source;
  assert.ok(graph.reaches('n1', 'secret', 'default', 'pull'));
  await create(
    '',
    'pods',
    'default',
    pod('web', {
      nodeName: 'n1',
      serviceAccountName: 'web-sa',
      containers: [{ name: 'c', image: 'x', env: [{ name: 'K', valueFrom: { configMapKeyRef: { name: 'settings', key: 'k' } } }] }],
      volumes: [
        { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } },
      ],
    }),
  );
  assert.ok(graph.reaches('n1', 'configmap', 'default', 'settings'));
  assert.ok(graph.reaches('n1', 'serviceaccount', 'default', 'web-sa'));
  assert.ok(graph.reaches('n1', 'persistentvolumeclaim', 'default', 'web-scratch'));
  assert.ok(!graph.reaches('n2', 'configmap', 'default', 'settings'));
  await remove('pods', 'default', 'web');
  assert.ok(!graph.reaches('n1', 'configmap', 'default', 'settings'));
});

test('a pod enters the graph when it is bound', async () => {
  await create('', 'pods', 'default', pod('later', { volumes: [{ name: 's', secret: { secretName: 'later-secret' } }] }));
  assert.ok(!source.graph.reaches('n2', 'secret', 'default', 'later-secret'));
  await bindPod(registry, ctx, 'default', { metadata: { name: 'later' }, target: { name: 'n2' } }, { dryRun: false, urlName: 'later' });
  assert.ok(source.graph.reaches('n2', 'secret', 'default', 'later-secret'));
});

test('a mirror pod reaches nothing but its node', async () => {
  await create(
    '',
    'pods',
    'default',
    pod('static', { nodeName: 'n3', volumes: [{ name: 's', secret: { secretName: 'sneaky' } }] }, { annotations: { 'orch.io/config.mirror': 'h' } }),
  );
  assert.equal(source.graph.podNode('default', 'static'), 'n3');
  assert.ok(!source.graph.reaches('n3', 'secret', 'default', 'sneaky'));
});

test('volumes: a bound volume and its kubelet-visible secrets follow its claim', async () => {
  await create('', 'persistentvolumes', '', {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pv1' },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      claimRef: { namespace: 'default', name: 'data' },
      csi: {
        driver: 'd.example.com',
        volumeHandle: 'h',
        nodePublishSecretRef: { namespace: 'vault', name: 'publish' },
        controllerPublishSecretRef: { namespace: 'vault', name: 'controller' },
      },
    },
  });
  await create('', 'pods', 'default', pod('db', { nodeName: 'n4', volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] }));
  const { graph } = source;
  assert.ok(graph.reaches('n4', 'persistentvolume', '', 'pv1'));
  assert.ok(graph.reaches('n4', 'secret', 'vault', 'publish'));
  assert.ok(!graph.reaches('n4', 'secret', 'vault', 'controller'));
  await remove('persistentvolumes', '', 'pv1');
  assert.ok(!graph.reaches('n4', 'persistentvolume', '', 'pv1'));
  assert.ok(!graph.reaches('n4', 'secret', 'vault', 'publish'));
});

test('volume attachments belong to their node', async () => {
  await create('storage.orch.io', 'volumeattachments', '', {
    apiVersion: 'storage.orch.io/v1',
    kind: 'VolumeAttachment',
    metadata: { name: 'va1' },
    spec: { attacher: 'd.example.com', nodeName: 'n5', source: { persistentVolumeName: 'pv1' } },
  });
  assert.ok(source.graph.reaches('n5', 'volumeattachment', '', 'va1'));
  assert.ok(!source.graph.reaches('n1', 'volumeattachment', '', 'va1'));
});

test('a pod deleted while the pods cache had lost its store watch loses its edges when the cache lists again', async () => {
  const memory = new MemoryStore();
  // A store whose pods watch the test can break, as a compaction under a lagging watch does.
  const watches = new Map<string, { stop: () => void; fail: () => void }>();
  const breakable: Store = Object.create(memory, {
    watch: {
      value: (prefix: string, from: number, sink: Parameters<Store['watch']>[2], onError: Parameters<Store['watch']>[3]) => {
        const stop = memory.watch(prefix, from, sink, onError);
        watches.set(prefix, { stop, fail: () => onError?.(new StoreError('Compacted', prefix)) });
        return stop;
      },
    },
  });
  const own = new Registry(ALL_RESOURCES, ORCH_BRAND, breakable);
  await own.startCaches();
  const pods = own.byResource('', 'pods');
  assert.ok(pods);
  await pods.create(ctx, 'default', pod('gone', { nodeName: 'n9', imagePullSecrets: [{ name: 'secret-of-gone' }] }), { dryRun: false });
  const src = nodeGraphSource(own, ORCH_BRAND);
  await src.start();
  assert.ok(src.graph.reaches('n9', 'secret', 'default', 'secret-of-gone'));
  const podWatch = [...watches].find(([prefix]) => prefix.endsWith('/pods/'))?.[1];
  assert.ok(podWatch, 'the pods cache watches the store');
  podWatch.stop();
  await pods.delete(ctx, 'default', 'gone', { dryRun: false, gracePeriodSeconds: 0 });
  podWatch.fail();
  for (let i = 0; i < 200 && src.graph.reaches('n9', 'secret', 'default', 'secret-of-gone'); i++) await new Promise((r) => setImmediate(r));
  assert.equal(src.graph.reaches('n9', 'secret', 'default', 'secret-of-gone'), false);
  src.stop();
  own.stopCaches();
});
