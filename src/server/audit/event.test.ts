import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type AuditEvent, eventJson, eventLegacyLine, microTime } from './event.js';

const received = Date.UTC(2026, 10, 26, 4, 30, 0) + 123.456;

function event(over: Partial<AuditEvent> = {}): AuditEvent {
  return {
    level: 'Metadata',
    auditID: '0b9f1c62-5d0e-4a3f-9a0f-3c1e7b2d4e5f',
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/default/pods?limit=500',
    verb: 'list',
    user: { name: 'jane', groups: ['devs', 'system:authenticated'], extra: { 'b-key': ['2'], 'a-key': ['1'] } },
    sourceIPs: ['127.0.0.1'],
    userAgent: 'kubectl/v1.31.0 (linux/amd64) kubernetes/abc',
    objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
    responseStatus: { code: 200 },
    requestReceivedTimestamp: received,
    stageTimestamp: received + 2.5,
    annotations: new Map([
      ['authorization.orch.io/reason', 'RBAC: allowed <by> "x"'],
      ['authorization.orch.io/decision', 'allow'],
    ]),
    ...over,
  };
}

test('MicroTime: six fraction digits in UTC', () => {
  assert.equal(microTime(received), '2026-11-26T04:30:00.123456Z');
  assert.equal(microTime(Date.UTC(2026, 0, 1)), '2026-01-01T00:00:00.000000Z');
});

test("the JSON line: upstream's field order, omitted empties, sorted maps, HTML-safe escapes", () => {
  assert.equal(
    eventJson(event(), 'audit.orch.io/v1'),
    '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"Metadata","auditID":"0b9f1c62-5d0e-4a3f-9a0f-3c1e7b2d4e5f","stage":"ResponseComplete",' +
      '"requestURI":"/api/v1/namespaces/default/pods?limit=500","verb":"list",' +
      '"user":{"username":"jane","groups":["devs","system:authenticated"],"extra":{"a-key":["1"],"b-key":["2"]}},' +
      '"sourceIPs":["127.0.0.1"],"userAgent":"kubectl/v1.31.0 (linux/amd64) kubernetes/abc",' +
      '"objectRef":{"resource":"pods","namespace":"default","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":200},' +
      '"requestReceivedTimestamp":"2026-11-26T04:30:00.123456Z","stageTimestamp":"2026-11-26T04:30:00.125956Z",' +
      '"annotations":{"authorization.orch.io/decision":"allow","authorization.orch.io/reason":"RBAC: allowed \\u003cby\\u003e \\"x\\""}}',
  );
});

test('impersonatedUser, a failure Status and the bodies sit where upstream puts them', () => {
  const line = eventJson(
    event({
      level: 'RequestResponse',
      impersonatedUser: { name: 'bob', groups: ['system:authenticated'] },
      responseStatus: { status: 'Failure', message: 'no', reason: 'Forbidden', details: { kind: 'pods' }, code: 403 },
      requestObject: '{"a":1}',
      responseObject: '{"b":2}',
      annotations: undefined,
    }),
    'audit.k8s.io/v1',
  );
  const keys = Object.keys(JSON.parse(line));
  assert.deepEqual(keys, [
    'kind',
    'apiVersion',
    'level',
    'auditID',
    'stage',
    'requestURI',
    'verb',
    'user',
    'impersonatedUser',
    'sourceIPs',
    'userAgent',
    'objectRef',
    'responseStatus',
    'requestObject',
    'responseObject',
    'requestReceivedTimestamp',
    'stageTimestamp',
  ]);
  assert.ok(line.includes('"responseStatus":{"metadata":{},"status":"Failure","message":"no","reason":"Forbidden","details":{"kind":"pods"},"code":403}'));
});

test("the legacy line: upstream's EventString", () => {
  assert.equal(
    eventLegacyLine(event({ stage: 'RequestReceived', responseStatus: undefined })),
    '2026-11-26T04:30:00.123456Z AUDIT: id="0b9f1c62-5d0e-4a3f-9a0f-3c1e7b2d4e5f" stage="RequestReceived" ip="127.0.0.1" method="list" ' +
      'user="jane" groups="\\"devs\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.31.0 (linux/amd64) kubernetes/abc" ' +
      'namespace="default" uri="/api/v1/namespaces/default/pods?limit=500" response="<deferred>"',
  );
  const imp = eventLegacyLine(event({ user: undefined, objectRef: undefined, sourceIPs: [], impersonatedUser: { name: 'bob', groups: ['g'] } }));
  assert.match(imp, / ip="<unknown>" method="list" user="<none>" groups="<none>" as="bob" asgroups="\\"g\\"" .* namespace="<none>" .* response="200"$/);
});
