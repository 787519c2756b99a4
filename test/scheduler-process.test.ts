/**
 * The scheduler as users meet it in the all-in-one: nodes and pods created through the API
 * get bound by the in-process scheduler, which talks to the server over HTTPS through client/.
 * Each pod gets spec.nodeName and a Scheduled event; an unschedulable one PodScheduled=False
 * with upstream's message and a FailedScheduling event; another scheduler's pods are left
 * alone; node affinity, taints and preemption show through the API.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, startTestCluster, type RawResponse, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;
const NS = 'sched';
const EVENTS = `/apis/events.orch.io/v1/namespaces/${NS}/events`;

function call(method: string, path: string, body?: unknown): Promise<RawResponse> {
  return request(cluster, method, path, { body: body as object | undefined });
}

function ok(r: RawResponse, code = 200): any {
  assert.equal(r.status, code, r.text);
  return r.json;
}

/** Polls until fn returns a value (not undefined), or fails after timeoutMs. */
async function eventually<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function node(name: string, opts: { cpu?: string; labels?: Record<string, string>; taints?: unknown[] } = {}) {
  const allocatable = { cpu: opts.cpu ?? '4', memory: '8Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'test.orch.io/node': name, ...opts.labels } },
    spec: opts.taints ? { taints: opts.taints } : {},
    status: {
      capacity: allocatable,
      allocatable,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'ready',
          lastHeartbeatTime: new Date().toISOString(),
          lastTransitionTime: new Date().toISOString(),
        },
      ],
    },
  };
}

function pod(name: string, cpu: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }], ...spec },
  };
}

async function getPod(name: string): Promise<any> {
  return ok(await call('GET', `/api/v1/namespaces/${NS}/pods/${name}`));
}

async function boundNode(name: string): Promise<string> {
  return eventually(`pod ${name} bound`, async () => (await getPod(name)).spec.nodeName || undefined);
}

async function eventsAbout(name: string, reason: string): Promise<any[]> {
  const list = ok(await call('GET', EVENTS));
  return list.items.filter((e: any) => e.regarding?.name === name && e.reason === reason);
}

before(async () => {
  cluster = await startTestCluster({ storageBackend: 'memory', scheduler: true });
  ok(await call('POST', '/api/v1/namespaces', { metadata: { name: NS } }), 201);
  ok(await call('POST', '/api/v1/nodes', node('n1', { labels: { zone: 'a' } })), 201);
  ok(await call('POST', '/api/v1/nodes', node('n2', { labels: { zone: 'b' } })), 201);
  ok(await call('POST', '/api/v1/nodes', node('n3', { taints: [{ key: 'dedicated', value: 'special', effect: 'NoSchedule' }] })), 201);
});

after(async () => {
  await cluster?.close();
});

