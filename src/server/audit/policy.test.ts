import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Attributes } from '../../machinery/authorization.js';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import { loadPolicyFile, parsePolicy } from './policy.js';

const user = { name: 'jane', groups: ['devs', 'system:authenticated'] };

function resource(over: Partial<Attributes> = {}): Attributes {
  return {
    user,
    verb: 'get',
    isResourceRequest: true,
    path: '/api/v1/namespaces/default/pods/p',
    namespace: 'default',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    subresource: '',
    name: 'p',
    ...over,
  };
}

function nonResource(path: string, over: Partial<Attributes> = {}): Attributes {
  return { ...resource(), isResourceRequest: false, path, namespace: '', apiVersion: '', resource: '', name: '', verb: 'get', ...over };
}

const policy = (rules: string, extra = '') => parsePolicy(`apiVersion: audit.orch.io/v1\nkind: Policy\n${extra}rules:\n${rules}`, ORCH_BRAND);

describe('audit policy matching', () => {
  test('the first matching rule decides; nothing matching is None', () => {
    const p = policy(`- level: None
  users: [system:kube-proxy]
- level: RequestResponse
  resources: [{group: "", resources: [pods]}]
- level: Metadata
  verbs: [get]
`);
    assert.equal(p.evaluate(resource({ user: { name: 'system:kube-proxy', groups: [] } })).level, 'None');
    assert.equal(p.evaluate(resource()).level, 'RequestResponse');
    assert.equal(p.evaluate(resource({ resource: 'secrets' })).level, 'Metadata');
    assert.equal(p.evaluate(resource({ resource: 'secrets', verb: 'list' })).level, 'None');
  });

  test('each level is reported as written', () => {
    for (const level of ['None', 'Metadata', 'Request', 'RequestResponse']) {
      assert.equal(policy(`- level: ${level}\n`).evaluate(resource()).level, level);
    }
  });

  test('userGroups match any of the user groups', () => {
    const p = policy('- level: Request\n  userGroups: [admins, devs]\n');
    assert.equal(p.evaluate(resource()).level, 'Request');
    assert.equal(p.evaluate(resource({ user: { name: 'bob', groups: ['others'] } })).level, 'None');
  });

  test('resources: the group, `res/sub`, `*`, `*/sub`, `res/*`, and resourceNames', () => {
    const p = policy(`- level: Request
  resources: [{group: "", resources: [pods/log]}]
- level: Metadata
  resources: [{group: apps, resources: ["*/scale"]}]
- level: RequestResponse
  resources: [{group: "", resources: [configmaps], resourceNames: [leader]}]
- level: Metadata
  resources: [{group: batch, resources: ["jobs/*"]}]
- level: Request
  resources: [{group: rbac.authorization.orch.io}]
`);
    assert.equal(p.evaluate(resource({ subresource: 'log' })).level, 'Request');
    assert.equal(p.evaluate(resource()).level, 'None', 'pods is not pods/log');
    assert.equal(p.evaluate(resource({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale' })).level, 'Metadata');
    assert.equal(p.evaluate(resource({ apiGroup: 'apps', resource: 'deployments' })).level, 'None');
    assert.equal(p.evaluate(resource({ resource: 'configmaps', name: 'leader' })).level, 'RequestResponse');
    assert.equal(p.evaluate(resource({ resource: 'configmaps', name: 'other' })).level, 'None');
    assert.equal(p.evaluate(resource({ apiGroup: 'batch', resource: 'jobs', subresource: 'status' })).level, 'Metadata');
    // Upstream compares only the resource for `res/*`: the resource itself matches too.
    assert.equal(p.evaluate(resource({ apiGroup: 'batch', resource: 'jobs' })).level, 'Metadata');
    assert.equal(p.evaluate(resource({ apiGroup: 'batch', resource: 'cronjobs', subresource: 'status' })).level, 'None');
    assert.equal(p.evaluate(resource({ apiGroup: 'rbac.authorization.orch.io', resource: 'roles' })).level, 'Request');
    assert.equal(p.evaluate(resource({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale' })).level, 'Metadata');
    assert.equal(p.evaluate(nonResource('/api')).level, 'None', 'a resource rule never matches a non-resource request');
  });

  test('namespaces, with "" for cluster-scoped resources', () => {
    const p = policy('- level: Metadata\n  namespaces: [kube-system, ""]\n');
    assert.equal(p.evaluate(resource({ namespace: 'kube-system' })).level, 'Metadata');
    assert.equal(p.evaluate(resource({ resource: 'nodes', namespace: '' })).level, 'Metadata');
    assert.equal(p.evaluate(resource()).level, 'None');
  });

  test('nonResourceURLs: exact, trailing `*`, `*`; never resource requests', () => {
    const p = policy(`- level: Metadata
  nonResourceURLs: [/healthz*, /version]
- level: Request
  nonResourceURLs: ["*"]
  verbs: [post]
`);
    assert.equal(p.evaluate(nonResource('/healthz')).level, 'Metadata');
    assert.equal(p.evaluate(nonResource('/healthz/ping')).level, 'Metadata');
    assert.equal(p.evaluate(nonResource('/version')).level, 'Metadata');
    assert.equal(p.evaluate(nonResource('/version/')).level, 'None');
    assert.equal(p.evaluate(nonResource('/metrics', { verb: 'post' })).level, 'Request');
    assert.equal(p.evaluate(resource({ verb: 'post' })).level, 'None');
  });

  test('omitStages of the policy join each rule’s; omitManagedFields defaults to the policy’s', () => {
    const p = policy(
      `- level: Metadata
  users: [jane]
  omitStages: [ResponseStarted]
  omitManagedFields: false
- level: Request
`,
      'omitStages: [RequestReceived]\nomitManagedFields: true\n',
    );
    const jane = p.evaluate(resource());
    assert.deepEqual([...jane.omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
    assert.equal(jane.omitManagedFields, false);
    const other = p.evaluate(resource({ user: { name: 'bob', groups: [] } }));
    assert.deepEqual([...other.omitStages], ['RequestReceived']);
    assert.equal(other.omitManagedFields, true);
  });
});

describe('audit policy loading', () => {
  const invalid = (text: string) => {
    try {
      parsePolicy(text, ORCH_BRAND);
    } catch (e) {
      return (e as Error).message;
    }
    assert.fail('expected an error');
  };
  const head = 'apiVersion: audit.orch.io/v1\nkind: Policy\n';

  test("upstream's validation messages", () => {
    assert.equal(invalid(`${head}rules: []\n`), 'loaded illegal policy with 0 rules');
    assert.equal(invalid(`${head}rules:\n- users: [a]\n`), 'rules[0].level: Required value');
    assert.equal(
      invalid(`${head}rules:\n- level: Everything\n`),
      'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    );
    assert.equal(
      invalid(`${head}rules:\n- level: None\n  omitStages: [Started]\n`),
      'rules[0].omitStages[0]: Invalid value: "Started": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    );
    assert.equal(
      invalid(`${head}rules:\n- level: None\n  nonResourceURLs: [healthz, "/a*b"]\n`),
      `[rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character, rules[0].nonResourceURLs[1]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule]`,
    );
    assert.equal(
      invalid(`${head}rules:\n- level: None\n  nonResourceURLs: [/x]\n  namespaces: [a]\n`),
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs',
    );
    assert.equal(
      invalid(`${head}rules:\n- level: None\n  resources: [{group: "", resourceNames: [x]}]\n`),
      'rules[0].resources.resourceNames: Invalid value: []string{"x"}: using resourceNames requires at least one resource',
    );
  });

  test('only the v1 Policy of the brand is read (v1beta1 and v1alpha1 went in 1.24)', () => {
    assert.match(
      invalid('apiVersion: audit.orch.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n'),
      /^failed decoding: no kind "Policy" is registered for version "audit.orch.io\/v1beta1"/,
    );
    assert.match(invalid('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None}]\n'), /^failed decoding/);
    assert.match(invalid('rules: [{level: None}]\n'), /^failed decoding: Object 'Kind' is missing/);
    assert.match(
      invalid(`${head}rules:\n- level: None\n  users: jane\n`),
      /^failed decoding: json: cannot unmarshal string into Go struct field PolicyRule.rules.users of type \[\]string/,
    );
    assert.equal(
      parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Metadata}]\n', KUBERNETES_BRAND).evaluate(resource()).level,
      'Metadata',
    );
  });

  test('a file: its path in the error, JSON accepted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audit-policy-'));
    try {
      const bad = join(dir, 'bad.yaml');
      await writeFile(bad, `${head}rules: []\n`);
      assert.throws(() => loadPolicyFile(bad, ORCH_BRAND), { message: `loading audit policy file: loaded illegal policy with 0 rules: from file ${bad}` });
      assert.throws(() => loadPolicyFile(join(dir, 'missing.yaml'), ORCH_BRAND), /^Error: loading audit policy file: failed to read file path/);
      const json = join(dir, 'p.json');
      await writeFile(json, JSON.stringify({ apiVersion: 'audit.orch.io/v1', kind: 'Policy', rules: [{ level: 'Request' }] }));
      assert.equal(loadPolicyFile(json, ORCH_BRAND).evaluate(resource()).level, 'Request');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
