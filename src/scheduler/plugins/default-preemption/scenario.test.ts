import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeSchedulerConfiguration } from '../../config/types.js';
import type { Node, Pod } from '../../framework/types.js';
import { createSimulation, type Simulation } from '../../simulator/simulation.js';
import { IN_TREE_REGISTRY } from '../registry.js';

// The plugins written so far plus DefaultPreemption (the default profile's postFilter).
const CONFIG: KubeSchedulerConfiguration = {
  profiles: [
    {
      schedulerName: 'default-scheduler',
      plugins: {
        preFilter: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeResourcesFit' }] },
        filter: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeUnschedulable' }, { name: 'NodeName' }, { name: 'NodeResourcesFit' }] },
        preScore: { disabled: [{ name: '*' }] },
        score: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeResourcesLeastAllocated', weight: 1 }] },
        reserve: { disabled: [{ name: '*' }] },
        preBind: { disabled: [{ name: '*' }] },
      },
    },
  ],
};

const node = (name: string): Node => ({ metadata: { name }, status: { allocatable: { cpu: '2', memory: '4Gi', pods: '110' } } });
const pod = (name: string, priority: number, nodeName?: string, labels?: Record<string, string>): Pod => ({
  metadata: { name, namespace: 'default', labels },
  spec: { nodeName, priority, containers: [{ name: 'c', resources: { requests: { cpu: '1', memory: '1Gi' } } }] },
});

async function settle(sim: Simulation): Promise<void> {
  await sim.scheduler.runUntilIdle();
  // The preemptor waits out its backoff (1 s) after the victims' deletion moved it.
  sim.clock.advance(1000);
  await sim.scheduler.runUntilIdle();
}

const nodeOf = (sim: Simulation, name: string) => sim.cluster.pods.get(name, 'default')?.spec.nodeName;

test('a high-priority pod preempts the lowest-priority pod on a full node and is then bound there', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG, seed: 3 });
  sim.cluster.addNode(node('n1'));
  sim.cluster.addPod(pod('low', 10, 'n1'));
  sim.cluster.addPod(pod('mid', 100, 'n1'));
  sim.cluster.addPod(pod('vip', 1000));
  await sim.scheduler.runUntilIdle();

  assert.equal(sim.cluster.pods.get('low', 'default'), undefined, 'the lowest-priority pod was deleted');
  assert.equal(nodeOf(sim, 'mid'), 'n1', 'the other pod stays');
  assert.equal(sim.cluster.pods.get('vip', 'default')?.status?.nominatedNodeName, 'n1');
  const preempted = sim.cluster.events.filter((e) => e.reason === 'Preempted');
  assert.deepEqual(
    preempted.map((e) => [e.regarding, e.message]),
    [['default/low', 'Preempted by default/vip on node n1']],
  );
  const failed = sim.cluster.events.filter((e) => e.reason === 'FailedScheduling').map((e) => e.message);
  assert.deepEqual(failed, ['0/1 nodes are available: 1 Insufficient cpu.']);

  await settle(sim);
  assert.equal(nodeOf(sim, 'vip'), 'n1', 'the preemptor is bound to the nominated node');
  assert.equal(sim.scheduler.queue.nominator.nominatedPodsForNode('n1').length, 0);
});

test('a PDB-protected victim is avoided when another node needs no PDB violation', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG, seed: 5 });
  sim.cluster.addNode(node('node-a'));
  sim.cluster.addNode(node('node-b'));
  // node-a's victims would be cheaper (priority 0), but the PDB allows no disruption.
  sim.cluster.addPod(pod('db-0', 0, 'node-a', { app: 'db' }));
  sim.cluster.addPod(pod('db-1', 0, 'node-a', { app: 'db' }));
  sim.cluster.addPod(pod('web-0', 100, 'node-b', { app: 'web' }));
  sim.cluster.addPod(pod('web-1', 100, 'node-b', { app: 'web' }));
  sim.cluster.addObject(
    sim.cluster.podDisruptionBudgets,
    { metadata: { name: 'db', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'db' } } }, status: { disruptionsAllowed: 0 } },
    true,
  );
  sim.cluster.addPod(pod('vip', 1000));
  await sim.scheduler.runUntilIdle();

  assert.equal(sim.cluster.pods.get('vip', 'default')?.status?.nominatedNodeName, 'node-b');
  const victims = sim.cluster.events.filter((e) => e.reason === 'Preempted').map((e) => e.regarding);
  assert.equal(victims.length, 1);
  assert.match(victims[0], /^default\/web-[01]$/);
  assert.equal(sim.cluster.pods.list().filter((p) => p.metadata.labels?.app === 'db').length, 2, 'the protected pods stay');

  await settle(sim);
  assert.equal(nodeOf(sim, 'vip'), 'node-b');
});

test('without a PDB the cheapest victims are chosen; a pod with preemptionPolicy Never preempts nothing', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG, seed: 5 });
  sim.cluster.addNode(node('node-a'));
  sim.cluster.addNode(node('node-b'));
  sim.cluster.addPod(pod('a-0', 0, 'node-a'));
  sim.cluster.addPod(pod('a-1', 0, 'node-a'));
  sim.cluster.addPod(pod('b-0', 100, 'node-b'));
  sim.cluster.addPod(pod('b-1', 100, 'node-b'));
  sim.cluster.addPod({ ...pod('polite', 1000), spec: { ...pod('polite', 1000).spec, preemptionPolicy: 'Never' } });
  await sim.scheduler.runUntilIdle();
  assert.equal(sim.cluster.events.filter((e) => e.reason === 'Preempted').length, 0);
  assert.equal(sim.cluster.pods.get('polite', 'default')?.status?.nominatedNodeName, undefined);

  sim.cluster.addPod(pod('vip', 1000));
  await settle(sim);
  assert.equal(nodeOf(sim, 'vip'), 'node-a');
  assert.equal(sim.cluster.events.filter((e) => e.reason === 'Preempted').length, 1);
});
