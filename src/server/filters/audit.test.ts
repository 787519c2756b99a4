import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ORCH_BRAND } from '../../machinery/brand.js';
import { forbidden } from '../../machinery/status.js';
import { AuditCounts, type AuditBackend } from '../audit/backend.js';
import { parsePolicy } from '../audit/policy.js';
import type { Request, Response } from '../http.js';
import { requestInfo } from '../request-info.js';
import { addAuditAnnotation, sourceIPs, withAudit, withAuditInit } from './audit.js';
import type { Handler, RequestState } from './chain.js';

const POLICY = parsePolicy(
  `apiVersion: audit.orch.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: [/healthz]
- level: Request
  users: [quiet]
  omitStages: [RequestReceived, ResponseComplete]
- level: Metadata
  userGroups: [no-received]
  omitStages: [RequestReceived]
- level: Metadata
`,
  ORCH_BRAND,
);

function collector(): AuditBackend & { seen: any[] } {
  const seen: any[] = [];
  return { seen, process: (_ev, json) => seen.push(JSON.parse(json())), shutdown: async () => {} };
}

function state(method: string, url: string, user = { name: 'jane', groups: ['devs'] }, headers: Record<string, string> = {}): RequestState {
  const [path, q = ''] = url.split('?');
  const query = new URLSearchParams(q);
  const res = {
    statusCode: 200,
    headers: new Map<string, unknown>(),
    setHeader(k: string, v: unknown) {
      this.headers.set(k.toLowerCase(), v);
    },
    writeHead(code: number) {
      this.statusCode = code;
      return this;
    },
  };
  const req = { method, url, headers, socket: { remoteAddress: '::ffff:10.0.0.9' } };
  return { req: req as unknown as Request, res: res as unknown as Response, path, query, info: requestInfo(method, path, query), user, received: 0 };
}

const run = (s: RequestState, handler: Handler) => {
  const backend = collector();
  const metrics = new AuditCounts();
  const filter = withAudit({ policy: POLICY, backend, brand: ORCH_BRAND, metrics, now: () => Date.UTC(2026, 10, 26) });
  return { backend, metrics, done: filter(s, handler) };
};

