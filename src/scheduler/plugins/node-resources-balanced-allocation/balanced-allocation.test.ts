import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { PodInfo } from '../../framework/pod-info.js';
import type { Node, Pod, ResourceList } from '../../framework/types.js';
import { BalancedAllocation, balancedResourceScore } from './balanced-allocation.js';

let n = 0;
const pod = (nodeName: string | undefined, ...requests: ResourceList[]): Pod => ({
  metadata: { name: `p${++n}`, namespace: 'ns', uid: `u${n}` },
  spec: { nodeName, containers: requests.map((r, i) => ({ name: `c${i}`, resources: { requests: r } })) },
});
// Upstream's fixtures: cpuOnly (1000m+2000m, memory 0), cpuAndMemory (1000m/2000 + 2000m/3000), noResources (no containers).
const cpuOnly = (node?: string) => pod(node, { cpu: '1000m', memory: '0' }, { cpu: '2000m', memory: '0' });
const cpuAndMemory = (node?: string) => pod(node, { cpu: '1000m', memory: '2000' }, { cpu: '2000m', memory: '3000' });
const noResources = (node?: string) => pod(node);

/** Upstream's makeNode(name, milliCPU, memory). */
const makeNode = (name: string, milliCPU: number, memory: number, pods: Pod[]): NodeInfo => {
  const ni = new NodeInfo({ metadata: { name }, status: { allocatable: { cpu: `${milliCPU}m`, memory: String(memory), pods: '100' } } } as Node);
  for (const p of pods) if (p.spec.nodeName === name) ni.addPod(new PodInfo(p));
  return ni;
};

// Upstream 1.21 TestNodeResourcesBalancedAllocation (machine1/machine2).
test('NodeResourcesBalancedAllocation scores (upstream 1.21 cases)', () => {
  const pl = new BalancedAllocation();
  const cases: [string, Pod, [number, number][], Pod[], number[]][] = [
    // 0/4000 cpu and 0/10000 memory on both.
    [
      'nothing scheduled, nothing requested',
      noResources(),
      [
        [4000, 10000],
        [4000, 10000],
      ],
      [],
      [100, 100],
    ],
    // machine1: 3000/4000 = 75% cpu, 5000/10000 = 50% memory -> 75; machine2: 50% and 50% -> 100.
    [
      'nothing scheduled, resources requested, differently sized machines',
      cpuAndMemory(),
      [
        [4000, 10000],
        [6000, 10000],
      ],
      [],
      [75, 100],
    ],
    [
      'no resources requested, pods scheduled',
      noResources(),
      [
        [4000, 10000],
        [4000, 10000],
      ],
      [noResources('machine1'), noResources('machine1'), noResources('machine2'), noResources('machine2')],
      [100, 100],
    ],
    // machine1: 3000/10000 cpu, 0/20000 memory -> 70; machine2: 6000/10000, 5000/20000 -> 65.
    [
      'no resources requested, pods scheduled with resources',
      noResources(),
      [
        [10000, 20000],
        [10000, 20000],
      ],
      [cpuOnly('machine1'), cpuOnly('machine2'), cpuAndMemory('machine2')],
      [70, 65],
    ],
    // machine1: 6000/10000, 5000/20000 -> 65; machine2: 6000/10000, 10000/20000 -> 90.
    [
      'resources requested, pods scheduled with resources',
      cpuAndMemory(),
      [
        [10000, 20000],
        [10000, 20000],
      ],
      [cpuOnly('machine1'), cpuAndMemory('machine2')],
      [65, 90],
    ],
    // machine2: 6000/10000, 10000/50000 -> 60.
    [
      'resources requested, pods scheduled with resources, differently sized machines',
      cpuAndMemory(),
      [
        [10000, 20000],
        [10000, 50000],
      ],
      [cpuOnly('machine1'), cpuAndMemory('machine2')],
      [65, 60],
    ],
    // 6000/4000 cpu on both: requested beyond capacity scores 0.
    [
      'requested resources exceed node capacity',
      cpuOnly(),
      [
        [4000, 10000],
        [4000, 10000],
      ],
      [cpuOnly('machine1'), cpuAndMemory('machine2')],
      [0, 0],
    ],
    [
      'zero node resources, pods scheduled with resources',
      cpuOnly(),
      [
        [0, 0],
        [0, 0],
      ],
      [cpuOnly('machine1'), cpuAndMemory('machine2')],
      [0, 0],
    ],
  ];
  for (const [name, p, sizes, existing, want] of cases) {
    const st = new CycleState();
    const nodes = sizes.map(([c, m], i) => makeNode(`machine${i + 1}`, c, m, existing));
    assert.deepEqual(
      nodes.map((ni) => pl.score(st, p, ni)),
      want,
      name,
    );
  }
});

test('balancedResourceScore edges', () => {
  assert.equal(balancedResourceScore([1000, 5000], [1000, 10000]), 0, 'cpu exactly at capacity');
  assert.equal(balancedResourceScore([999, 5000], [1000, 10000]), 50);
  assert.equal(balancedResourceScore([0, 0], [1000, 10000]), 100);
});

test('a pod without requests counts with the non-zero defaults (100m cpu, 200Mi memory)', () => {
  const pl = new BalancedAllocation();
  const p = pod(undefined, {});
  // 100m of 1000m = 10%, 200Mi of 1000Mi = 20% -> 90.
  const ni = makeNode('m', 1000, 1000 * 1024 * 1024, []);
  assert.equal(pl.score(new CycleState(), p, ni), 90);
});
