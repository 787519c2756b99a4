/**
 * The API server's request log (upstream's httplog): nothing at the default verbosity, one
 * line per request at -v=3 in klog's text or JSON format, and no credential in any line.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { klog } from '../src/machinery/klog.js';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;
let lines: string[] = [];
const original = { stderr: klog.stderr, stdout: klog.stdout };

before(async () => {
  klog.stderr = (line) => lines.push(line);
  klog.stdout = (line) => lines.push(line);
  cluster = await startTestCluster({ storageBackend: 'memory' });
});
after(async () => {
  await cluster.close();
  klog.configure({});
  klog.stderr = original.stderr;
  klog.stdout = original.stdout;
});
beforeEach(() => {
  lines = [];
});

// The controllers talk to the server too: a test's lines are those carrying its own marker.
const httpLines = (marker = '') => lines.filter((l) => (l.includes('"HTTP"') || l.includes('"msg":"HTTP"')) && l.includes(marker));

test('at -v=2 requests are not logged', async () => {
  klog.configure({ v: 2 });
  assert.equal((await request(cluster, 'GET', '/api/v1/namespaces/default')).status, 200);
  assert.deepEqual(httpLines(), []);
});

test('at -v=3 each request is one httplog line: verb, URI, latency, user agent, audit ID, source, status', async () => {
  klog.configure({ v: 3 });
  await request(cluster, 'GET', '/api/v1/namespaces/default?pretty=false', { headers: { 'user-agent': 'kubectl/v1.25.0 (linux/amd64)' } });
  await request(cluster, 'GET', '/api/v1/namespaces/nope', { headers: { 'user-agent': 'kubectl/v1.25.0 (linux/amd64)' } });
  const [ok, missing] = httpLines('kubectl/v1.25.0');
  assert.match(
    ok,
    /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ http-log\.(?:ts|js):\d+\] "HTTP" verb="GET" URI="\/api\/v1\/namespaces\/default\?pretty=false" latency="[\d.]+(?:µs|ms|s)" userAgent="kubectl\/v1\.25\.0 \(linux\/amd64\)" audit-ID="[^"]*" srcIP="127\.0\.0\.1:\d+" resp=200\n$/,
  );
  assert.match(missing, / verb="GET" URI="\/api\/v1\/namespaces\/nope" .* resp=404\n$/);
});

test('--logging-format=json writes the same fields as one JSON object', async () => {
  klog.configure({ v: 3, format: 'json' });
  await request(cluster, 'GET', '/version', { headers: { 'user-agent': 'json-test' } });
  const [line] = httpLines('json-test');
  const rec = JSON.parse(line);
  assert.equal(rec.msg, 'HTTP');
  assert.equal(rec.v, 3);
  assert.equal(rec.verb, 'GET');
  assert.equal(rec.URI, '/version');
  assert.equal(rec.resp, 200);
  assert.match(rec.srcIP, /^127\.0\.0\.1:\d+$/);
});

test('no credential reaches the log: bearer tokens in headers or in the query', async () => {
  klog.configure({ v: 10 });
  const secret = 'abcdef.0123456789abcdef';
  const r = await request(cluster, 'GET', `/api/v1/namespaces?access_token=${secret}&watch=false`, {
    anonymous: true,
    headers: { authorization: `Bearer ${secret}` },
  });
  assert.equal(r.status, 401);
  const [line] = httpLines('access_token');
  assert.match(line, /URI="\/api\/v1\/namespaces\?access_token=\[redacted\]&watch=false" .* resp=401/);
  assert.equal(
    lines.some((l) => l.includes(secret)),
    false,
  );
});
