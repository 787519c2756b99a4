import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Attributes, Authorization } from '../../machinery/authorization.js';
import { ensureCertificates } from '../../pki/certificates.js';
import type { KubeconfigConnection } from '../../pki/kubeconfig-read.js';
import { alwaysAllow } from './always.js';
import { unionAuthorizer } from './authorizer.js';
import { type WebhookAuthorizerOptions, webhookAuthorizer } from './webhook.js';

let dir: string;
let server: https.Server;
let caPem: string;
let port: number;
const reviews: any[] = [];
/** What the test webhook answers, by the user asking. */
const answers = new Map<string, Record<string, unknown> | 'hang' | 500>();

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-authz-webhook-'));
  const pki = await ensureCertificates(join(dir, 'pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
  caPem = pki.caCertPem;
  server = https.createServer({ cert: pki.serverCertPem, key: pki.serverKeyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      reviews.push(review);
      const answer = answers.get(review.spec.user) ?? {};
      if (answer === 'hang') return;
      if (answer === 500) {
        res.statusCode = 500;
        res.end('{}');
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: answer }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server.closeAllConnections();
  server.close();
  await rm(dir, { recursive: true, force: true });
});

const connection = (): KubeconfigConnection => ({ server: `https://localhost:${port}/authorize`, caPem, insecureSkipTlsVerify: false });

function hook(over: Partial<WebhookAuthorizerOptions> = {}) {
  return webhookAuthorizer({
    connection: connection(),
    group: 'authorization.orch.io',
    version: 'v1beta1',
    authorizedTtlMs: 300_000,
    unauthorizedTtlMs: 30_000,
    backoff: { initialMs: 10, factor: 1.5, jitter: 0.2, steps: 2 },
    attemptTimeoutMs: 300,
    ...over,
  });
}

function attrs(user: string, over: Partial<Attributes> = {}): Attributes {
  return {
    user: { name: user, uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } },
    verb: 'get',
    isResourceRequest: true,
    path: '/api/v1/namespaces/ns1/pods/p1',
    namespace: 'ns1',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    subresource: '',
    name: 'p1',
    ...over,
  };
}

const isPromise = (v: unknown): v is Promise<Authorization> => typeof (v as { then?: unknown }).then === 'function';

test('v1beta1 sends the groups as `group`, v1 as `groups`; resource and non-resource attributes as upstream', async () => {
  answers.set('alice', { allowed: true });
  const beta = hook();
  await beta.authorize(attrs('alice'));
  const sent = reviews.at(-1);
  assert.equal(sent.apiVersion, 'authorization.orch.io/v1beta1');
  assert.equal(sent.kind, 'SubjectAccessReview');
  assert.deepEqual(sent.spec, {
    resourceAttributes: { namespace: 'ns1', verb: 'get', version: 'v1', resource: 'pods', name: 'p1' },
    user: 'alice',
    group: ['devs', 'system:authenticated'],
    extra: { scopes: ['a'] },
    uid: 'u-1',
  });
  const v1 = hook({ version: 'v1', group: 'authorization.k8s.io' });
  await v1.authorize(attrs('alice', { isResourceRequest: false, path: '/healthz', namespace: '', resource: '', name: '', apiVersion: '' }));
  const sentV1 = reviews.at(-1);
  assert.equal(sentV1.apiVersion, 'authorization.k8s.io/v1');
  assert.deepEqual(sentV1.spec.nonResourceAttributes, { path: '/healthz', verb: 'get' });
  assert.deepEqual(sentV1.spec.groups, ['devs', 'system:authenticated']);
  assert.equal(sentV1.spec.group, undefined);
  beta.close();
  v1.close();
});

test('allowed, denied, both, neither: upstream decisions and reasons', async () => {
  answers.set('allowed', { allowed: true, reason: 'ok' });
  answers.set('denied', { allowed: false, denied: true, reason: 'no way' });
  answers.set('both', { allowed: true, denied: true, reason: 'confused' });
  answers.set('neither', { allowed: false, reason: 'not mine', evaluationError: 'ignored' });
  const h = hook();
  assert.deepEqual(await h.authorize(attrs('allowed')), { decision: 'allow', reason: 'ok' });
  assert.deepEqual(await h.authorize(attrs('denied')), { decision: 'deny', reason: 'no way' });
  assert.deepEqual(await h.authorize(attrs('both')), {
    decision: 'deny',
    reason: 'confused',
    error: 'webhook subject access review returned both allow and deny response',
  });
  assert.deepEqual(await h.authorize(attrs('neither')), { decision: 'no-opinion', reason: 'not mine' });
  // A deny stops the chain: a later AlwaysAllow is not consulted.
  assert.equal((await unionAuthorizer([h, alwaysAllow]).authorize(attrs('denied'))).decision, 'deny');
  assert.equal((await unionAuthorizer([h, alwaysAllow]).authorize(attrs('neither'))).decision, 'allow');
  h.close();
});

test('answers are cached by spec: hits answer synchronously; allowed and other answers keep for their own TTL', async () => {
  let now = 1_000_000;
  answers.set('cached-yes', { allowed: true });
  answers.set('cached-no', { allowed: false });
  const h = hook({ now: () => now, authorizedTtlMs: 60_000, unauthorizedTtlMs: 5_000 });
  await h.authorize(attrs('cached-yes'));
  await h.authorize(attrs('cached-no'));
  const sent = reviews.length;
  const hit = h.authorize(attrs('cached-yes'));
  assert.ok(!isPromise(hit), 'a cache hit is answered without a promise');
  assert.equal((hit as Authorization).decision, 'allow');
  assert.ok(!isPromise(h.authorize(attrs('cached-no'))));
  // Another name is another spec: sent.
  await h.authorize(attrs('cached-yes', { name: 'p2' }));
  assert.equal(reviews.length, sent + 1);
  now += 10_000;
  assert.ok(!isPromise(h.authorize(attrs('cached-yes'))), 'allowed answers outlive the unauthorized TTL');
  assert.ok(isPromise(h.authorize(attrs('cached-no'))), 'the unauthorized TTL has passed');
  now += 60_000;
  await h.authorize(attrs('cached-yes'));
  assert.equal(reviews.length, sent + 3);
  h.close();
});

test('concurrent identical requests share one review', async () => {
  answers.set('burst', { allowed: true });
  const h = hook();
  const before = reviews.length;
  const all = await Promise.all([1, 2, 3, 4, 5].map(() => h.authorize(attrs('burst'))));
  assert.ok(all.every((a) => a.decision === 'allow'));
  assert.equal(reviews.length, before + 1);
  h.close();
});

test('a hanging, failing or unreachable webhook is no opinion with an error, within the retry bound', async () => {
  answers.set('hang', 'hang');
  answers.set('fail', 500);
  const h = hook();
  const started = Date.now();
  const hung = await h.authorize(attrs('hang'));
  assert.equal(hung.decision, 'no-opinion');
  assert.match(hung.error ?? '', /^Post "https:\/\/localhost:\d+\/authorize": webhook timed out$/);
  assert.ok(Date.now() - started < 2_000, 'two attempts of 300 ms and one short delay');
  const failed = await h.authorize(attrs('fail'));
  assert.equal(failed.decision, 'no-opinion');
  assert.match(failed.error ?? '', /the webhook answered 500$/);
  // Failures are not cached: the next request asks again.
  const before = reviews.length;
  await h.authorize(attrs('fail'));
  assert.equal(reviews.length, before + 2);
  h.close();
  const dead = hook({ connection: { server: 'https://127.0.0.1:1/authorize', caPem, insecureSkipTlsVerify: false } });
  const refused = await dead.authorize(attrs('x'));
  assert.equal(refused.decision, 'no-opinion');
  assert.match(refused.error ?? '', /ECONNREFUSED/);
  dead.close();
});

test('rulesFor cannot list what a webhook allows', () => {
  const h = hook();
  assert.deepEqual(h.rulesFor({ name: 'a', groups: [] }, 'ns'), {
    resourceRules: [],
    nonResourceRules: [],
    incomplete: true,
    error: 'webhook authorizer does not support user rule resolution',
  });
  h.close();
});
