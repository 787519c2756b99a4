/**
 * Admission webhooks end to end: HTTPS webhook servers the test runs on loopback (its own CA in
 * caBundle) are called by orch for matching writes: a mutating one adds a label (kubectl shows
 * it), a validating one refuses with upstream's message, a silent one refuses (Fail) or lets
 * through (Ignore) in bounded time, dry runs reach only hooks without side effects, selectors
 * pick what is sent, warnings reach the client; configurations are validated as upstream's.
 */
import assert from 'node:assert/strict';
import https from 'node:https';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureCertificates } from '../src/pki/certificates.js';
import { eventually, request } from './helpers/cluster.js';
import { kubectlWorkspace } from './helpers/kubectl.js';

const GROUP = 'admissionregistration.orch.io';
const MUTATING = `/apis/${GROUP}/v1/mutatingwebhookconfigurations`;
const VALIDATING = `/apis/${GROUP}/v1/validatingwebhookconfigurations`;

// Configmaps audited at Request level (patch annotations are kept only from there), the rest at Metadata.
const auditDir = mkdtempSync(join(tmpdir(), 'orch-admission-audit-'));
const auditPolicy = join(auditDir, 'policy.yaml');
const auditLog = join(auditDir, 'audit.log');
writeFileSync(
  auditPolicy,
  'apiVersion: audit.orch.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: Request\n  resources: [{group: "", resources: [configmaps]}]\n- level: Metadata\n',
);

/** The annotations of the ResponseComplete audit event of the create of configmap `name`, once logged. */
async function createAnnotations(name: string): Promise<Record<string, string>> {
  let found: { annotations?: Record<string, string> } | undefined;
  await eventually(async () => {
    const text = await readFile(auditLog, 'utf8').catch(() => '');
    found = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l))
      .find((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps' && e.objectRef?.name === name);
    return found !== undefined;
  });
  assert.ok(found, `no audit event for ${name}`);
  return found.annotations ?? {};
}

/** Every review the webhook server received, by path. */
const received: { path: string; review: any }[] = [];

function answer(path: string, review: any): Record<string, unknown> | undefined {
  const uid = review.request.uid;
  switch (path) {
    case '/add-label': {
      const labels = review.request.object.metadata.labels;
      const patch = labels
        ? [{ op: 'add', path: '/metadata/labels/added-by', value: 'webhook' }]
        : [{ op: 'add', path: '/metadata/labels', value: { 'added-by': 'webhook' } }];
      return {
        uid,
        allowed: true,
        patchType: 'JSONPatch',
        patch: Buffer.from(JSON.stringify(patch)).toString('base64'),
        warnings: ['labelled by the test webhook'],
        auditAnnotations: { labelled: 'added-by', 'not a key!': 'dropped' },
      };
    }
    case '/deny':
      return { uid, allowed: false, status: { code: 403, message: 'objects labelled scenario=deny are not welcome' } };
    case '/allow':
      return { uid, allowed: true };
    case '/silent':
      return undefined;
  }
  return { uid, allowed: true };
}

