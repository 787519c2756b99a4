/**
 * API Priority and Fairness end to end: the bootstrap FlowSchemas and PriorityLevelConfigurations
 * after start (and upstream's post-start hooks), classification named in the response headers
 * (admin exempt, a service account, anonymous, an ordinary user), a flood from one user rejected
 * with 429 while another user's request is served at once, the metrics, and the in-flight limits
 * taking over when APF is off (gate or flag).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { testUser, type TestUser } from './helpers/users.js';
import { parsePrometheusText, samplesOf } from './helpers/prometheus-text.js';

const FC = '/apis/flowcontrol.apiserver.orch.io/v1beta2';
const FS_HEADER = 'x-orch-pf-flowschema-uid';
const PL_HEADER = 'x-orch-pf-prioritylevel-uid';
/** A read that waits for a resourceVersion the server never reaches: about 3 s in its seat, then 504. */
const SLOW_GET = '/api/v1/namespaces/default?resourceVersion=999999999';
const TOO_MANY = 'Too many requests, please try again later.\n';

let cluster: TestCluster;
const uids = new Map<string, string>();

async function uidOf(kind: 'flowschemas' | 'prioritylevelconfigurations', name: string): Promise<string> {
  const key = `${kind}/${name}`;
  if (!uids.has(key)) {
    const r = await request(cluster, 'GET', `${FC}/${kind}/${name}`);
    assert.equal(r.status, 200, r.text);
    uids.set(key, r.json.metadata.uid);
  }
  return uids.get(key) as string;
}

async function assertClassified(r: { headers: Record<string, unknown> }, flowSchema: string, priorityLevel: string): Promise<void> {
  assert.equal(r.headers[FS_HEADER], await uidOf('flowschemas', flowSchema), `flow schema ${flowSchema}`);
  assert.equal(r.headers[PL_HEADER], await uidOf('prioritylevelconfigurations', priorityLevel), `priority level ${priorityLevel}`);
}

before(async () => {
  cluster = await startTestCluster({ storageBackend: 'memory', authorization: { modes: ['RBAC'] } });
});
after(() => cluster.close());

describe('bootstrap configuration', () => {
  test("upstream's mandatory and suggested objects exist, annotated for auto-update", async () => {
    const levels = await request(cluster, 'GET', `${FC}/prioritylevelconfigurations`);
    assert.equal(levels.status, 200);
    const byName = new Map<string, any>(levels.json.items.map((o: any) => [o.metadata.name, o]));
    assert.deepEqual([...byName.keys()].sort(), [
      'catch-all',
      'exempt',
      'global-default',
      'leader-election',
      'node-high',
      'system',
      'workload-high',
      'workload-low',
    ]);
    assert.deepEqual(byName.get('exempt').spec, { type: 'Exempt' });
    assert.deepEqual(byName.get('catch-all').spec.limited, { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } });
    assert.deepEqual(byName.get('workload-low').spec.limited, {
      assuredConcurrencyShares: 100,
      limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
    });
    assert.equal(byName.get('system').metadata.annotations['apf.orch.io/autoupdate-spec'], 'true');

    const schemas = await request(cluster, 'GET', `${FC}/flowschemas`);
    const names = schemas.json.items.map((o: any) => o.metadata.name).sort();
    for (const n of [
      'catch-all',
      'exempt',
      'global-default',
      'probes',
      'service-accounts',
      'system-leader-election',
      'system-nodes',
      'orch-system-service-accounts',
    ]) {
      assert.ok(names.includes(n), `${n} in ${names}`);
    }
    const exempt = schemas.json.items.find((o: any) => o.metadata.name === 'exempt');
    assert.equal(exempt.spec.matchingPrecedence, 1);
    assert.deepEqual(exempt.spec.rules[0].subjects, [{ kind: 'Group', group: { name: 'system:masters' } }]);
  });

  test('each FlowSchema says whether its priority level exists (Dangling)', async () => {
    const fs = await request(cluster, 'GET', `${FC}/flowschemas/global-default`);
    const dangling = fs.json.status?.conditions?.find((c: any) => c.type === 'Dangling');
    assert.equal(dangling?.status, 'False');
    assert.equal(dangling?.reason, 'Found');
    assert.equal(dangling?.message, 'This FlowSchema references the PriorityLevelConfiguration object named "global-default" and it exists');

    const orphan = await request(cluster, 'POST', `${FC}/flowschemas`, {
      body: {
        apiVersion: 'flowcontrol.apiserver.orch.io/v1beta2',
        kind: 'FlowSchema',
        metadata: { name: 'orphan' },
        spec: { priorityLevelConfiguration: { name: 'nowhere' }, matchingPrecedence: 7000, rules: [] },
      },
    });
    assert.equal(orphan.status, 201, orphan.text);
    let condition: any;
    for (let i = 0; i < 50 && condition?.status !== 'True'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      condition = (await request(cluster, 'GET', `${FC}/flowschemas/orphan`)).json.status?.conditions?.find((c: any) => c.type === 'Dangling');
    }
    assert.equal(condition?.status, 'True');
    assert.equal(condition?.reason, 'NotFound');
    assert.equal(condition?.message, 'This FlowSchema references the PriorityLevelConfiguration object named "nowhere" but there is no such object');
  });

  test("/readyz?verbose lists upstream's APF post-start hooks", async () => {
    const r = await request(cluster, 'GET', '/readyz?verbose');
    assert.equal(r.status, 200);
    for (const hook of ['priority-and-fairness-config-consumer', 'priority-and-fairness-filter', 'priority-and-fairness-config-producer']) {
      assert.match(r.text, new RegExp(`\\[\\+\\]poststarthook/${hook} ok`));
    }
  });
});

