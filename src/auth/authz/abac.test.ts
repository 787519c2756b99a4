import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Attributes, Authorization, Authorizer } from '../../machinery/authorization.js';
import { abacAuthorizer, abacGroups, parsePolicies, PolicyFileError, readPolicyFile } from './abac.js';

const GROUPS = abacGroups(['orch.io', 'kubernetes.io']);
const V1 = 'abac.authorization.orch.io/v1beta1';

function attrs(over: Partial<Attributes> & { user?: Attributes['user'] }): Attributes {
  return {
    user: { name: 'alice', groups: ['system:authenticated'] },
    verb: 'get',
    isResourceRequest: true,
    path: '/api/v1/namespaces/default/pods',
    namespace: 'default',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    subresource: '',
    name: '',
    ...over,
  };
}

const policy = (spec: Record<string, unknown>, apiVersion = V1) => JSON.stringify({ apiVersion, kind: 'Policy', spec });
/** ABAC answers from memory: its answers are never promises. */
const sync = (a: Authorizer) => ({ authorize: (at: Attributes) => a.authorize(at) as Authorization });
const authorizerOf = (...lines: string[]) => sync(abacAuthorizer(parsePolicies(lines.join('\n'), 'policy.jsonl', GROUPS)));

test('a matching policy allows; none matching is no opinion with "No policy matched."', () => {
  const a = authorizerOf(policy({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }));
  assert.deepEqual(a.authorize(attrs({})), { decision: 'allow', reason: '' });
  assert.deepEqual(a.authorize(attrs({ user: { name: 'bob', groups: [] } })), { decision: 'no-opinion', reason: 'No policy matched.' });
});

test('subjects: user or group, `*` for anyone; a policy with neither matches nobody', () => {
  const byGroup = authorizerOf(policy({ group: 'devs', namespace: '*', resource: '*', apiGroup: '*' }));
  assert.equal(byGroup.authorize(attrs({ user: { name: 'x', groups: ['devs'] } })).decision, 'allow');
  assert.equal(byGroup.authorize(attrs({ user: { name: 'x', groups: ['ops'] } })).decision, 'no-opinion');
  const anyone = authorizerOf(policy({ user: '*', namespace: '*', resource: '*', apiGroup: '*' }));
  assert.equal(anyone.authorize(attrs({ user: { name: 'system:anonymous', groups: [] } })).decision, 'allow');
  const nobody = authorizerOf(policy({ namespace: '*', resource: '*', apiGroup: '*', nonResourcePath: '*' }));
  assert.equal(nobody.authorize(attrs({})).decision, 'no-opinion');
  // Both given: both must match.
  const both = authorizerOf(policy({ user: 'alice', group: 'devs', namespace: '*', resource: '*', apiGroup: '*' }));
  assert.equal(both.authorize(attrs({})).decision, 'no-opinion');
  assert.equal(both.authorize(attrs({ user: { name: 'alice', groups: ['devs'] } })).decision, 'allow');
});

test('readonly policies allow get, list and watch only', () => {
  const a = authorizerOf(policy({ user: 'alice', readonly: true, namespace: '*', resource: '*', apiGroup: '*' }));
  for (const verb of ['get', 'list', 'watch']) assert.equal(a.authorize(attrs({ verb })).decision, 'allow', verb);
  for (const verb of ['create', 'update', 'patch', 'delete', 'deletecollection']) assert.equal(a.authorize(attrs({ verb })).decision, 'no-opinion', verb);
});

