import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../framework/clock.js';
import { CycleState } from '../../framework/cycle-state.js';
import type { FrameworkHandle } from '../../framework/handle.js';
import { NodeInfo } from '../../framework/node-info.js';
import { Code } from '../../framework/status.js';
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';
import { SimulatedCluster } from '../../simulator/cluster.js';
import { ERR_REASON_BIND_CONFLICT, ERR_REASON_NODE_CONFLICT, ERR_REASON_PV_NOT_EXIST } from './binder.js';
import { ERR_REASON_UNBOUND_IMMEDIATE, resolveArgs, STATE_KEY, VolumeBinding } from './volume-binding.js';

const HOST = ORCH_NAMES.hostnameLabel;
const immediateSC: StorageClass = { metadata: { name: 'immediate-sc' }, provisioner: '', volumeBindingMode: 'Immediate' };
const waitSC: StorageClass = { metadata: { name: 'wait-sc' }, provisioner: '', volumeBindingMode: 'WaitForFirstConsumer' };
const provisionSC: StorageClass = {
  metadata: { name: 'provision-sc' },
  provisioner: 'csi.example.com',
  volumeBindingMode: 'WaitForFirstConsumer',
  allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['a'] }] }],
};

const makeNode = (name: string, labels: Record<string, string> = {}): Node => ({ metadata: { name, labels: { [HOST]: name, ...labels } } });
const makePV = (name: string, className: string, extra: Partial<PersistentVolume['spec']> = {}): PersistentVolume => ({
  metadata: { name },
  spec: { storageClassName: className, ...extra },
  status: { phase: 'Available' },
});
const affinity = (key: string, values: string[]) => ({ required: { nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values }] }] } });
const makePVC = (name: string, boundPV: string, className: string, extra: Partial<PersistentVolumeClaim['spec']> = {}): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'default', ...(boundPV ? { annotations: { 'pv.orch.io/bind-completed': 'true' } } : {}) },
  spec: { storageClassName: className, ...(boundPV ? { volumeName: boundPV } : {}), ...extra },
});
const makePod = (name: string, claims: string[]): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { containers: [], volumes: claims.map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } })) },
});

interface Case {
  name: string;
  pod: Pod;
  nodes: Node[];
  pvcs?: PersistentVolumeClaim[];
  pvs?: PersistentVolume[];
  preFilter?: [Code, string[]];
  filter?: ([Code, string[]] | undefined)[];
}

function setup(pvcs: PersistentVolumeClaim[] = [], pvs: PersistentVolume[] = []) {
  const clock = new FakeClock();
  const c = new SimulatedCluster(clock);
  for (const sc of [immediateSC, waitSC, provisionSC]) c.addObject(c.storageClasses, sc, false);
  for (const o of pvcs) c.addObject(c.persistentVolumeClaims, o, true);
  for (const o of pvs) c.addObject(c.persistentVolumes, o, false);
  const handle = { listers: c, names: ORCH_NAMES, clock, client: c } as unknown as FrameworkHandle;
  return { c, pl: new VolumeBinding(handle) };
}

