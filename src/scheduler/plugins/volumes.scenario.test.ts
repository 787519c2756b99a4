import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeSchedulerConfiguration } from '../config/types.js';
import type { Node, Pod } from '../framework/types.js';
import { createSimulation } from '../simulator/simulation.js';
import { IN_TREE_REGISTRY } from './registry.js';

// The volume plugins at their default extension points, without the rest of the default set.
const CONFIG: KubeSchedulerConfiguration = {
  profiles: [
    {
      schedulerName: 'default-scheduler',
      plugins: {
        preFilter: { disabled: [{ name: '*' }], enabled: [{ name: 'VolumeBinding' }] },
        filter: {
          disabled: [{ name: '*' }],
          enabled: [
            { name: 'NodeUnschedulable' },
            { name: 'VolumeRestrictions' },
            { name: 'NodeVolumeLimits' },
            { name: 'VolumeBinding' },
            { name: 'VolumeZone' },
          ],
        },
        postFilter: { disabled: [{ name: '*' }] },
        preScore: { disabled: [{ name: '*' }] },
        score: { disabled: [{ name: '*' }] },
        reserve: { disabled: [{ name: '*' }], enabled: [{ name: 'VolumeBinding' }] },
        preBind: { disabled: [{ name: '*' }], enabled: [{ name: 'VolumeBinding' }] },
      },
    },
  ],
};

const node = (name: string): Node => ({
  metadata: { name, labels: { 'orch.io/hostname': name } },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
});
const podWithClaim = (name: string, claimName: string): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] },
});

test('a WaitForFirstConsumer claim binds to the PV on the only matching node', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG, seed: 3 });
  const c = sim.cluster;
  for (const n of ['node-a', 'node-b', 'node-c']) c.addNode(node(n));
  c.addObject(c.storageClasses, { metadata: { name: 'local' }, provisioner: 'orch.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' }, false);
  c.addObject(
    c.persistentVolumes,
    {
      metadata: { name: 'pv-b' },
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'local',
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'orch.io/hostname', operator: 'In', values: ['node-b'] }] }] } },
      },
      status: { phase: 'Available' },
    },
    false,
  );
  // Too small for the claim: must not be chosen although its node matches too.
  c.addObject(
    c.persistentVolumes,
    {
      metadata: { name: 'pv-c-small' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'local',
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'orch.io/hostname', operator: 'In', values: ['node-c'] }] }] } },
      },
      status: { phase: 'Available' },
    },
    false,
  );
  c.addObject(
    c.persistentVolumeClaims,
    {
      metadata: { name: 'data', namespace: 'default' },
      spec: { storageClassName: 'local', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } },
    },
    true,
  );
  c.addPod(podWithClaim('app', 'data'));
  await sim.scheduler.runUntilIdle();

  assert.equal(c.pods.get('app', 'default')?.spec.nodeName, 'node-b');
  const pvc = c.persistentVolumeClaims.get('data', 'default');
  assert.equal(pvc?.spec.volumeName, 'pv-b');
  assert.equal(pvc?.metadata.annotations?.['pv.orch.io/bind-completed'], 'yes');
  assert.equal(c.persistentVolumes.get('pv-b')?.spec.claimRef?.name, 'data');
  assert.equal(c.persistentVolumes.get('pv-c-small')?.spec.claimRef, undefined);

  // A second pod of the same, now bound, claim follows the PV's node affinity.
  c.addPod(podWithClaim('app-2', 'data'));
  await sim.scheduler.runUntilIdle();
  assert.equal(c.pods.get('app-2', 'default')?.spec.nodeName, 'node-b');
});

test('an unbound Immediate claim keeps the pod pending, unresolvable', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG });
  const c = sim.cluster;
  c.addNode(node('node-a'));
  c.addObject(c.storageClasses, { metadata: { name: 'fast' }, provisioner: 'csi.example.com', volumeBindingMode: 'Immediate' }, false);
  c.addObject(c.persistentVolumeClaims, { metadata: { name: 'data', namespace: 'default' }, spec: { storageClassName: 'fast' } }, true);
  c.addPod(podWithClaim('app', 'data'));
  await sim.scheduler.runUntilIdle();
  assert.equal(c.pods.get('app', 'default')?.spec.nodeName, undefined);
  const failed = c.events.filter((e) => e.reason === 'FailedScheduling');
  assert.equal(failed.length, 1);
  assert.match(failed[0].message, /pod has unbound immediate PersistentVolumeClaims/);
});

test('a WaitForFirstConsumer claim is provisioned on a node its class allows', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG });
  const c = sim.cluster;
  for (const n of ['node-a', 'node-b']) c.addNode(node(n));
  c.addObject(
    c.storageClasses,
    {
      metadata: { name: 'zonal' },
      provisioner: 'csi.example.com',
      volumeBindingMode: 'WaitForFirstConsumer',
      allowedTopologies: [{ matchLabelExpressions: [{ key: 'orch.io/hostname', values: ['node-a'] }] }],
    },
    false,
  );
  c.addObject(
    c.persistentVolumeClaims,
    { metadata: { name: 'data', namespace: 'default' }, spec: { storageClassName: 'zonal', resources: { requests: { storage: '1Gi' } } } },
    true,
  );
  c.addPod(podWithClaim('app', 'data'));
  await sim.scheduler.runUntilIdle();
  assert.equal(c.pods.get('app', 'default')?.spec.nodeName, 'node-a');
  const pvc = c.persistentVolumeClaims.get('data', 'default');
  assert.equal(pvc?.metadata.annotations?.['volume.orch.io/selected-node'], 'node-a');
  assert.ok(pvc?.spec.volumeName);
});

test('CSI limits stop a third pod on a node with limit 2', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG });
  const c = sim.cluster;
  c.addNode(node('node-1'));
  c.addObject(
    c.csiNodes,
    { metadata: { name: 'node-1' }, spec: { drivers: [{ name: 'csi.example.com', nodeID: 'node-1', allocatable: { count: 2 } }] } },
    false,
  );
  for (let i = 1; i <= 3; i++) {
    c.addObject(
      c.persistentVolumes,
      { metadata: { name: `pv-${i}` }, spec: { csi: { driver: 'csi.example.com', volumeHandle: `vol-${i}` } }, status: { phase: 'Bound' } },
      false,
    );
    c.addObject(
      c.persistentVolumeClaims,
      { metadata: { name: `claim-${i}`, namespace: 'default', annotations: { 'pv.orch.io/bind-completed': 'yes' } }, spec: { volumeName: `pv-${i}` } },
      true,
    );
  }
  for (let i = 1; i <= 3; i++) {
    c.addPod(podWithClaim(`p${i}`, `claim-${i}`));
    await sim.scheduler.runUntilIdle();
  }
  assert.equal(c.pods.get('p1', 'default')?.spec.nodeName, 'node-1');
  assert.equal(c.pods.get('p2', 'default')?.spec.nodeName, 'node-1');
  assert.equal(c.pods.get('p3', 'default')?.spec.nodeName, undefined);
  const failed = c.events.filter((e) => e.reason === 'FailedScheduling');
  assert.equal(failed.length, 1);
  assert.equal(failed[0].message, '0/1 nodes are available: 1 node(s) exceed max volume count.');

  // A pod reusing an attached volume still fits: the volume counts once.
  c.addPod(podWithClaim('p1-twin', 'claim-1'));
  await sim.scheduler.runUntilIdle();
  assert.equal(c.pods.get('p1-twin', 'default')?.spec.nodeName, 'node-1');
});
