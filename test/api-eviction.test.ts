// pods/<name>/eviction (issue 15): a policy/v1 Eviction deletes the pod unless its
// PodDisruptionBudget forbids it (429 with upstream's message and cause), uses up one allowed
// disruption, and `kubectl drain` evicts through it; DELETE takes a Protobuf DeleteOptions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from './helpers/cluster.js';
import { kubectlWorkspace } from './helpers/kubectl.js';
import { encodeProtobufObject } from '../src/codec/protobuf/index.js';

const PODS = '/api/v1/namespaces/default/pods';
const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const MERGE = { 'content-type': 'application/merge-patch+json' };

describe('eviction', { concurrency: true }, () => {
  const ws = kubectlWorkspace();

  async function runningPod(name: string, labels: Record<string, string>, node = 'evict-node'): Promise<void> {
    const made = await request(ws.cluster, 'POST', PODS, {
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx' }] } },
    });
    assert.equal(made.status, 201, made.text);
    const running = await request(ws.cluster, 'PATCH', `${PODS}/${name}/status`, { body: { status: { phase: 'Running' } }, headers: MERGE });
    assert.equal(running.status, 200, running.text);
  }

  const evict = (name: string, body: Record<string, unknown> = {}) =>
    request(ws.cluster, 'POST', `${PODS}/${name}/eviction`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...body } });

  async function budget(name: string, app: string, status?: Record<string, unknown>): Promise<void> {
    const made = await request(ws.cluster, 'POST', PDBS, {
      body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app } } } },
    });
    assert.equal(made.status, 201, made.text);
    if (status) {
      const r = await request(ws.cluster, 'PATCH', `${PDBS}/${name}/status`, { body: { status }, headers: MERGE });
      assert.equal(r.status, 200, r.text);
    }
  }

  it('deletes a pod no budget covers and answers 201 Success', async () => {
    await runningPod('free', { app: 'free' });
    const r = await evict('free');
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    assert.equal((await request(ws.cluster, 'GET', `${PODS}/free`)).status, 404);
  });

  it('refuses a name that is not the URL name', async () => {
    await runningPod('named', { app: 'named' });
    const r = await request(ws.cluster, 'POST', `${PODS}/named/eviction`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } } });
    assert.equal(r.status, 400);
    assert.equal(r.json.message, 'name in URL does not match name in Eviction object');
  });

  it('waits for the disruption controller and honours disruptionsAllowed', async () => {
    await runningPod('guarded-1', { app: 'guarded' });
    await runningPod('guarded-2', { app: 'guarded' });
    await budget('guarded', 'guarded');
    const pending = await evict('guarded-1');
    assert.equal(pending.status, 429, pending.text);
    assert.equal(pending.json.reason, 'TooManyRequests');
    assert.equal(pending.json.message, "Cannot evict pod as it would violate the pod's disruption budget.");
    assert.deepEqual(pending.json.details.causes, [
      { reason: 'DisruptionBudget', message: 'The disruption budget guarded is still being processed by the server.' },
    ]);
    await request(ws.cluster, 'PATCH', `${PDBS}/guarded/status`, {
      body: { status: { observedGeneration: 1, disruptionsAllowed: 1, desiredHealthy: 1, currentHealthy: 2, expectedPods: 2 } },
      headers: MERGE,
    });
    // A dry run checks the budget but uses nothing up.
    const dry = await request(ws.cluster, 'POST', `${PODS}/guarded-1/eviction?dryRun=All`, {
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'guarded-1' } },
    });
    assert.equal(dry.status, 201, dry.text);
    assert.equal((await request(ws.cluster, 'GET', `${PODS}/guarded-1`)).status, 200);
    assert.equal((await evict('guarded-1')).status, 201);
    const pdb = (await request(ws.cluster, 'GET', `${PDBS}/guarded`)).json;
    assert.equal(pdb.status.disruptionsAllowed, 0);
    assert.ok(pdb.status.disruptedPods['guarded-1'], 'the evicted pod is recorded for the disruption controller');
    assert.deepEqual(
      pdb.status.conditions.map((c: Record<string, unknown>) => [c.type, c.status, c.reason]),
      [['DisruptionAllowed', 'False', 'InsufficientPods']],
    );
    const refused = await evict('guarded-2');
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.json.details.causes, [
      { reason: 'DisruptionBudget', message: 'The disruption budget guarded needs 1 healthy pods and has 2 currently' },
    ]);
  });

  it('refuses a pod two budgets select with 500', async () => {
    await runningPod('doubly', { app: 'doubly' });
    await budget('doubly-1', 'doubly');
    await budget('doubly-2', 'doubly');
    const r = await evict('doubly');
    assert.equal(r.status, 500);
    assert.equal(r.json.message, 'Internal error occurred: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  });

  it('deletes a pending pod whatever its budget says', async () => {
    const made = await request(ws.cluster, 'POST', PODS, {
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pending', labels: { app: 'pending' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    });
    assert.equal(made.status, 201);
    await budget('pending', 'pending');
    assert.equal((await evict('pending')).status, 201);
  });

  it('takes a Protobuf DeleteOptions on DELETE', async () => {
    await runningPod('proto-delete', { app: 'proto' });
    const body = Buffer.from(encodeProtobufObject({ apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: 'not-the-uid' } }));
    const wrong = await request(ws.cluster, 'DELETE', `${PODS}/proto-delete`, { body, headers: { 'content-type': 'application/vnd.kubernetes.protobuf' } });
    assert.equal(wrong.status, 409, `the precondition was read from the Protobuf body: ${wrong.text}`);
  });

  for (const version of ['1.27', '1.33']) {
    it(`kubectl ${version} drain evicts through the budget`, async () => {
      const k = ws.kubectl(version);
      const node = `drain-${version.replace('.', '')}`;
      const made = await request(ws.cluster, 'POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: node } } });
      assert.equal(made.status, 201, made.text);
      const app = `drained-${version.replace('.', '')}`;
      await runningPod(`${app}-pod`, { app }, node);
      await budget(app, app, { observedGeneration: 1, disruptionsAllowed: 1, desiredHealthy: 0, currentHealthy: 1, expectedPods: 1 });
      const out = await k.ok(['drain', node, '--force', '--timeout=20s']);
      assert.match(out, new RegExp(`pod/${app}-pod evicted`));
      assert.equal((await request(ws.cluster, 'GET', `${PODS}/${app}-pod`)).status, 404);
    });
  }
});
