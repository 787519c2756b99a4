import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ALL_RESOURCES } from '../api/catalogue.js';
import { ORCH_BRAND } from '../machinery/brand.js';
import { StatusError } from '../machinery/status.js';
import type { RequestContext } from './context.js';
import { bindPod } from './pod-binding.js';
import { Registry } from './registry.js';
import { MemoryStore } from '../storage/memory/memory-store.js';

let registry: Registry;
const ctx: RequestContext = { user: { name: 'admin', groups: ['system:masters'] }, brand: ORCH_BRAND, now: new Date('2024-01-02T03:04:05Z') };

before(async () => {
  registry = new Registry(ALL_RESOURCES, ORCH_BRAND, new MemoryStore());
  await registry.startCaches();
  const pods = registry.byResource('', 'pods');
  assert.ok(pods);
  for (const name of ['a', 'b']) {
    await pods.create(
      ctx,
      'default',
      { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      { dryRun: false },
    );
  }
});

after(() => registry.stopCaches());

async function stored(name: string): Promise<Record<string, any>> {
  const pods = registry.byResource('', 'pods');
  assert.ok(pods);
  const entry = await pods.readEntry('default', name, { kind: 'latest' });
  return JSON.parse(entry.json.toString());
}

test('binding sets the node, merges annotations and marks PodScheduled', async () => {
  await bindPod(registry, ctx, 'default', { metadata: { name: 'a', annotations: { x: 'y' } }, target: { name: 'n1' } }, { dryRun: false, urlName: 'a' });
  const pod = await stored('a');
  assert.equal(pod.spec.nodeName, 'n1');
  assert.equal(pod.metadata.annotations.x, 'y');
  assert.deepEqual(pod.status.conditions, [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-01-02T03:04:05Z' }]);
  assert.equal(pod.status.phase, 'Pending');
});

test('a bound pod cannot be bound again; a URL name must match', async () => {
  await assert.rejects(bindPod(registry, ctx, 'default', { metadata: { name: 'a' }, target: { name: 'n2' } }, { dryRun: false }), (e: unknown) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 409);
    assert.equal(e.message, 'Operation cannot be fulfilled on pods/binding "a": pod a is already assigned to node "n1"');
    return true;
  });
  await assert.rejects(bindPod(registry, ctx, 'default', { metadata: { name: 'b' }, target: { name: 'n' } }, { dryRun: false, urlName: 'a' }), {
    message: 'name in URL does not match name in Binding object',
  });
});

test('a uid precondition that does not match is a conflict; dry run changes nothing', async () => {
  await assert.rejects(bindPod(registry, ctx, 'default', { metadata: { name: 'b', uid: 'nope' }, target: { name: 'n' } }, { dryRun: false, urlName: 'b' }), {
    code: 409,
  });
  await bindPod(registry, ctx, 'default', { metadata: { name: 'b' }, target: { name: 'n' } }, { dryRun: true, urlName: 'b' });
  assert.equal((await stored('b')).spec.nodeName, undefined);
});

test('two bindings of one pod at once: one binds it, the other is refused as upstream', async () => {
  const pods = registry.byResource('', 'pods');
  assert.ok(pods);
  await pods.create(
    ctx,
    'default',
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'c' }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    { dryRun: false },
  );
  // Both start from the same (cached) pod without a node: the second write loses the race and decides again on the stored pod.
  const results = await Promise.allSettled(
    ['n1', 'n2'].map((node) => bindPod(registry, ctx, 'default', { metadata: { name: 'c' }, target: { name: node } }, { dryRun: false, urlName: 'c' })),
  );
  assert.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'rejected'],
  );
  const refused = (results[1] as PromiseRejectedResult).reason as StatusError;
  assert.equal(refused.code, 409);
  assert.equal(refused.message, 'Operation cannot be fulfilled on pods/binding "c": pod c is already assigned to node "n1"');
  assert.equal((await stored('c')).spec.nodeName, 'n1');
});

test('a pod is bound right after its creation, and a missing pod is 404', async () => {
  const pods = registry.byResource('', 'pods');
  assert.ok(pods);
  await pods.create(
    ctx,
    'default',
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'd' }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    { dryRun: false },
  );
  // The watch cache may not have the new pod yet: the binding reads it from the store.
  await bindPod(registry, ctx, 'default', { metadata: { name: 'd' }, target: { name: 'n3' } }, { dryRun: false, urlName: 'd' });
  const pod = await stored('d');
  assert.equal(pod.spec.nodeName, 'n3');
  assert.equal(pod.status.conditions[0].type, 'PodScheduled');
  await assert.rejects(bindPod(registry, ctx, 'default', { metadata: { name: 'nope' }, target: { name: 'n' } }, { dryRun: false, urlName: 'nope' }), {
    code: 404,
    message: 'pods "nope" not found',
  });
});