describe('classification', () => {
  test('admin (system:masters) is exempt', async () => {
    const r = await request(cluster, 'GET', '/api/v1/namespaces');
    assert.equal(r.status, 200);
    await assertClassified(r, 'exempt', 'exempt');
  });

  test('a service account goes to service-accounts (workload-low); one of the system namespace to workload-high', async () => {
    const robot = await testUser(cluster, 'system:serviceaccount:default:robot', ['system:serviceaccounts', 'system:serviceaccounts:default']);
    await assertClassified(await robot.request('GET', '/api/v1/namespaces/default/pods'), 'service-accounts', 'workload-low');
    const system = await testUser(cluster, 'system:serviceaccount:orch-system:helper', ['system:serviceaccounts', 'system:serviceaccounts:orch-system']);
    await assertClassified(await system.request('GET', '/api/v1/namespaces/default/pods'), 'orch-system-service-accounts', 'workload-high');
  });

  test('anonymous goes to global-default, and its probes are exempt', async () => {
    const r = await request(cluster, 'GET', '/version', { anonymous: true });
    assert.equal(r.status, 200);
    await assertClassified(r, 'global-default', 'global-default');
    const probe = await request(cluster, 'GET', '/readyz', { anonymous: true });
    await assertClassified(probe, 'probes', 'exempt');
  });

  test('an ordinary user goes to global-default (classified before authorization: even a 403 names it)', async () => {
    const alice = await testUser(cluster, 'alice');
    const r = await alice.request('GET', '/api/v1/namespaces/default/secrets');
    assert.equal(r.status, 403);
    await assertClassified(r, 'global-default', 'global-default');
  });
});