test('namespace, resource and API group each `*` or exact; cluster-scoped requests have namespace ""', () => {
  const a = authorizerOf(policy({ user: 'alice', namespace: 'projectCaribou', resource: 'pods', apiGroup: '' }));
  assert.equal(a.authorize(attrs({ namespace: 'projectCaribou' })).decision, 'allow');
  // The subresource is not looked at.
  assert.equal(a.authorize(attrs({ namespace: 'projectCaribou', subresource: 'log' })).decision, 'allow');
  assert.equal(a.authorize(attrs({ namespace: 'default' })).decision, 'no-opinion');
  assert.equal(a.authorize(attrs({ namespace: 'projectCaribou', resource: 'secrets' })).decision, 'no-opinion');
  assert.equal(a.authorize(attrs({ namespace: 'projectCaribou', apiGroup: 'apps' })).decision, 'no-opinion');
  const cluster = authorizerOf(policy({ user: 'alice', namespace: '', resource: 'nodes', apiGroup: '' }));
  assert.equal(cluster.authorize(attrs({ namespace: '', resource: 'nodes' })).decision, 'allow');
  // A resource policy never matches a non-resource request.
  assert.equal(
    authorizerOf(policy({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' })).authorize(attrs({ isResourceRequest: false, path: '/version' }))
      .decision,
    'no-opinion',
  );
});

test('nonResourcePath: `*`, exact, or a prefix ending in `*`', () => {
  const a = authorizerOf(policy({ user: 'alice', nonResourcePath: '/apis/*' }), policy({ user: 'alice', nonResourcePath: '/version' }));
  const path = (p: string) => a.authorize(attrs({ isResourceRequest: false, path: p, verb: 'get' })).decision;
  assert.equal(path('/version'), 'allow');
  assert.equal(path('/version/'), 'no-opinion');
  assert.equal(path('/apis/apps/v1'), 'allow');
  assert.equal(path('/api'), 'no-opinion');
  assert.equal(authorizerOf(policy({ user: 'alice', nonResourcePath: '*' })).authorize(attrs({ isResourceRequest: false, path: '/x' })).decision, 'allow');
});

test("blank and # lines are skipped; upstream and the brand's group both name a Policy", () => {
  const text = [
    '',
    '# a comment',
    '   # indented comment',
    '   ',
    policy({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }, 'abac.authorization.kubernetes.io/v1beta1'),
  ].join('\n');
  const policies = parsePolicies(`${text}\n`, 'f', GROUPS);
  assert.equal(policies.length, 1);
  assert.equal(policies[0].user, 'alice');
});

test('legacy unversioned lines are converted as upstream converts v0', () => {
  const [everyone, star, scoped] = parsePolicies(
    ['{"readonly": true}', '{"user":"*","resource":"pods"}', '{"user":"bob","namespace":"ns1"}'].join('\n'),
    'f',
    GROUPS,
  );
  // Neither user nor group: every authenticated user, everywhere, non-resource paths too.
  assert.deepEqual(everyone, { user: '', group: 'system:authenticated', readonly: true, apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*' });
  // `*` user: authenticated users; an unset namespace is every namespace; no non-resource paths with a resource.
  assert.deepEqual(star, { user: '', group: 'system:authenticated', readonly: false, apiGroup: '*', resource: 'pods', namespace: '*', nonResourcePath: '' });
  assert.deepEqual(scoped, { user: 'bob', group: '', readonly: false, apiGroup: '*', resource: '*', namespace: 'ns1', nonResourcePath: '' });
  const a = sync(abacAuthorizer([everyone]));
  assert.equal(a.authorize(attrs({ user: { name: 'x', groups: ['system:authenticated'] }, verb: 'list' })).decision, 'allow');
  assert.equal(a.authorize(attrs({ user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } })).decision, 'no-opinion');
});

test('a bad line stops with the file, the line number and the line', () => {
  const bad = (text: string): string => {
    try {
      parsePolicies(text, '/etc/orch/abac.jsonl', GROUPS);
    } catch (e) {
      assert.ok(e instanceof PolicyFileError);
      return e.message;
    }
    assert.fail('no error');
  };
  const ok = policy({ user: 'a', namespace: '*', resource: '*', apiGroup: '*' });
  const msg = bad([ok, '# comment', '{"apiVersion": "abac.authorization.orch.io/v1beta1", "kind": "Policy", "spec": {"user": "a",}}'].join('\n'));
  assert.match(msg, /^error reading policy file \/etc\/orch\/abac\.jsonl, line 3: \{"apiVersion".*\}: couldn't get version\/kind; json parse error: /);
  assert.ok(!msg.includes('\n'));
  assert.match(
    bad(`${ok}\n${policy({ user: 'a', readonly: 'yes' })}`),
    /line 2: .*: json: cannot unmarshal string into Go struct field Policy\.spec\.readonly of type bool$/,
  );
  assert.match(
    bad(policy({ user: 'a' }, 'abac.authorization.orch.io/v2')),
    /line 1: .*: no kind "Policy" is registered for version "abac.authorization.orch.io\/v2"$/,
  );
});

test("readPolicyFile: a missing file is one clear error; rulesFor lists the user's policies", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-abac-'));
  try {
    assert.throws(
      () => readPolicyFile(join(dir, 'missing.jsonl'), GROUPS),
      (e: unknown) => e instanceof PolicyFileError && e.message.startsWith(`error reading policy file ${join(dir, 'missing.jsonl')}: `),
    );
    const file = join(dir, 'p.jsonl');
    await writeFile(
      file,
      [
        policy({ user: 'alice', readonly: true, namespace: 'ns1', resource: 'pods', apiGroup: '' }),
        policy({ user: 'alice', namespace: '*', nonResourcePath: '/healthz' }),
        policy({ user: 'alice', namespace: 'other', resource: '*', apiGroup: '*' }),
        policy({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*' }),
      ].join('\n'),
    );
    const rules = abacAuthorizer(readPolicyFile(file, GROUPS)).rulesFor({ name: 'alice', groups: [] }, 'ns1');
    assert.deepEqual(rules, {
      resourceRules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/healthz'] }],
      incomplete: false,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