describe('the in-process scheduler', () => {
  it('binds each pod to an untainted node and records Scheduled', async () => {
    for (const n of ['web-0', 'web-1', 'web-2', 'web-3']) ok(await call('POST', `/api/v1/namespaces/${NS}/pods`, pod(n, '100m')), 201);
    for (const n of ['web-0', 'web-1', 'web-2', 'web-3']) {
      const nodeName = await boundNode(n);
      assert.ok(nodeName === 'n1' || nodeName === 'n2', `${n} on ${nodeName}, not on the tainted n3`);
      const [ev] = await eventually(`Scheduled event of ${n}`, async () => {
        const evs = await eventsAbout(n, 'Scheduled');
        return evs.length > 0 ? evs : undefined;
      });
      assert.equal(ev.type, 'Normal');
      assert.equal(ev.action, 'Binding');
      assert.equal(ev.note, `Successfully assigned ${NS}/${n} to ${nodeName}`);
      assert.equal(ev.reportingController, 'default-scheduler');
      assert.match(ev.reportingInstance, /^default-scheduler-.+/);
      const scheduled = (await getPod(n)).status.conditions.find((c: any) => c.type === 'PodScheduled');
      assert.equal(scheduled?.status, 'True');
    }
  });

  it('marks a pod that fits nowhere Unschedulable with upstream message and a FailedScheduling event', async () => {
    ok(await call('POST', `/api/v1/namespaces/${NS}/pods`, pod('huge', '64')), 201);
    const cond = await eventually('PodScheduled=False', async () =>
      (await getPod('huge')).status?.conditions?.find((c: any) => c.type === 'PodScheduled' && c.status === 'False'),
    );
    assert.equal(cond.reason, 'Unschedulable');
    assert.equal(cond.message, "0/3 nodes are available: 1 node(s) had taint {dedicated: special}, that the pod didn't tolerate, 2 Insufficient cpu.");
    const [ev] = await eventually('FailedScheduling', async () => {
      const evs = await eventsAbout('huge', 'FailedScheduling');
      return evs.length > 0 ? evs : undefined;
    });
    assert.equal(ev.type, 'Warning');
    assert.equal(ev.action, 'Scheduling');
    assert.equal(ev.note, cond.message);
    assert.equal((await getPod('huge')).spec.nodeName, undefined);
  });

  it('leaves pods of another scheduler unassigned', async () => {
    ok(await call('POST', `/api/v1/namespaces/${NS}/pods`, pod('other', '100m', { schedulerName: 'my-scheduler' })), 201);
    // A pod created after it and bound proves the scheduler has seen both.
    ok(await call('POST', `/api/v1/namespaces/${NS}/pods`, pod('after-other', '100m')), 201);
    await boundNode('after-other');
    const other = await getPod('other');
    assert.equal(other.spec.nodeName, undefined);
    assert.equal(other.status?.conditions, undefined);
    assert.deepEqual(await eventsAbout('other', 'FailedScheduling'), []);
  });

  it('follows required node affinity and tolerations', async () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }] },
      },
    };
    ok(await call('POST', `/api/v1/namespaces/${NS}/pods`, pod('zone-b', '100m', { affinity })), 201);
    assert.equal(await boundNode('zone-b'), 'n2');
    const tolerant = pod('tolerant', '100m', {
      nodeSelector: { 'test.orch.io/node': 'n3' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'special', effect: 'NoSchedule' }],
    });
    ok(await call('POST', `/api/v1/namespaces/${NS}/pods`, tolerant), 201);
    assert.equal(await boundNode('tolerant'), 'n3');
  });

  it('preempts a lower-priority pod: the victim is deleted and the preemptor nominated', async () => {
    ok(await call('POST', '/apis/scheduling.orch.io/v1/priorityclasses', { metadata: { name: 'low' }, value: 100 }), 201);
    ok(await call('POST', '/apis/scheduling.orch.io/v1/priorityclasses', { metadata: { name: 'high' }, value: 1000 }), 201);
    const onN1 = { nodeSelector: { 'test.orch.io/node': 'n1' } };
    ok(await call('POST', `/api/v1/namespaces/${NS}/pods`, pod('victim', '3', { ...onN1, priorityClassName: 'low' })), 201);
    assert.equal(await boundNode('victim'), 'n1');
    ok(await call('POST', `/api/v1/namespaces/${NS}/pods`, pod('preemptor', '3', { ...onN1, priorityClassName: 'high' })), 201);
    await eventually('victim deleted', async () => {
      const r = await call('GET', `/api/v1/namespaces/${NS}/pods/victim`);
      return r.status === 404 || r.json?.metadata?.deletionTimestamp ? true : undefined;
    });
    const [preempted] = await eventually('Preempted event', async () => {
      const evs = await eventsAbout('victim', 'Preempted');
      return evs.length > 0 ? evs : undefined;
    });
    assert.equal(preempted.note, `Preempted by ${NS}/preemptor on node n1`);
    assert.equal(preempted.action, 'Preempting');
    assert.equal(preempted.related?.name, 'preemptor');
    const nominated = await eventually('nominatedNodeName', async () => (await getPod('preemptor')).status?.nominatedNodeName || undefined);
    assert.equal(nominated, 'n1');
    // With the victim gone the preemptor fits where it was nominated.
    assert.equal(await boundNode('preemptor'), 'n1');
  });
});

describe('the scheduler status writer', () => {
  it('writes PodScheduled and the nomination only when they change, and clears a nomination', async () => {
    const { ApiSchedulerWriter } = await import('../src/scheduler/process/api-writer.js');
    const { RestClient } = await import('../src/client/rest-client.js');
    const { ORCH_NAMES } = await import('../src/scheduler/framework/well-known.js');
    const client = new RestClient({ server: cluster.url, caPem: cluster.caPem, certPem: cluster.adminCertPem, keyPem: cluster.adminKeyPem });
    const writer = new ApiSchedulerWriter(client, { now: () => Date.now(), setTimer: () => () => {} }, ORCH_NAMES);
    try {
      ok(await call('POST', `/api/v1/namespaces/${NS}/pods`, pod('status-w', '1m', { schedulerName: 'nobody' })), 201);
      const cond = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'm' };
      await writer.updatePodStatus(await getPod('status-w'), cond, 'n1');
      const written = await getPod('status-w');
      assert.equal(written.status.nominatedNodeName, 'n1');
      const c = written.status.conditions.find((x: any) => x.type === 'PodScheduled');
      // lastProbeTime is a zero metav1.Time, which Go always writes as null.
      assert.deepEqual({ ...c, lastTransitionTime: undefined }, { ...cond, lastProbeTime: null, lastTransitionTime: undefined });
      // The same condition and nomination again: nothing is written.
      await writer.updatePodStatus(written, cond, 'n1');
      assert.equal((await getPod('status-w')).metadata.resourceVersion, written.metadata.resourceVersion);
      // An empty name clears the nomination; the condition stays.
      await writer.updatePodStatus(written, c, '');
      const cleared = await getPod('status-w');
      assert.equal(cleared.status.nominatedNodeName, undefined);
      assert.equal(cleared.status.conditions.find((x: any) => x.type === 'PodScheduled').message, 'm');
    } finally {
      client.close();
    }
  });
});