describe('the audit filter', () => {
  test('level None: the handler runs, nothing is recorded', async () => {
    const s = state('GET', '/healthz');
    const { backend, metrics, done } = run(s, async () => {});
    await done;
    assert.equal(backend.seen.length, 0);
    assert.equal(s.audit, undefined);
    assert.deepEqual([...metrics.levels], [['None', 1]], 'apiserver_audit_level_total counts None too');
  });

  test('a request: RequestReceived then ResponseComplete with the code written; annotations from authorization and others', async () => {
    const s = state('GET', '/api/v1/namespaces/default/pods/p?pretty=1', undefined, { 'user-agent': 'test/1', 'x-forwarded-for': '1.2.3.4, bogus' });
    const { backend, done } = run(s, async (st) => {
      st.authorizationDecision = 'allow';
      st.authorizationReason = 'because';
      addAuditAnnotation(st, 'orch.io/deprecated', 'true');
      addAuditAnnotation(st, 'orch.io/deprecated', 'false');
      st.res.writeHead(202);
    });
    await done;
    assert.deepEqual(
      backend.seen.map((e) => e.stage),
      ['RequestReceived', 'ResponseComplete'],
    );
    const [received, complete] = backend.seen;
    assert.equal(received.responseStatus, undefined);
    assert.deepEqual(complete.responseStatus, { metadata: {}, code: 202 });
    assert.equal(complete.verb, 'get');
    assert.equal(complete.requestURI, '/api/v1/namespaces/default/pods/p?pretty=1');
    assert.deepEqual(complete.sourceIPs, ['1.2.3.4', '10.0.0.9']);
    assert.equal(complete.userAgent, 'test/1');
    assert.deepEqual(complete.objectRef, { resource: 'pods', namespace: 'default', name: 'p', apiVersion: 'v1' });
    assert.deepEqual(complete.annotations, {
      'authorization.orch.io/decision': 'allow',
      'authorization.orch.io/reason': 'because',
      'orch.io/deprecated': 'true',
    });
  });

  test('omitStages: a rule can leave out any stage', async () => {
    const quiet = run(state('GET', '/version', { name: 'quiet', groups: [] }), async () => {});
    await quiet.done;
    assert.equal(quiet.backend.seen.length, 0);
    const noReceived = run(state('GET', '/version', { name: 'x', groups: ['no-received'] }), async () => {});
    await noReceived.done;
    assert.deepEqual(
      noReceived.backend.seen.map((e) => e.stage),
      ['ResponseComplete'],
    );
  });

  test('a watch: ResponseStarted when its headers go out, before it ends', async () => {
    const s = state('GET', '/api/v1/pods?watch=1');
    let startedBeforeEnd = false;
    const { backend, done } = run(s, async (st) => {
      // A turn later, as a real watch answers: `backend` is assigned by then.
      await null;
      st.res.writeHead(200);
      startedBeforeEnd = backend.seen.some((e) => e.stage === 'ResponseStarted');
    });
    await done;
    assert.ok(startedBeforeEnd);
    assert.deepEqual(
      backend.seen.map((e) => [e.stage, e.verb, e.responseStatus?.code]),
      [
        ['RequestReceived', 'watch', undefined],
        ['ResponseStarted', 'watch', 200],
        ['ResponseComplete', 'watch', 200],
      ],
    );
  });

  test('a refusal ends as ResponseComplete with its Status; an unexpected error is the Panic stage', async () => {
    const refused = state('DELETE', '/api/v1/namespaces/default/pods/p');
    const err = forbidden({ group: '', resource: 'pods' }, 'p', 'no');
    const a = run(refused, () => Promise.reject(err));
    await assert.rejects(a.done, err);
    const complete = a.backend.seen.at(-1);
    assert.equal(complete.stage, 'ResponseComplete');
    assert.equal(complete.responseStatus.code, 403);
    assert.equal(complete.responseStatus.reason, 'Forbidden');
    const b = run(state('GET', '/version'), () => {
      throw new Error('boom');
    });
    await assert.rejects(b.done, /boom/);
    assert.deepEqual(b.backend.seen.at(-1).responseStatus, {
      metadata: {},
      status: 'Failure',
      message: "APIServer panic'd: boom",
      reason: 'InternalError',
      code: 500,
    });
    assert.equal(b.backend.seen.at(-1).stage, 'Panic');
  });

  test('a user switched below the filter is the impersonated user', async () => {
    const { backend, done } = run(state('GET', '/version', { name: 'admin', groups: ['system:masters'] }), async (st) => {
      st.user = { name: 'bob', groups: ['system:authenticated'] };
    });
    await done;
    const complete = backend.seen.at(-1);
    assert.equal(complete.user.username, 'admin');
    assert.deepEqual(complete.impersonatedUser, { username: 'bob', groups: ['system:authenticated'] });
    assert.equal(backend.seen[0].impersonatedUser, undefined);
  });
});

describe('audit ID and source IPs', () => {
  test("Audit-Id: the client's Audit-ID, else a UUID", async () => {
    const given = state('GET', '/version', undefined, { 'audit-id': 'abc' });
    await withAuditInit(given, async () => {});
    assert.equal(given.auditID, 'abc');
    assert.equal((given.res as unknown as { headers: Map<string, unknown> }).headers.get('audit-id'), 'abc');
    const fresh = state('GET', '/version');
    await withAuditInit(fresh, async () => {});
    assert.match(String(fresh.auditID), /^[0-9a-f-]{36}$/);
  });

  test("upstream's SourceIPs: forwarded chain, X-Real-Ip once, the peer unless repeated", () => {
    const req = (headers: Record<string, string>, remoteAddress: string) => ({ headers, socket: { remoteAddress } }) as unknown as Request;
    assert.deepEqual(sourceIPs(req({ 'x-forwarded-for': '1.1.1.1,2.2.2.2', 'x-real-ip': '2.2.2.2' }, '2.2.2.2')), ['1.1.1.1', '2.2.2.2']);
    assert.deepEqual(sourceIPs(req({ 'x-real-ip': '3.3.3.3' }, '::1')), ['3.3.3.3', '::1']);
  });
});
