/**
 * The dispatchers without a network: rules matching (subresources, scope, matchPolicy), the dry-run
 * refusal of hooks with side effects (only v1beta1 configurations could hold them), and
 * reinvocation of IfNeeded hooks after a later hook's change.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ORCH_BRAND } from '../../machinery/brand.js';
import { EVERYTHING } from '../../machinery/label-selector.js';
import type { ResourceInfo } from '../../registry/resource-info.js';
import type { AdmissionAttributes } from '../admission.js';
import type { CallResult, WebhookCaller, WebhookTarget } from './caller.js';
import { mutatingWebhooks, type WebhookEnvironment } from './dispatcher.js';
import type { Hook, HookRule } from './hook.js';
import { matchedVersion } from './match.js';

const pods = { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true } as ResourceInfo;
const deployments = { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true } as ResourceInfo;

function attributes(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    resource: pods,
    namespace: 'default',
    name: 'p',
    subresource: '',
    object: { metadata: { name: 'p' } },
    ctx: { user: { name: 'u', groups: [] }, brand: ORCH_BRAND, now: new Date() },
    dryRun: false,
    ...over,
  };
}

function hook(name: string, over: Partial<Hook> = {}, rule: Partial<HookRule> = {}): Hook {
  return {
    uid: name,
    name,
    configuration: 'c',
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*', ...rule }],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: EVERYTHING,
    objectSelector: EVERYTHING,
    sideEffects: 'None',
    timeoutSeconds: 10,
    admissionReviewVersions: ['v1'],
    reinvocationPolicy: 'Never',
    clientConfig: { url: `https://hooks.example/${name}` },
    ...over,
  };
}

/** An environment whose caller answers with answer(hook path, review). */
function env(answer: (path: string, review: any) => Record<string, unknown>): { env: WebhookEnvironment; calls: string[] } {
  const calls: string[] = [];
  const caller = {
    async post(target: WebhookTarget, payload: string): Promise<CallResult> {
      const review = JSON.parse(payload);
      calls.push(target.url.pathname);
      return {
        body: {
          apiVersion: review.apiVersion,
          kind: 'AdmissionReview',
          response: { uid: review.request.uid, allowed: true, ...answer(target.url.pathname, review) },
        },
      };
    },
  } as unknown as WebhookCaller;
  return {
    calls,
    env: {
      caller,
      admissionGroup: 'admission.orch.io',
      served: () => ['v1', 'v1beta1'],
      resourceAt: () => undefined,
      namespaceLabels: async () => ({}),
      lookup: async () => undefined,
    },
  };
}

test('rules: `*` is every resource without subresource; `*/status` and `pods/*` reach subresources; scope', () => {
  const served = () => ['v1'];
  const status = attributes({ subresource: 'status' });
  assert.equal(matchedVersion(hook('a'), status, served), undefined);
  assert.notEqual(matchedVersion(hook('a', {}, { resources: ['*/status'] }), status, served), undefined);
  assert.notEqual(matchedVersion(hook('a', {}, { resources: ['pods/*'] }), status, served), undefined);
  assert.equal(matchedVersion(hook('a', {}, { resources: ['pods/*'] }), attributes(), served), undefined);
  assert.notEqual(matchedVersion(hook('a', {}, { resources: ['*/*'] }), status, served), undefined);
  assert.equal(matchedVersion(hook('a', {}, { scope: 'Cluster' }), attributes(), served), undefined);
  assert.notEqual(matchedVersion(hook('a', {}, { scope: 'Namespaced' }), attributes(), served), undefined);
  assert.equal(matchedVersion(hook('a', {}, { operations: ['UPDATE'] }), attributes(), served), undefined);
  assert.notEqual(matchedVersion(hook('a', {}, { apiGroups: ['apps'] }), attributes({ resource: deployments }), served), undefined);
});

test('matchPolicy: Exact needs the request version; Equivalent accepts another served version', () => {
  const served = () => ['v1', 'v1beta1'];
  const rule = { apiVersions: ['v1beta1'] };
  assert.equal(matchedVersion(hook('a', { matchPolicy: 'Exact' }, rule), attributes(), served), undefined);
  assert.equal(matchedVersion(hook('a', { matchPolicy: 'Equivalent' }, rule), attributes(), served), 'v1beta1');
});

test('a dry run refuses a matching hook with side effects (Unknown, Some) with upstream text, before any call', async () => {
  for (const sideEffects of ['Unknown', 'Some', '']) {
    const { env: e, calls } = env(() => ({}));
    const plugin = mutatingWebhooks(() => [hook('side.effects.test', { sideEffects, failurePolicy: 'Ignore' })], e);
    await assert.rejects(
      async () => plugin.admit(attributes({ dryRun: true })),
      (err: any) => {
        assert.equal(err.code, 400);
        assert.equal(err.message, 'admission webhook "side.effects.test" does not support dry run');
        return true;
      },
    );
    assert.deepEqual(calls, []);
  }
});

test('reinvocationPolicy IfNeeded: a hook runs once more after a later hook changed the object', async () => {
  const patch = (ops: unknown[]) => ({ patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });
  const { env: e, calls } = env((path) => (path === '/second' ? patch([{ op: 'add', path: '/metadata/labels', value: { second: 'yes' } }]) : {}));
  const plugin = mutatingWebhooks(() => [hook('first', { reinvocationPolicy: 'IfNeeded' }), hook('second', { reinvocationPolicy: 'IfNeeded' })], e);
  const a = attributes();
  await plugin.admit(a);
  assert.deepEqual(calls, ['/first', '/second', '/first']);
  assert.deepEqual((a.object.metadata as any).labels, { second: 'yes' });
});

test('a hook accepting only v1beta1 gets a v1beta1 review; its patch needs no patchType', async () => {
  let sentVersion = '';
  const { env: e } = env((_, review) => {
    sentVersion = review.apiVersion;
    return { patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { old: 'hook' } }])).toString('base64') };
  });
  const a = attributes();
  await mutatingWebhooks(() => [hook('old.hook.test', { admissionReviewVersions: ['v1beta1'] })], e).admit(a);
  assert.equal(sentVersion, 'admission.orch.io/v1beta1');
  assert.deepEqual((a.object.metadata as any).labels, { old: 'hook' });
});

test('an answer for another uid is a failed call: Fail refuses with upstream text, Ignore lets through', async () => {
  const { env: e } = env(() => ({ uid: 'someone-else' }));
  await assert.rejects(
    async () => mutatingWebhooks(() => [hook('wrong.uid.test')], e).admit(attributes()),
    (err: any) => {
      assert.equal(err.code, 500);
      assert.match(
        err.message,
        /^Internal error occurred: failed calling webhook "wrong\.uid\.test": received invalid webhook response: expected response\.uid="[0-9a-f-]+", got "someone-else"$/,
      );
      return true;
    },
  );
  await mutatingWebhooks(() => [hook('wrong.uid.test', { failurePolicy: 'Ignore' })], e).admit(attributes());
});