test('VolumeBinding PreFilter and Filter (upstream TestVolumeBinding)', () => {
  const U = Code.UnschedulableAndUnresolvable;
  const cases: Case[] = [
    { name: 'pod has not pvcs', pod: makePod('pod-a', []), nodes: [makeNode('node-a')], filter: [undefined] },
    {
      name: 'all bound',
      pod: makePod('pod-a', ['pvc-a']),
      nodes: [makeNode('node-a')],
      pvcs: [makePVC('pvc-a', 'pv-a', waitSC.metadata.name ?? '')],
      pvs: [makePV('pv-a', 'wait-sc')],
      filter: [undefined],
    },
    { name: 'PVC does not exist', pod: makePod('pod-a', ['pvc-a']), nodes: [makeNode('node-a')], preFilter: [U, ['persistentvolumeclaim "pvc-a" not found']] },
    {
      name: 'Part of PVCs do not exist',
      pod: makePod('pod-a', ['pvc-a', 'pvc-b']),
      nodes: [makeNode('node-a')],
      pvcs: [makePVC('pvc-a', 'pv-a', 'wait-sc')],
      preFilter: [U, ['persistentvolumeclaim "pvc-b" not found']],
    },
    {
      name: 'immediate claims not bound',
      pod: makePod('pod-a', ['pvc-a']),
      nodes: [makeNode('node-a')],
      pvcs: [makePVC('pvc-a', '', 'immediate-sc')],
      preFilter: [U, [ERR_REASON_UNBOUND_IMMEDIATE]],
    },
    {
      name: 'unbound claims no matches',
      pod: makePod('pod-a', ['pvc-a']),
      nodes: [makeNode('node-a')],
      pvcs: [makePVC('pvc-a', '', 'wait-sc')],
      filter: [[U, [ERR_REASON_BIND_CONFLICT]]],
    },
    {
      name: 'bound and unbound unsatisfied',
      pod: makePod('pod-a', ['pvc-a', 'pvc-b']),
      nodes: [makeNode('node-a', { foo: 'barbar' })],
      pvcs: [makePVC('pvc-a', 'pv-a', 'wait-sc'), makePVC('pvc-b', '', 'wait-sc')],
      pvs: [makePV('pv-a', 'wait-sc', { nodeAffinity: affinity('foo', ['bar']) })],
      filter: [[U, [ERR_REASON_NODE_CONFLICT, ERR_REASON_BIND_CONFLICT]]],
    },
    { name: 'pvc not found', pod: makePod('pod-a', ['pvc-a']), nodes: [makeNode('node-a')], preFilter: [U, ['persistentvolumeclaim "pvc-a" not found']] },
    {
      name: 'pv not found',
      pod: makePod('pod-a', ['pvc-a']),
      nodes: [makeNode('node-a')],
      pvcs: [makePVC('pvc-a', 'pv-a', 'wait-sc')],
      filter: [[U, [ERR_REASON_PV_NOT_EXIST]]],
    },
    {
      name: 'local volumes: only nodes with a large enough PV fit',
      pod: makePod('pod-a', ['pvc-a']),
      nodes: [makeNode('node-a'), makeNode('node-b'), makeNode('node-c')],
      pvcs: [makePVC('pvc-a', '', 'wait-sc', { resources: { requests: { storage: '50Gi' } } })],
      pvs: [
        makePV('pv-a-0', 'wait-sc', { capacity: { storage: '200Gi' }, nodeAffinity: affinity(HOST, ['node-a']) }),
        makePV('pv-b-0', 'wait-sc', { capacity: { storage: '100Gi' }, nodeAffinity: affinity(HOST, ['node-b']) }),
        makePV('pv-c-0', 'wait-sc', { capacity: { storage: '10Gi' }, nodeAffinity: affinity(HOST, ['node-c']) }),
      ],
      filter: [undefined, undefined, [U, [ERR_REASON_BIND_CONFLICT]]],
    },
    {
      name: 'access modes and selector must match',
      pod: makePod('pod-a', ['pvc-a']),
      nodes: [makeNode('node-a'), makeNode('node-b')],
      pvcs: [makePVC('pvc-a', '', 'wait-sc', { accessModes: ['ReadWriteMany'], selector: { matchLabels: { tier: 'gold' } } })],
      pvs: [
        {
          ...makePV('pv-a', 'wait-sc', { accessModes: ['ReadWriteOnce'], nodeAffinity: affinity(HOST, ['node-a']) }),
          metadata: { name: 'pv-a', labels: { tier: 'gold' } },
        },
        {
          ...makePV('pv-b', 'wait-sc', { accessModes: ['ReadWriteMany', 'ReadWriteOnce'], nodeAffinity: affinity(HOST, ['node-b']) }),
          metadata: { name: 'pv-b', labels: { tier: 'gold' } },
        },
      ],
      filter: [[U, [ERR_REASON_BIND_CONFLICT]], undefined],
    },
    {
      name: 'dynamic provisioning limited by allowedTopologies',
      pod: makePod('pod-a', ['pvc-a']),
      nodes: [makeNode('node-a', { zone: 'a' }), makeNode('node-b', { zone: 'b' })],
      pvcs: [makePVC('pvc-a', '', 'provision-sc')],
      filter: [undefined, [U, [ERR_REASON_BIND_CONFLICT]]],
    },
    {
      name: 'claim pre-bound to a PV waits like an immediate one',
      pod: makePod('pod-a', ['pvc-a']),
      nodes: [makeNode('node-a')],
      pvcs: [makePVC('pvc-a', '', 'wait-sc', { volumeName: 'pv-a' })],
      pvs: [makePV('pv-a', 'wait-sc')],
      preFilter: [U, [ERR_REASON_UNBOUND_IMMEDIATE]],
    },
  ];
  for (const tc of cases) {
    const { pl } = setup(tc.pvcs, tc.pvs);
    const state = new CycleState();
    const pre = pl.preFilter(state, tc.pod);
    const [code, reasons] = tc.preFilter ?? [Code.Success, []];
    assert.equal(pre.code, code, `${tc.name}: preFilter`);
    assert.deepEqual(pre.reasons, reasons, `${tc.name}: preFilter`);
    if (!pre.isSuccess()) continue;
    tc.nodes.forEach((n, i) => {
      const s = pl.filter(state, tc.pod, new NodeInfo(n));
      const [fc, fr] = tc.filter?.[i] ?? [Code.Success, []];
      assert.equal(s.code, fc, `${tc.name}: filter ${n.metadata.name}`);
      assert.deepEqual(s.reasons, fr, `${tc.name}: filter ${n.metadata.name}`);
    });
  }
});

