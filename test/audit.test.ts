/**
 * Auditing end to end: a policy file and a JSON log, real kubectl and HTTP requests, and the
 * events the log then holds (levels, stages, bodies, users, annotations), the `Audit-Id` header,
 * and a bad policy refusing start-up with upstream's error.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eventually, request, startTestCluster } from './helpers/cluster.js';
import { kubectlWorkspace } from './helpers/kubectl.js';
import { type TestUser, testUser } from './helpers/users.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-audit-'));
const policyFile = join(dir, 'policy.yaml');
const logPath = join(dir, 'logs', 'audit.log');
writeFileSync(
  policyFile,
  `apiVersion: audit.orch.io/v1
kind: Policy
omitManagedFields: true
rules:
- level: None
  nonResourceURLs: [/healthz*, /readyz*, /livez*, /openapi*, /api, /apis*]
- level: None
  users: [system:orch-scheduler]
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
- level: Request
  resources: [{group: "", resources: [secrets]}]
  omitStages: [RequestReceived]
- level: Metadata
`,
);

interface Event {
  level: string;
  auditID: string;
  stage: string;
  requestURI: string;
  verb: string;
  user: { username?: string; groups?: string[] };
  impersonatedUser?: { username: string; groups: string[] };
  userAgent?: string;
  sourceIPs?: string[];
  objectRef?: Record<string, string>;
  responseStatus?: { code: number; status?: string; reason?: string; message?: string };
  requestObject?: any;
  responseObject?: any;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

async function events(): Promise<Event[]> {
  const text = await readFile(logPath, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

/** The events that match, once `count` of them are in the log. */
async function waitFor(match: (e: Event) => boolean, count: number): Promise<Event[]> {
  let found: Event[] = [];
  await eventually(async () => {
    found = (await events()).filter(match);
    return found.length >= count;
  });
  assert.equal(found.length, count, `events: ${JSON.stringify(found)}`);
  return found;
}

after(() => rm(dir, { recursive: true, force: true }));

const MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