let webhook: https.Server;
let dir: string;
let caBundle: string;
let base: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-admission-webhooks-'));
  const pki = await ensureCertificates(join(dir, 'pki'), { hosts: ['localhost', 'hook.default.svc'], ips: ['127.0.0.1'] });
  caBundle = Buffer.from(pki.caCertPem).toString('base64');
  webhook = https.createServer({ cert: pki.serverCertPem, key: pki.serverKeyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push({ path, review });
      const response = answer(path, review);
      if (response === undefined) return; // never answers: the caller's timeout ends it
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  base = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}`;
});

after(async () => {
  webhook.closeAllConnections();
  webhook.close();
  await rm(dir, { recursive: true, force: true });
  await rm(auditDir, { recursive: true, force: true });
});

/** One webhook of a configuration: configmaps writes labelled scenario=<scenario> go to base+path. */
function hook(name: string, path: string, scenario: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    clientConfig: { url: `${base}${path}`, caBundle },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchLabels: { scenario } },
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

const configuration = (kind: string, name: string, webhooks: unknown[]) => ({ apiVersion: `${GROUP}/v1`, kind, metadata: { name }, webhooks });

const configMap = (name: string, labels: Record<string, string>, namespace = 'default') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, labels },
  data: { a: 'b' },
});

describe('admission webhooks', () => {
  const ws = kubectlWorkspace({
    storageBackend: 'memory',
    audit: {
      policyFile: auditPolicy,
      log: { path: auditLog, maxAgeDays: 0, maxBackups: 0, maxSizeMB: 0, format: 'json', mode: 'blocking', bufferSize: 10_000 },
    },
  });
  const kubectl = ws.kubectl('1.33');
  const call = (method: string, path: string, body?: unknown) => request(ws.cluster, method, path, body === undefined ? {} : { body: body as object });

  before(async () => {
    const created = [
      await call(
        'POST',
        MUTATING,
        configuration('MutatingWebhookConfiguration', 'test-mutating', [
          hook('add-label.test.orch.io', '/add-label', 'mutate'),
          hook('record-dry-run.test.orch.io', '/allow', 'dry-run', { sideEffects: 'NoneOnDryRun' }),
          hook('equivalent.test.orch.io', '/add-label', 'equivalent', {
            matchPolicy: 'Equivalent',
            rules: [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers'] }],
          }),
          hook('by-service.test.orch.io', '/add-label', 'service', {
            clientConfig: { service: { namespace: 'default', name: 'hook', path: '/add-label', port: Number(new URL(base).port) }, caBundle },
          }),
        ]),
      ),
      await call(
        'POST',
        VALIDATING,
        configuration('ValidatingWebhookConfiguration', 'test-validating', [
          hook('deny.test.orch.io', '/deny', 'deny'),
          hook('silent-fail.test.orch.io', '/silent', 'silent-fail', { timeoutSeconds: 1, failurePolicy: 'Fail' }),
          hook('silent-ignore.test.orch.io', '/silent', 'silent-ignore', { timeoutSeconds: 1, failurePolicy: 'Ignore' }),
          hook('protect.test.orch.io', '/deny', 'protect', {
            rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
          }),
          hook('strict-namespace.test.orch.io', '/deny', 'namespaced', {
            objectSelector: {},
            namespaceSelector: { matchLabels: { webhooks: 'strict' } },
            rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
          }),
        ]),
      ),
      // The service form: an ExternalName Service naming the loopback host (Endpoints may not be loopback).
      await call('POST', '/api/v1/namespaces/default/services', {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'hook' },
        spec: { type: 'ExternalName', externalName: 'localhost' },
      }),
      await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'strict', labels: { webhooks: 'strict' } } }),
    ];
    for (const r of created) assert.equal(r.status, 201, r.text);
  });

  it('a mutating webhook adds a label that kubectl create shows, and its warning reaches kubectl', async () => {
    const file = await ws.file('mutate.json', JSON.stringify(configMap('mutated', { scenario: 'mutate' })));
    const run = await kubectl.run(['create', '-f', file]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Warning: labelled by the test webhook/);
    const shown = await kubectl.ok(['get', 'configmap', 'mutated', '--show-labels', '--no-headers']);
    assert.match(shown, /added-by=webhook/);
    const sent = received.find((r) => r.path === '/add-label' && r.review.request.name === 'mutated');
    assert.ok(sent);
    assert.equal(sent.review.apiVersion, 'admission.orch.io/v1');
    assert.equal(sent.review.request.operation, 'CREATE');
    assert.deepEqual(sent.review.request.resource, { group: '', version: 'v1', resource: 'configmaps' });
    assert.equal(sent.review.request.namespace, 'default');
    assert.equal(sent.review.request.dryRun, false);
    // Upstream's audit annotations: the call, its patch (Request level) and the hook's own, under its name.
    const annotations = await createAnnotations('mutated');
    assert.equal(
      annotations['mutation.webhook.admission.orch.io/round_0_index_0'],
      '{"configuration":"test-mutating","webhook":"add-label.test.orch.io","mutated":true}',
    );
    assert.equal(
      annotations['patch.webhook.admission.orch.io/round_0_index_0'],
      '{"configuration":"test-mutating","webhook":"add-label.test.orch.io","patch":[{"op":"add","path":"/metadata/labels/added-by","value":"webhook"}],"patchType":"JSONPatch"}',
    );
    assert.equal(annotations['add-label.test.orch.io/labelled'], 'added-by');
    assert.equal(Object.keys(annotations).filter((k) => k.includes('not a key')).length, 0);
  });

  it('a create in a missing namespace is refused before any mutating webhook is called (NamespaceLifecycle first)', async () => {
    const r = await call('POST', '/api/v1/namespaces/nowhere/configmaps', configMap('homeless', { scenario: 'mutate' }, 'nowhere'));
    assert.equal(r.status, 404, r.text);
    assert.equal(r.json.message, 'namespaces "nowhere" not found');
    assert.equal(received.filter((x) => x.review.request.name === 'homeless').length, 0);
  });

  it('matchPolicy Equivalent: a v1 write reaches a hook that names v2 as a v2 object, and its patch lands in the v1 object', async () => {
    const hpa = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'eq', labels: { scenario: 'equivalent' } },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, maxReplicas: 3, targetCPUUtilizationPercentage: 70 },
    };
    const r = await call('POST', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', hpa);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.apiVersion, 'autoscaling/v1');
    assert.equal(r.json.metadata.labels['added-by'], 'webhook');
    assert.equal(r.json.spec.targetCPUUtilizationPercentage, 70);
    const sent = received.find((x) => x.path === '/add-label' && x.review.request.name === 'eq');
    assert.ok(sent);
    assert.deepEqual(sent.review.request.kind, { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' });
    assert.deepEqual(sent.review.request.resource, { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' });
    assert.deepEqual(sent.review.request.requestKind, { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' });
    assert.deepEqual(sent.review.request.requestResource, { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' });
    assert.equal(sent.review.request.object.apiVersion, 'autoscaling/v2');
    assert.deepEqual(sent.review.request.object.spec.metrics, [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
    ]);
  });

  it('a webhook by service is called through its ExternalName, verified as <name>.<namespace>.svc', async () => {
    const r = await call('POST', '/api/v1/namespaces/default/configmaps', configMap('via-service', { scenario: 'service' }));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.metadata.labels['added-by'], 'webhook');
    assert.deepEqual(r.headers.warning, '299 - "labelled by the test webhook"');
  });

  it('a validating webhook refuses with upstream message and its status code', async () => {
    const r = await call('POST', '/api/v1/namespaces/default/configmaps', configMap('denied', { scenario: 'deny' }));
    assert.equal(r.status, 403);
    assert.equal(r.json.message, 'admission webhook "deny.test.orch.io" denied the request: objects labelled scenario=deny are not welcome');
    assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/denied')).status, 404);
  });

  it('a DELETE reaches a hook with the deleted object as oldObject, and its denial keeps the object', async () => {
    assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', configMap('protected', { scenario: 'protect' }))).status, 201);
    const r = await call('DELETE', '/api/v1/namespaces/default/configmaps/protected');
    assert.equal(r.status, 403);
    assert.match(r.json.message, /^admission webhook "protect\.test\.orch\.io" denied the request: /);
    const sent = received.find((x) => x.review.request.operation === 'DELETE' && x.review.request.name === 'protected');
    assert.ok(sent);
    assert.equal(sent.review.request.object, null);
    assert.equal(sent.review.request.oldObject.metadata.name, 'protected');
    assert.equal(sent.review.request.options.kind, 'DeleteOptions');
    assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/protected')).status, 200);
  });

  it('objectSelector: an object without the label is not sent to the hook', async () => {
    const before = received.length;
    const r = await call('POST', '/api/v1/namespaces/default/configmaps', configMap('unlabelled', { scenario: 'none' }));
    assert.equal(r.status, 201);
    assert.equal(received.length, before);
  });

  it('a silent webhook with failurePolicy Fail refuses after its timeout', async () => {
    const start = Date.now();
    const r = await call('POST', '/api/v1/namespaces/default/configmaps', configMap('silent-fail', { scenario: 'silent-fail' }));
    const elapsed = Date.now() - start;
    assert.equal(r.status, 500);
    assert.equal(r.json.reason, 'InternalError');
    assert.match(
      r.json.message,
      /^Internal error occurred: failed calling webhook "silent-fail\.test\.orch\.io": failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/silent\?timeout=1s": context deadline exceeded$/,
    );
    assert.ok(elapsed >= 900 && elapsed < 5000, `${elapsed} ms`);
  });

  it('a silent webhook with failurePolicy Ignore lets the request through after its timeout', async () => {
    const start = Date.now();
    const r = await call('POST', '/api/v1/namespaces/default/configmaps', configMap('silent-ignore', { scenario: 'silent-ignore' }));
    assert.equal(r.status, 201, r.text);
    assert.ok(Date.now() - start < 5000);
    const annotations = await createAnnotations('silent-ignore');
    assert.equal(annotations['failed-open.validating.webhook.admission.orch.io/round_0_index_0'], 'silent-ignore.test.orch.io');
  });

  it('a dry run calls a NoneOnDryRun hook with dryRun true, and stores nothing', async () => {
    const r = await call('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', configMap('dry', { scenario: 'dry-run' }));
    assert.equal(r.status, 201, r.text);
    const sent = received.find((x) => x.path === '/allow' && x.review.request.name === 'dry');
    assert.ok(sent);
    assert.equal(sent.review.request.dryRun, true);
    assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/dry')).status, 404);
  });

  it('namespaceSelector: a hook selecting labelled namespaces sees only their requests', async () => {
    const secret = (namespace: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace }, stringData: { k: 'v' } });
    const strict = await call('POST', '/api/v1/namespaces/strict/secrets', secret('strict'));
    assert.equal(strict.status, 403);
    assert.match(strict.json.message, /^admission webhook "strict-namespace\.test\.orch\.io" denied the request: /);
    assert.equal((await call('POST', '/api/v1/namespaces/default/secrets', secret('default'))).status, 201);
  });

  it('configurations are validated as upstream validates them', async () => {
    const r = await call(
      'POST',
      VALIDATING,
      configuration('ValidatingWebhookConfiguration', 'invalid', [
        { name: 'nodots', clientConfig: { url: 'http://x' }, sideEffects: 'Some', timeoutSeconds: 31 },
        { name: 'nodots', clientConfig: {} },
      ]),
    );
    assert.equal(r.status, 422, r.text);
    const causes = r.json.details.causes.map((c: any) => `${c.field}: ${c.message}`);
    for (const expected of [
      'webhooks[0].name: Invalid value: "nodots": should be a domain with at least three segments separated by dots',
      'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
      'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      'webhooks[0].clientConfig.url: Unsupported value: "http": supported values: "https"',
      'webhooks[1].name: Duplicate value: "nodots"',
      'webhooks[1].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[1].clientConfig: Required value: exactly one of url or service is required',
    ]) {
      assert.ok(
        causes.some((c: string) => c === expected),
        `${expected}\n in ${causes.join('\n')}`,
      );
    }
  });

  it('stored configurations get upstream defaults', async () => {
    const r = await call('GET', `${VALIDATING}/test-validating`);
    const w = r.json.webhooks[0];
    assert.equal(w.failurePolicy, 'Fail');
    assert.equal(w.matchPolicy, 'Equivalent');
    assert.equal(w.timeoutSeconds, 10);
    assert.deepEqual(w.namespaceSelector, {});
    assert.equal(w.rules[0].scope, '*');
    const m = (await call('GET', `${MUTATING}/test-mutating`)).json.webhooks[0];
    assert.equal(m.reinvocationPolicy, 'Never');
  });
});