describe('isolation', () => {
  let flooder: TestUser;
  let bob: TestUser;
  before(async () => {
    flooder = await testUser(cluster, 'flooder');
    bob = await testUser(cluster, 'bob');
    const create = (path: string, body: object) => request(cluster, 'POST', path, { body });
    for (const user of ['flooder', 'bob']) {
      const r = await create('/apis/rbac.authorization.orch.io/v1/clusterrolebindings', {
        metadata: { name: `apf-${user}` },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: user }],
      });
      assert.equal(r.status, 201, r.text);
    }
    // A narrow level: shares 1 of the server's 600 seats is 3 seats, one queue of length 1.
    let r = await create(`${FC}/prioritylevelconfigurations`, {
      metadata: { name: 'apf-test-narrow' },
      spec: {
        type: 'Limited',
        limited: { assuredConcurrencyShares: 1, limitResponse: { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } } },
      },
    });
    assert.equal(r.status, 201, r.text);
    r = await create(`${FC}/flowschemas`, {
      metadata: { name: 'apf-test-flood' },
      spec: {
        priorityLevelConfiguration: { name: 'apf-test-narrow' },
        matchingPrecedence: 500,
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: [{ kind: 'User', user: { name: 'flooder' } }],
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
          },
        ],
      },
    });
    assert.equal(r.status, 201, r.text);
    // The controller digests the new objects on its next turn; the flooder's classification says when.
    for (let i = 0; i < 50; i++) {
      const probe = await flooder.request('GET', '/api/v1/namespaces/default');
      if (probe.headers[FS_HEADER] === (await uidOf('flowschemas', 'apf-test-flood'))) return;
      await new Promise((res) => setTimeout(res, 50));
    }
    assert.fail('the new FlowSchema was never used');
  });

  test("a flood from one user is rejected with 429 while another user's request is served at once", async () => {
    const flood = Array.from({ length: 8 }, () => flooder.request('GET', SLOW_GET));
    // 3 execute, 1 waits; the other 4 are answered at once.
    const rejected = await Promise.race([Promise.any(flood.map((p) => p.then((r) => (r.status === 429 ? r : Promise.reject(r))))), timeout(2000)]);
    assert.ok(rejected, 'a 429 within 2 s');
    assert.equal(rejected.headers['retry-after'], '1');
    assert.equal(rejected.text, TOO_MANY);
    await assertClassified(rejected, 'apf-test-flood', 'apf-test-narrow');

    const started = performance.now();
    const other = await bob.request('GET', '/api/v1/namespaces/default');
    const elapsed = performance.now() - started;
    assert.equal(other.status, 200);
    await assertClassified(other, 'global-default', 'global-default');
    assert.ok(elapsed < 1500, `bob waited ${elapsed} ms behind the flood`);

    const statuses = (await Promise.all(flood)).map((r) => r.status).sort();
    assert.deepEqual(statuses, [429, 429, 429, 429, 504, 504, 504, 504]);
  });

  test('the flowcontrol metrics count what happened', async () => {
    const r = await request(cluster, 'GET', '/metrics');
    const families = parsePrometheusText(r.text);
    const rejected = samplesOf(families, 'apiserver_flowcontrol_rejected_requests_total', {
      flow_schema: 'apf-test-flood',
      priority_level: 'apf-test-narrow',
      reason: 'queue-full',
    });
    assert.equal(rejected[0]?.value, 4);
    // Upstream's filter also counts its rejections as dropped requests.
    assert.ok((samplesOf(families, 'apiserver_dropped_requests_total', { request_kind: 'readOnly' })[0]?.value ?? 0) >= 4);
    const dispatched = samplesOf(families, 'apiserver_flowcontrol_dispatched_requests_total', {
      flow_schema: 'apf-test-flood',
      priority_level: 'apf-test-narrow',
    });
    assert.ok((dispatched[0]?.value ?? 0) >= 4);
    assert.ok(samplesOf(families, 'apiserver_flowcontrol_dispatched_requests_total', { flow_schema: 'exempt', priority_level: 'exempt' })[0]?.value > 0);
    assert.equal(samplesOf(families, 'apiserver_flowcontrol_current_inqueue_requests', { flow_schema: 'apf-test-flood' })[0]?.value, 0);
    assert.equal(samplesOf(families, 'apiserver_flowcontrol_current_executing_requests', { flow_schema: 'apf-test-flood' })[0]?.value, 0);
    const waited = samplesOf(families, 'apiserver_flowcontrol_request_wait_duration_seconds', { flow_schema: 'apf-test-flood', execute: 'true' }, '_count');
    assert.ok((waited[0]?.value ?? 0) >= 4);
    // ceil(600 × 20 / (5 + 30 + 40 + 10 + 40 + 100 + 20 + 1)) = 49 seats for global-default.
    assert.equal(samplesOf(families, 'apiserver_flowcontrol_request_concurrency_limit', { priority_level: 'global-default' })[0]?.value, 49);
    assert.equal(samplesOf(families, 'apiserver_flowcontrol_request_concurrency_limit', { priority_level: 'apf-test-narrow' })[0]?.value, 3);
  });
});

describe('--kubernetes-compat', () => {
  test("upstream's group, annotation, system namespace and X-Kubernetes-PF-* headers", async () => {
    const compat = await startTestCluster({ storageBackend: 'memory', kubernetesCompat: true });
    try {
      const fs = await request(compat, 'GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas/kube-system-service-accounts');
      assert.equal(fs.status, 200, fs.text);
      assert.equal(fs.json.metadata.annotations['apf.kubernetes.io/autoupdate-spec'], 'true');
      assert.deepEqual(fs.json.spec.rules[0].subjects, [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }]);
      const exempt = await request(compat, 'GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas/exempt');
      const r = await request(compat, 'GET', '/api/v1/namespaces');
      assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], exempt.json.metadata.uid);
      assert.equal(r.headers[FS_HEADER], undefined);
    } finally {
      await compat.close();
    }
  });
});

describe('APF off: the in-flight limits apply', () => {
  for (const [what, opts] of [
    ['--feature-gates=APIPriorityAndFairness=false', { featureGates: { APIPriorityAndFairness: false } }],
    ['--enable-priority-and-fairness=false', { enablePriorityAndFairness: false }],
  ] as const) {
    test(what, async () => {
      const off = await startTestCluster({
        storageBackend: 'memory',
        authorization: { modes: ['RBAC'] },
        inFlight: { maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 },
        ...opts,
      });
      try {
        const r = await request(off, 'GET', '/api/v1/namespaces');
        assert.equal(r.status, 200);
        assert.equal(r.headers[FS_HEADER], undefined);
        const ready = await request(off, 'GET', '/readyz?verbose');
        assert.doesNotMatch(ready.text, /priority-and-fairness/);
        await request(off, 'POST', '/apis/rbac.authorization.orch.io/v1/clusterrolebindings', {
          body: {
            metadata: { name: 'carol' },
            roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
            subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'carol' }],
          },
        });
        const carol = await testUser(off, 'carol');
        const statuses = (await Promise.all([carol.request('GET', SLOW_GET), carol.request('GET', SLOW_GET)])).map((x) => x.status).sort();
        assert.deepEqual(statuses, [429, 504]);
      } finally {
        await off.close();
      }
    });
  }
});

function timeout(ms: number): Promise<undefined> {
  return new Promise((r) => setTimeout(() => r(undefined), ms).unref());
}