describe('audit log', () => {
  const ws = kubectlWorkspace({
    storageBackend: 'memory',
    controllers: false,
    authorization: { modes: ['RBAC'] },
    audit: { policyFile, log: { path: logPath, maxAgeDays: 0, maxBackups: 0, maxSizeMB: 0, format: 'json', mode: 'blocking', bufferSize: 10_000 } },
  });
  const kubectl = ws.kubectl('1.31');
  let jane: TestUser;
  before(async () => {
    jane = await testUser(ws.cluster, 'jane', ['devs']);
  });

  test('kubectl create at RequestResponse: both stages, the bodies, the decision', async () => {
    await kubectl.ok(['create', 'configmap', 'audited', '--from-literal=k=v']);
    const [complete] = await waitFor((e) => e.verb === 'create' && e.objectRef?.name === 'audited', 1);
    // The name comes from the body, read after RequestReceived: that stage names no object.
    const [received] = await waitFor((e) => e.auditID === complete.auditID && e.stage === 'RequestReceived', 1);
    assert.equal(received.objectRef?.name, undefined);
    assert.equal(received.stage, 'RequestReceived');
    assert.equal(complete.stage, 'ResponseComplete');
    assert.equal(received.auditID, complete.auditID);
    assert.equal(complete.level, 'RequestResponse');
    assert.equal(complete.requestURI.split('?')[0], '/api/v1/namespaces/default/configmaps');
    assert.equal(complete.user.username, 'admin');
    assert.ok(complete.user.groups?.includes('system:masters'));
    assert.match(complete.userAgent ?? '', /^kubectl/);
    assert.deepEqual(complete.sourceIPs, ['127.0.0.1']);
    assert.deepEqual(complete.objectRef, { resource: 'configmaps', namespace: 'default', name: 'audited', apiVersion: 'v1' });
    assert.deepEqual(complete.responseStatus, { metadata: {}, code: 201 });
    assert.deepEqual(complete.requestObject.data, { k: 'v' });
    assert.equal(complete.requestObject.metadata.uid, undefined, 'the request as sent, before the registry filled it in');
    assert.ok(complete.responseObject.metadata.uid);
    assert.equal(complete.responseObject.metadata.managedFields, undefined, 'omitManagedFields');
    assert.deepEqual(complete.annotations, { 'authorization.orch.io/decision': 'allow', 'authorization.orch.io/reason': '' });
    assert.equal(received.requestObject, undefined);
    assert.equal(received.annotations, undefined, 'authorization has not run at RequestReceived');
    assert.match(complete.requestReceivedTimestamp, MICRO);
    assert.match(complete.stageTimestamp, MICRO);
    assert.ok(complete.stageTimestamp >= complete.requestReceivedTimestamp);
  });

  test('a get records the object returned', async () => {
    await kubectl.ok(['get', 'configmap', 'audited', '-o', 'json']);
    const [, complete] = await waitFor((e) => e.verb === 'get' && e.objectRef?.name === 'audited', 2);
    assert.equal(complete.responseObject.data.k, 'v');
    assert.equal(complete.requestObject, undefined);
  });

  test('a watch: RequestReceived, ResponseStarted with the code, ResponseComplete', async () => {
    const res = await request(ws.cluster, 'GET', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1');
    assert.equal(res.status, 200);
    const id = res.headers['audit-id'];
    const stages = await waitFor((e) => e.auditID === id, 3);
    assert.deepEqual(
      stages.map((e) => e.stage),
      ['RequestReceived', 'ResponseStarted', 'ResponseComplete'],
    );
    assert.equal(stages[1].responseStatus?.code, 200);
    assert.equal(stages[2].verb, 'watch');
    assert.equal(stages[2].responseObject, undefined, 'watch streams are not recorded');
  });

  test('a denied request: 403 Status, forbid annotation, the omitted stage absent', async () => {
    const res = await jane.request('GET', '/api/v1/namespaces/default/secrets');
    assert.equal(res.status, 403);
    const [complete] = await waitFor((e) => e.auditID === res.headers['audit-id'], 1);
    assert.equal(complete.stage, 'ResponseComplete');
    assert.equal(complete.level, 'Request');
    assert.equal(complete.user.username, 'jane');
    assert.deepEqual(complete.user.groups, ['devs', 'system:authenticated']);
    assert.equal(complete.responseStatus?.code, 403);
    assert.equal(complete.responseStatus?.status, 'Failure');
    assert.equal(complete.responseStatus?.reason, 'Forbidden');
    assert.equal(complete.responseStatus?.message, res.json.message);
    assert.equal(complete.annotations?.['authorization.orch.io/decision'], 'forbid');
    assert.equal(complete.responseObject, undefined, 'Request level: no response body');
  });

  test('an impersonated request records the requester and the impersonated user', async () => {
    const res = await request(ws.cluster, 'GET', '/api/v1/namespaces/default/pods', { headers: { 'Impersonate-User': 'bob' } });
    assert.equal(res.status, 403, res.text);
    const [, complete] = await waitFor((e) => e.auditID === res.headers['audit-id'], 2);
    assert.equal(complete.level, 'Metadata');
    assert.equal(complete.user.username, 'admin');
    assert.deepEqual(complete.impersonatedUser, { username: 'bob', groups: ['system:authenticated'] });
    assert.equal(complete.annotations?.['authorization.orch.io/decision'], 'forbid');
    assert.equal(complete.requestObject, undefined);
  });

  test('a failed authentication: one ResponseStarted event, no user, the credentials tried', async () => {
    const res = await request(ws.cluster, 'GET', '/api/v1/namespaces/default/pods', { anonymous: true, headers: { Authorization: 'Bearer nonsense' } });
    assert.equal(res.status, 401);
    const [ev] = await waitFor((e) => e.auditID === res.headers['audit-id'], 1);
    assert.equal(ev.stage, 'ResponseStarted');
    assert.deepEqual(ev.user, {});
    assert.deepEqual(ev.responseStatus, { metadata: {}, message: 'Authentication failed, attempted: bearer', code: 401 });
    assert.equal(ev.objectRef?.resource, 'pods');
  });

  test('a request to a deprecated version carries the deprecated and removed-release annotations', async () => {
    const res = await request(ws.cluster, 'GET', '/apis/autoscaling/v2beta2/namespaces/default/horizontalpodautoscalers');
    assert.equal(res.status, 200, res.text);
    const [, complete] = await waitFor((e) => e.requestURI === '/apis/autoscaling/v2beta2/namespaces/default/horizontalpodautoscalers', 2);
    assert.equal(complete.annotations?.['orch.io/deprecated'], 'true');
    assert.equal(complete.annotations?.['orch.io/removed-release'], '1.26');
    const current = await request(ws.cluster, 'GET', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers');
    assert.equal(current.status, 200, current.text);
    const [, plain] = await waitFor((e) => e.requestURI === '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', 2);
    assert.equal(plain.annotations?.['orch.io/deprecated'], undefined);
  });

  test('Audit-Id on every response: a new UUID, or the Audit-ID the client sent', async () => {
    const version = await request(ws.cluster, 'GET', '/version');
    assert.match(String(version.headers['audit-id']), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const [metadata] = (await waitFor((e) => e.auditID === version.headers['audit-id'], 2)).slice(1);
    assert.equal(metadata.level, 'Metadata');
    assert.equal(metadata.objectRef, undefined);
    assert.equal(metadata.verb, 'get');
    const health = await request(ws.cluster, 'GET', '/healthz');
    assert.ok(health.headers['audit-id'], 'also when the policy records nothing');
    const anonymous = await request(ws.cluster, 'GET', '/api/v1/namespaces', { anonymous: true, headers: { 'Audit-ID': 'my-id' } });
    assert.equal(anonymous.headers['audit-id'], 'my-id');
    const missing = await request(ws.cluster, 'GET', '/nothing-here');
    assert.equal(missing.status, 404);
    assert.ok(missing.headers['audit-id']);
  });
});

test('a bad policy file stops start-up with upstream’s error', async () => {
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Loud\n');
  await assert.rejects(startTestCluster({ storageBackend: 'memory', controllers: false, audit: { policyFile: bad } }), {
    message: `loading audit policy file: rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${bad}`,
  });
});
