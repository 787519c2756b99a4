/**
 * orch-scheduler's /metrics against a real orch API server: after it binds a pod and fails to
 * place one that fits nowhere, the scrape shows what upstream's scheduler records — attempts
 * by result and profile, the e2e, algorithm and binding histograms, the per-pod attempts,
 * the pending pods by sub-queue, the pods that entered each queue and why, the cache sizes,
 * the preemption attempt of the unschedulable pod and the extension-point durations.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request, startTestCluster, type RawResponse, type TestCluster } from './helpers/cluster.js';
import { type Family, parsePrometheusText } from './helpers/prometheus-text.js';
import { type ServingScheduler, serveScheduler } from './helpers/scheduler-process.js';

const NS = 'metrics';
let dir: string;
let cluster: TestCluster;
let scheduler: ServingScheduler;
let insecurePort: number;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

function ok(r: RawResponse, code: number): void {
  assert.equal(r.status, code, r.text);
}

function node(name: string) {
  const allocatable = { cpu: '4', memory: '8Gi', pods: '110' };
  const now = new Date().toISOString();
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name },
    status: {
      capacity: allocatable,
      allocatable,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ready', lastHeartbeatTime: now, lastTransitionTime: now }],
    },
  };
}

function pod(name: string, cpu: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }] },
  };
}

function scrape(): Promise<Map<string, Family>> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: insecurePort, path: '/metrics' }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => (res.statusCode === 200 ? resolve(parsePrometheusText(text)) : reject(new Error(`/metrics ${res.statusCode}: ${text}`))));
      })
      .on('error', reject);
  });
}

/** The value of the sample of `name` whose labels include `labels` (0 when absent). */
function value(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name !== name) continue;
      if (Object.entries(labels).every(([k, v]) => s.labels[k] === v)) return s.value;
    }
  }
  return 0;
}

/** Scrapes until probe holds, or fails with the last scrape's figures after timeoutMs. */
async function scrapeUntil(what: string, probe: (m: Map<string, Family>) => boolean, timeoutMs = 15_000): Promise<Map<string, Family>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const m = await scrape();
    if (probe(m)) return m;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-sched-metrics-'));
  cluster = await startTestCluster({ storageBackend: 'memory' });
  insecurePort = await freePort();
  scheduler = await serveScheduler([
    '--bind-address=127.0.0.1',
    `--secure-port=${await freePort()}`,
    '--address=127.0.0.1',
    `--port=${insecurePort}`,
    `--cert-dir=${join(dir, 'certs')}`,
    `--kubeconfig=${cluster.kubeconfigPath}`,
    '--leader-elect=false',
  ]);
  ok(await request(cluster, 'POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } }), 201);
  for (const n of ['n1', 'n2', 'n3']) ok(await request(cluster, 'POST', '/api/v1/nodes', { body: node(n) }), 201);
  ok(await request(cluster, 'POST', `/api/v1/namespaces/${NS}/pods`, { body: pod('fits', '100m') }), 201);
  ok(await request(cluster, 'POST', `/api/v1/namespaces/${NS}/pods`, { body: pod('huge', '64') }), 201);
});

after(async () => {
  await scheduler?.stop();
  await cluster?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('orch-scheduler /metrics', () => {
  it('counts a scheduled and an unschedulable attempt, and keeps the unschedulable pod pending', async () => {
    const m = await scrapeUntil(
      'a scheduled attempt, an unschedulable one and one pod in the unschedulable queue',
      (m) =>
        value(m, 'scheduler_schedule_attempts_total', { result: 'scheduled', profile: 'default-scheduler' }) >= 1 &&
        value(m, 'scheduler_schedule_attempts_total', { result: 'unschedulable', profile: 'default-scheduler' }) >= 1 &&
        value(m, 'scheduler_pending_pods', { queue: 'unschedulable' }) === 1,
    );
    assert.equal(value(m, 'scheduler_schedule_attempts_total', { result: 'error' }), 0);
    assert.equal(value(m, 'scheduler_pending_pods', { queue: 'active' }), 0);
    assert.ok(value(m, 'scheduler_e2e_scheduling_duration_seconds_count', { result: 'scheduled', profile: 'default-scheduler' }) >= 1);
    assert.ok(value(m, 'scheduler_e2e_scheduling_duration_seconds_count', { result: 'unschedulable', profile: 'default-scheduler' }) >= 1);
    assert.ok(value(m, 'scheduler_scheduling_algorithm_duration_seconds_count') >= 1);
    assert.ok(value(m, 'scheduler_binding_duration_seconds_count') >= 1);
    assert.ok(value(m, 'scheduler_binding_duration_seconds_bucket', { le: '+Inf' }) >= 1);
    // The bound pod made it at its first attempt.
    assert.equal(value(m, 'scheduler_pod_scheduling_attempts_count'), 1);
    assert.equal(value(m, 'scheduler_pod_scheduling_attempts_bucket', { le: '1' }), 1);
    assert.equal(value(m, 'scheduler_pod_scheduling_duration_seconds_count', { attempts: '1' }), 1);
    // Both pods entered activeQ when added; the failed one then went to the unschedulable queue.
    assert.equal(value(m, 'scheduler_queue_incoming_pods_total', { queue: 'active', event: 'PodAdd' }), 2);
    assert.ok(value(m, 'scheduler_queue_incoming_pods_total', { event: 'ScheduleAttemptFailure' }) >= 1);
    // The unschedulable pod ran DefaultPreemption (it has no victims to pick).
    assert.ok(value(m, 'scheduler_preemption_attempts_total') >= 1);
    assert.ok(
      value(m, 'scheduler_framework_extension_point_duration_seconds_count', { extension_point: 'Bind', status: 'Success', profile: 'default-scheduler' }) >= 1,
    );
    assert.ok(value(m, 'scheduler_framework_extension_point_duration_seconds_count', { extension_point: 'PreFilter', status: 'Success' }) >= 2);
    assert.ok(value(m, 'scheduler_framework_extension_point_duration_seconds_count', { extension_point: 'PostFilter', status: 'Unschedulable' }) >= 1);
    assert.equal(value(m, 'scheduler_scheduler_goroutines', { work: 'binding' }), 0);
  });

  it('reports the cache: three nodes and the bound pod', async () => {
    const m = await scrapeUntil('the bound pod confirmed in the cache', (m) => value(m, 'scheduler_scheduler_cache_size', { type: 'assumed_pods' }) === 0);
    assert.equal(value(m, 'scheduler_scheduler_cache_size', { type: 'nodes' }), 3);
    assert.equal(value(m, 'scheduler_scheduler_cache_size', { type: 'pods' }), 1);
  });
});
