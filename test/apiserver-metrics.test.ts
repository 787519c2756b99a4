/**
 * The API server's /metrics: upstream's families (names, types, stability in HELP, labels,
 * buckets) present after traffic, scraped and parsed with a strict text-format parser;
 * /metrics under authorization (anonymous 403, a system:monitoring member 200);
 * --disabled-metrics and --show-hidden-metrics-for-version.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { type Family, parsePrometheusText, samplesOf } from './helpers/prometheus-text.js';
import { issueClientCertificate, pkiPaths } from '../src/pki/certificates.js';

let cluster: TestCluster;

async function scrape(c: TestCluster = cluster): Promise<Map<string, Family>> {
  const r = await request(c, 'GET', '/metrics');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(r.text);
}

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });

before(async () => {
  cluster = await startTestCluster({ storageBackend: 'memory', authorization: { modes: ['RBAC'] } });
});
after(() => cluster.close());

describe('/metrics after traffic', () => {
  let families: Map<string, Family>;
  let duringWatch: Map<string, Family>;
  /** Before the traffic: the server's own start-up writes (its ConfigMaps) are counted too. */
  let atStart: Map<string, Family>;
  before(async () => {
    atStart = await scrape();
    assert.equal((await request(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('a') })).status, 201);
    assert.equal((await request(cluster, 'POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { body: configMap('b') })).status, 201);
    assert.equal((await request(cluster, 'GET', '/api/v1/namespaces/default/configmaps/a')).status, 200);
    assert.equal((await request(cluster, 'GET', '/api/v1/namespaces/default/configmaps/missing')).status, 404);
    assert.equal((await request(cluster, 'GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    const watch = request(cluster, 'GET', '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=2');
    // The watch is open (and has sent its initial ADDED) before the scrape.
    await new Promise((r) => setTimeout(r, 300));
    duringWatch = await scrape();
    await watch;
    families = await scrape();
  });

  test('apiserver_request_total: a STABLE counter with upstream labels, verbs and codes', () => {
    const f = families.get('apiserver_request_total');
    assert.equal(f?.type, 'counter');
    assert.match(f?.help ?? '', /^\[STABLE\] Counter of apiserver requests broken out for each verb, dry run value, group/);
    const base = { group: '', version: 'v1', resource: 'configmaps', subresource: '', component: 'apiserver' };
    const one = (labels: Record<string, string>) => samplesOf(families, 'apiserver_request_total', { ...base, ...labels });
    assert.equal(one({ verb: 'POST', dry_run: '', scope: 'resource', code: '201' })[0]?.value, 1);
    assert.equal(one({ verb: 'POST', dry_run: 'All', scope: 'resource', code: '201' })[0]?.value, 1);
    assert.equal(one({ verb: 'GET', scope: 'resource', code: '200' })[0]?.value, 1);
    assert.equal(one({ verb: 'GET', scope: 'resource', code: '404' })[0]?.value, 1);
    assert.equal(one({ verb: 'LIST', scope: 'namespace', code: '200' })[0]?.value, 1);
    assert.equal(one({ verb: 'WATCH', scope: 'namespace', code: '200' })[0]?.value, 1);
    assert.deepEqual(Object.keys(f?.samples[0].labels ?? {}).sort(), [
      'code',
      'component',
      'dry_run',
      'group',
      'resource',
      'scope',
      'subresource',
      'verb',
      'version',
    ]);
  });

  test("apiserver_request_duration_seconds: a STABLE histogram with upstream's buckets", () => {
    const f = families.get('apiserver_request_duration_seconds');
    assert.equal(f?.type, 'histogram');
    assert.match(f?.help ?? '', /^\[STABLE\] Response latency distribution in seconds/);
    const buckets = samplesOf(families, 'apiserver_request_duration_seconds', { verb: 'GET', resource: 'configmaps' }, '_bucket').map((s) => s.labels.le);
    assert.deepEqual(buckets, [
      '0.05',
      '0.1',
      '0.2',
      '0.4',
      '0.6',
      '0.8',
      '1',
      '1.25',
      '1.5',
      '2',
      '3',
      '4',
      '5',
      '6',
      '8',
      '10',
      '15',
      '20',
      '30',
      '45',
      '60',
      '+Inf',
    ]);
    assert.equal(samplesOf(families, 'apiserver_request_duration_seconds', { verb: 'GET', resource: 'configmaps' }, '_count')[0]?.value, 2);
  });

  test('apiserver_response_sizes: reads only, in 1 KB to 1 GB buckets', () => {
    assert.match(families.get('apiserver_response_sizes')?.help ?? '', /^\[STABLE\] Response size distribution in bytes/);
    const get = samplesOf(families, 'apiserver_response_sizes', { verb: 'GET', resource: 'configmaps' }, '_sum');
    assert.ok((get[0]?.value ?? 0) > 100, 'the GET bodies are counted');
    assert.deepEqual(samplesOf(families, 'apiserver_response_sizes', { verb: 'POST' }, '_count'), []);
    const les = samplesOf(families, 'apiserver_response_sizes', { verb: 'LIST', resource: 'configmaps', scope: 'namespace' }, '_bucket').map(
      (s) => s.labels.le,
    );
    assert.deepEqual(les, ['1000', '10000', '100000', '1e+06', '1e+07', '1e+08', '1e+09', '+Inf']);
  });

  test('long-running requests and watch events: the open watch is counted, then not', () => {
    const watchLabels = { verb: 'WATCH', resource: 'configmaps', scope: 'namespace' };
    assert.equal(samplesOf(duringWatch, 'apiserver_longrunning_requests', watchLabels)[0]?.value, 1);
    assert.equal(samplesOf(families, 'apiserver_longrunning_requests', watchLabels)[0]?.value, 0);
    const events = samplesOf(families, 'apiserver_watch_events_total', { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.ok((events[0]?.value ?? 0) >= 1, 'the initial ADDED event was counted');
    // Deprecated in 1.23: hidden in the served release.
    assert.equal(families.has('apiserver_registered_watchers'), false);
  });

  test('storage: objects per resource and every storage operation timed by type', () => {
    assert.match(families.get('apiserver_storage_objects')?.help ?? '', /^\[STABLE\] Number of stored objects/);
    assert.ok((samplesOf(families, 'apiserver_storage_objects', { resource: 'configmaps' })[0]?.value ?? 0) >= 1);
    assert.ok((samplesOf(families, 'apiserver_storage_objects', { resource: 'clusterroles.rbac.authorization.orch.io' })[0]?.value ?? 0) > 10);
    const creates = (f: Map<string, Family>) =>
      samplesOf(f, 'etcd_request_duration_seconds', { operation: 'create', type: '*core.ConfigMap' }, '_count')[0]?.value ?? 0;
    assert.equal(creates(families) - creates(atStart), 1, 'the dry run stored nothing');
    assert.ok(samplesOf(families, 'etcd_request_duration_seconds', { operation: 'create', type: '*rbac.ClusterRole' }, '_count').length > 0);
  });

  test('in-flight, audit and process metrics are registered', () => {
    assert.equal(families.get('apiserver_current_inflight_requests')?.type, 'gauge');
    assert.deepEqual(
      samplesOf(families, 'apiserver_current_inflight_requests')
        .map((s) => s.labels.request_kind)
        .sort(),
      ['mutating', 'readOnly'],
    );
    assert.equal(samplesOf(families, 'apiserver_audit_event_total')[0]?.value, 0);
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_start_time_seconds', 'process_open_fds', 'process_max_fds']) {
      const f = families.get(name);
      assert.ok(f && f.samples[0].value > 0, `${name} has a value`);
      assert.doesNotMatch(f.help, /^\[/, 'a raw collector: no stability level');
    }
  });
});

test('/metrics is authorized as a non-resource path: anonymous 403, a system:monitoring member 200', async () => {
  const anonymous = await request(cluster, 'GET', '/metrics', { anonymous: true });
  assert.equal(anonymous.status, 403);
  assert.equal(anonymous.json?.message, 'forbidden: User "system:anonymous" cannot get path "/metrics"');
  const paths = pkiPaths(join(cluster.dataDir, 'pki'));
  const ca = { cert: await readFile(paths.caCert, 'utf8'), key: await readFile(paths.caKey, 'utf8') };
  const plain = await issueClientCertificate(ca.cert, ca.key, 'someone', []);
  assert.equal((await request(cluster, 'GET', '/metrics', { identity: plain })).status, 403);
  const monitor = await issueClientCertificate(ca.cert, ca.key, 'prometheus', ['system:monitoring']);
  const r = await request(cluster, 'GET', '/metrics', { identity: monitor });
  assert.equal(r.status, 200);
  assert.ok(parsePrometheusText(r.text).has('apiserver_request_total'));
});

test('--disabled-metrics drops a family; --show-hidden-metrics-for-version brings back the deprecated ones', async () => {
  const other = await startTestCluster({
    storageBackend: 'memory',
    metrics: { disabledMetrics: ['apiserver_request_total'], showHiddenMetricsForVersion: '1.24' },
  });
  try {
    const watch = request(other, 'GET', '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1');
    await new Promise((r) => setTimeout(r, 300));
    const families = await scrape(other);
    await watch;
    assert.equal(families.has('apiserver_request_total'), false);
    const watchers = families.get('apiserver_registered_watchers');
    assert.match(watchers?.help ?? '', /^\[ALPHA\] \(Deprecated since 1\.23\.0\) Number of currently registered watchers/);
    // The test's watch, and the controllers' own watches of ConfigMaps.
    assert.ok((samplesOf(families, 'apiserver_registered_watchers', { kind: 'ConfigMap' })[0]?.value ?? 0) >= 1);
  } finally {
    await other.close();
  }
});