test('VolumeBinding Reserve assumes the PV, Unreserve gives it back, PreBind binds', async () => {
  const pvcs = [makePVC('pvc-a', '', 'wait-sc', { resources: { requests: { storage: '1Gi' } } })];
  const pvs = [makePV('pv-small', 'wait-sc', { capacity: { storage: '2Gi' } }), makePV('pv-big', 'wait-sc', { capacity: { storage: '9Gi' } })];
  const { c, pl } = setup(pvcs, pvs);
  c.addNode(makeNode('node-a'));
  const pod = c.addPod(makePod('pod-a', ['pvc-a']));
  const n = new NodeInfo(makeNode('node-a'));

  const state = new CycleState();
  assert.ok(pl.preFilter(state, pod).isSuccess());
  assert.ok(pl.filter(state, pod, n).isSuccess());
  assert.equal(state.read(STATE_KEY)?.podVolumesByNode.get('node-a')?.staticBindings[0].pv.metadata.name, 'pv-small', 'the smallest fit');
  assert.ok(pl.reserve(state, pod, 'node-a').isSuccess());
  assert.equal(pl.binder.pvCache.get('pv-small')?.spec.claimRef?.name, 'pvc-a', 'assumed');

  // Another cycle for another claim no longer sees pv-small as available.
  c.addObject(c.persistentVolumeClaims, makePVC('pvc-b', '', 'wait-sc'), true);
  const other = makePod('pod-b', ['pvc-b']);
  const s2 = new CycleState();
  pl.preFilter(s2, other);
  pl.filter(s2, other, n);
  assert.equal(s2.read(STATE_KEY)?.podVolumesByNode.get('node-a')?.staticBindings[0].pv.metadata.name, 'pv-big');

  pl.unreserve(state, pod, 'node-a');
  assert.equal(pl.binder.pvCache.get('pv-small')?.spec.claimRef, undefined, 'reverted');

  assert.ok(pl.reserve(state, pod, 'node-a').isSuccess());
  const bound = await pl.preBind(state, pod, 'node-a');
  assert.ok(bound.isSuccess(), bound.message());
  assert.equal(c.persistentVolumeClaims.get('pvc-a', 'default')?.spec.volumeName, 'pv-small');
  assert.equal(c.persistentVolumes.get('pv-small')?.spec.claimRef?.name, 'pvc-a');
});

test('VolumeBindingArgs', () => {
  assert.deepEqual(resolveArgs(undefined), { bindTimeoutSeconds: 600 });
  assert.deepEqual(resolveArgs({ bindTimeoutSeconds: 30 }), { bindTimeoutSeconds: 30 });
  assert.throws(() => resolveArgs({ bindTimeoutSeconds: -1 }), /should not be a negative value/);
});
