/**
 * apps/v1 defaulting and validation through HTTP, as upstream 1.25: Deployments, ReplicaSets,
 * StatefulSets, DaemonSets and ControllerRevisions answer 422 Invalid with upstream's causes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterClient, MERGE } from './helpers/cluster-client.js';
import { assertInvalid, assertInvalidExactly, assertOk } from './helpers/invalid.js';

const NS = 'apps-v';
const APPS = `/apis/apps/v1/namespaces/${NS}`;

const call = clusterClient({}, NS);

const LABELS = { app: 'web' };
const SELECTOR_MISMATCH = 'Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`';

function template(extraSpec: Record<string, unknown> = {}): Record<string, unknown> {
  return { metadata: { labels: LABELS }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...extraSpec } };
}

function workload(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return { metadata: { name }, spec: { selector: { matchLabels: LABELS }, template: template(), ...spec } };
}

describe('Deployment', () => {
  it('is defaulted as apps/v1 (1 replica, RollingUpdate 25%/25%, 10 revisions, 600 s deadline, pod defaults)', async () => {
    const d = assertOk(await call('POST', `${APPS}/deployments`, workload('defaults')), 201);
    assert.equal(d.spec.replicas, 1);
    assert.deepEqual(d.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    assert.equal(d.spec.revisionHistoryLimit, 10);
    assert.equal(d.spec.progressDeadlineSeconds, 600);
    assert.equal(d.spec.template.spec.restartPolicy, 'Always');
    assert.equal(d.spec.template.spec.dnsPolicy, 'ClusterFirst');
    assert.deepEqual(d.status, {});
    assert.equal(d.metadata.generation, 1);
  });

  it('requires a selector, which must match the template labels', async () => {
    const r = await call('POST', `${APPS}/deployments`, { metadata: { name: 'nosel' }, spec: { template: template() } });
    const body = assertInvalidExactly(r, 'Deployment', [
      ['spec.selector', 'Required value'],
      ['spec.template.metadata.labels', SELECTOR_MISMATCH],
    ]);
    assert.equal(
      body.message,
      'Deployment.apps "nosel" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`]',
    );
    const other = await call('POST', `${APPS}/deployments`, workload('other', { selector: { matchLabels: { app: 'db' } } }));
    assertInvalidExactly(other, 'Deployment', [['spec.template.metadata.labels', SELECTOR_MISMATCH]]);
  });

  it('rejects an empty or malformed selector', async () => {
    const empty = await call('POST', `${APPS}/deployments`, workload('empty', { selector: {} }));
    assertInvalid(empty, 'Deployment', [
      [
        'spec.selector',
        'Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    ]);
    const bad = await call(
      'POST',
      `${APPS}/deployments`,
      workload('badop', { selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['web'] }] } }),
    );
    assertInvalid(bad, 'Deployment', [['spec.selector.matchExpressions[0].operator', 'Invalid value: "Near": not a valid selector operator']]);
  });

  it('keeps pods restarting Always, without a deadline', async () => {
    const r = await call('POST', `${APPS}/deployments`, workload('never', { template: template({ restartPolicy: 'Never', activeDeadlineSeconds: 5 }) }));
    assertInvalid(r, 'Deployment', [
      ['spec.template.spec.restartPolicy', 'Unsupported value: "Never": supported values: "Always"'],
      ['spec.template.spec.activeDeadlineSeconds', 'Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported'],
    ]);
  });

  it('validates the pod template with the pod rules', async () => {
    const r = await call('POST', `${APPS}/deployments`, workload('nocontainers', { template: { metadata: { labels: LABELS }, spec: {} } }));
    assertInvalid(r, 'Deployment', [['spec.template.spec.containers', 'Required value']]);
  });

  it('checks the strategy and counts', async () => {
    const recreate = await call('POST', `${APPS}/deployments`, workload('recreate', { strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }));
    assertInvalidExactly(recreate, 'Deployment', [['spec.strategy.rollingUpdate', "Forbidden: may not be specified when strategy `type` is 'Recreate'"]]);
    const unknown = await call('POST', `${APPS}/deployments`, workload('unknown', { strategy: { type: 'BlueGreen' } }));
    assertInvalidExactly(unknown, 'Deployment', [
      [
        'spec.strategy',
        'Unsupported value: apps.DeploymentStrategy{Type:"BlueGreen", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
      ],
    ]);
    const zero = await call('POST', `${APPS}/deployments`, workload('zero', { strategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } } }));
    assertInvalidExactly(zero, 'Deployment', [
      ['spec.strategy.rollingUpdate.maxUnavailable', 'Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0'],
    ]);
    const percent = await call('POST', `${APPS}/deployments`, workload('pct', { strategy: { rollingUpdate: { maxUnavailable: '150%', maxSurge: '50' } } }));
    assertInvalidExactly(percent, 'Deployment', [
      [
        'spec.strategy.rollingUpdate.maxSurge',
        `Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"50"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
      ],
      ['spec.strategy.rollingUpdate.maxUnavailable', 'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%'],
    ]);
    const counts = await call(
      'POST',
      `${APPS}/deployments`,
      workload('counts', { replicas: -1, minReadySeconds: 30, progressDeadlineSeconds: 30, revisionHistoryLimit: -2 }),
    );
    assertInvalidExactly(counts, 'Deployment', [
      ['spec.replicas', 'Invalid value: -1: must be greater than or equal to 0'],
      ['spec.revisionHistoryLimit', 'Invalid value: -2: must be greater than or equal to 0'],
      ['spec.progressDeadlineSeconds', 'Invalid value: 30: must be greater than minReadySeconds'],
    ]);
  });

  it('keeps its selector in apps/v1 and counts annotation changes as a new generation', async () => {
    assertOk(await call('POST', `${APPS}/deployments`, workload('sel')), 201);
    const r = await call('PATCH', `${APPS}/deployments/sel`, { spec: { selector: { matchLabels: { app: 'web', tier: 'x' } } } }, MERGE);
    assertInvalid(r, 'Deployment', [
      [
        'spec.selector',
        'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
      ],
    ]);
    const annotated = assertOk(await call('PATCH', `${APPS}/deployments/sel`, { metadata: { annotations: { note: 'x' } } }, MERGE));
    assert.equal(annotated.metadata.generation, 2);
  });

  it('validates status writes with the status rules', async () => {
    assertOk(await call('POST', `${APPS}/deployments`, workload('st')), 201);
    const r = await call('PATCH', `${APPS}/deployments/st/status`, { status: { replicas: 1, readyReplicas: 2, availableReplicas: 1 } }, MERGE);
    assertInvalidExactly(r, 'Deployment', [['status.readyReplicas', 'Invalid value: 2: cannot be greater than status.replicas']]);
  });
});

describe('ReplicaSet', () => {
  it('defaults replicas and its status, and uses the ReplicaSet rules', async () => {
    const rs = assertOk(await call('POST', `${APPS}/replicasets`, workload('rs')), 201);
    assert.equal(rs.spec.replicas, 1);
    assert.deepEqual(rs.status, { replicas: 0 });
    const empty = await call('POST', `${APPS}/replicasets`, workload('rs-empty', { selector: { matchLabels: {} } }));
    assertInvalid(empty, 'ReplicaSet', [
      [
        'spec.selector',
        'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    ]);
    const sel = await call(
      'PATCH',
      `${APPS}/replicasets/rs`,
      { spec: { selector: { matchLabels: { app: 'other' } }, template: { metadata: { labels: { app: 'other' } } } } },
      MERGE,
    );
    assertInvalid(sel, 'ReplicaSet', [
      [
        'spec.selector',
        'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"other"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
      ],
    ]);
  });
});

describe('StatefulSet', () => {
  it('is defaulted as apps/v1, claim templates included', async () => {
    const claim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    const s = assertOk(await call('POST', `${APPS}/statefulsets`, workload('sts', { serviceName: 'web', volumeClaimTemplates: [claim] })), 201);
    assert.equal(s.spec.podManagementPolicy, 'OrderedReady');
    assert.deepEqual(s.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    assert.equal(s.spec.replicas, 1);
    assert.equal(s.spec.revisionHistoryLimit, 10);
    assert.equal(s.spec.volumeClaimTemplates[0].spec.volumeMode, 'Filesystem');
    assert.equal(s.spec.volumeClaimTemplates[0].status.phase, 'Pending');
    assert.deepEqual(s.status, { replicas: 0, availableReplicas: 0 });
  });

  it('checks its policies and its template labels', async () => {
    const r = await call(
      'POST',
      `${APPS}/statefulsets`,
      workload('sts-bad', {
        podManagementPolicy: 'Random',
        updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 2 } },
        template: template({ restartPolicy: 'OnFailure' }),
      }),
    );
    assertInvalidExactly(r, 'StatefulSet', [
      ['spec.podManagementPolicy', `Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`],
      [
        'spec.updateStrategy.rollingUpdate',
        "Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:2, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'",
      ],
      ['spec.template.spec.restartPolicy', 'Unsupported value: "OnFailure": supported values: "Always"'],
    ]);
    const empty = await call('POST', `${APPS}/statefulsets`, workload('sts-empty', { selector: {} }));
    assertInvalid(empty, 'StatefulSet', [
      [
        'spec.selector',
        'Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset',
      ],
    ]);
  });

  it('forbids updates outside replicas, template, updateStrategy, retention policy and minReadySeconds', async () => {
    assertOk(await call('POST', `${APPS}/statefulsets`, workload('sts-up', { serviceName: 'a' })), 201);
    assertOk(await call('PATCH', `${APPS}/statefulsets/sts-up`, { spec: { replicas: 3, minReadySeconds: 5 } }, MERGE));
    const r = await call('PATCH', `${APPS}/statefulsets/sts-up`, { spec: { serviceName: 'b' } }, MERGE);
    assertInvalidExactly(r, 'StatefulSet', [
      [
        'spec',
        "Forbidden: updates to statefulset spec for fields other than 'replicas', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ],
    ]);
  });
});

describe('DaemonSet', () => {
  it('is defaulted as apps/v1 and tracks its template generation', async () => {
    const ds = assertOk(await call('POST', `${APPS}/daemonsets`, workload('ds')), 201);
    assert.deepEqual(ds.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    assert.equal(ds.spec.revisionHistoryLimit, 10);
    assert.equal(ds.metadata.annotations['deprecated.daemonset.template.generation'], '1');
    assert.deepEqual(ds.status, { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    const changed = assertOk(await call('PATCH', `${APPS}/daemonsets/ds`, { spec: { template: { metadata: { labels: { app: 'web', v: '2' } } } } }, MERGE));
    assert.equal(changed.metadata.annotations['deprecated.daemonset.template.generation'], '2');
    assert.equal(changed.metadata.generation, 2);
  });

  it('needs a matching selector and exactly one of maxSurge and maxUnavailable', async () => {
    const r = await call('POST', `${APPS}/daemonsets`, { metadata: { name: 'ds-nosel' }, spec: { template: template() } });
    assertInvalidExactly(r, 'DaemonSet', [['spec.template.metadata.labels', SELECTOR_MISMATCH]]);
    const both = await call(
      'POST',
      `${APPS}/daemonsets`,
      workload('ds-both', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } } }),
    );
    assertInvalidExactly(both, 'DaemonSet', [
      [
        'spec.updateStrategy.rollingUpdate.maxSurge',
        'Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero',
      ],
    ]);
    const none = await call(
      'POST',
      `${APPS}/daemonsets`,
      workload('ds-none', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }),
    );
    assertInvalidExactly(none, 'DaemonSet', [['spec.updateStrategy.rollingUpdate.maxUnavailable', 'Required value: cannot be 0 when maxSurge is 0']]);
  });

  it('repeats the spec errors on update, as upstream does, and keeps the selector', async () => {
    assertOk(await call('POST', `${APPS}/daemonsets`, workload('ds-up')), 201);
    const r = await call('PATCH', `${APPS}/daemonsets/ds-up`, { spec: { minReadySeconds: -1 } }, MERGE);
    assertInvalidExactly(r, 'DaemonSet', [
      ['spec.minReadySeconds', 'Invalid value: -1: must be greater than or equal to 0'],
      ['spec.minReadySeconds', 'Invalid value: -1: must be greater than or equal to 0'],
    ]);
  });
});

describe('ControllerRevision', () => {
  it('requires data, a non-negative revision, and keeps its data', async () => {
    const r = await call('POST', `${APPS}/controllerrevisions`, { metadata: { name: 'cr' }, revision: -1 });
    assertInvalidExactly(r, 'ControllerRevision', [
      ['data', 'Required value: data is mandatory'],
      ['revision', 'Invalid value: -1: must be greater than or equal to 0'],
    ]);
    assertOk(await call('POST', `${APPS}/controllerrevisions`, { metadata: { name: 'cr' }, data: { a: 1 }, revision: 1 }), 201);
    const up = await call('PATCH', `${APPS}/controllerrevisions/cr`, { data: { a: 2 } }, MERGE);
    assertInvalid(up, 'ControllerRevision', [['data', 'Invalid value: {"a":2}: field is immutable']]);
  });
});
