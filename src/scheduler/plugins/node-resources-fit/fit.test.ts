import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { PodInfo } from '../../framework/pod-info.js';
import { Code } from '../../framework/status.js';
import type { Node, Pod, ResourceList } from '../../framework/types.js';
import { NodeResourcesFit } from './fit.js';
import { leastAllocatedFactory, mostAllocatedFactory, requestedToCapacityRatioFactory } from './score-plugins.js';
import type { ScorePlugin } from '../../framework/interfaces.js';
import type { FrameworkHandle } from '../../framework/handle.js';

let n = 0;
const pod = (requests: ResourceList[], init: ResourceList[] = [], overhead?: ResourceList): Pod => ({
  metadata: { name: `p${++n}`, namespace: 'ns', uid: `u${n}` },
  spec: {
    containers: requests.map((r, i) => ({ name: `c${i}`, resources: { requests: r } })),
    initContainers: init.map((r, i) => ({ name: `i${i}`, resources: { requests: r } })),
    overhead,
  },
});
const node = (alloc: ResourceList, pods: Pod[] = []): NodeInfo => {
  const ni = new NodeInfo({ metadata: { name: 'machine1' }, status: { allocatable: alloc } } as Node);
  for (const p of pods) ni.addPod(new PodInfo(p));
  return ni;
};
const filter = (pl: NodeResourcesFit, p: Pod, ni: NodeInfo) => {
  const st = new CycleState();
  pl.preFilter(st, p);
  return pl.filter(st, p, ni);
};

// Upstream's TestEnoughRequests, cpu 10 / memory 20 / pods 32 / example.com/aaa 5 / hugepages-2Mi 5.
test('NodeResourcesFit.filter (upstream TestEnoughRequests cases)', () => {
  const alloc = { cpu: '10m', memory: '20', pods: '32', 'example.com/aaa': '5', 'hugepages-2Mi': '5' };
  const pl = new NodeResourcesFit();
  const cases: [string, Pod, Pod[], string[]][] = [
    ['no resources requested always fits', pod([{}]), [pod([{ cpu: '10m', memory: '20' }])], []],
    ['too many resources fails', pod([{ cpu: '1m', memory: '1' }]), [pod([{ cpu: '10m', memory: '20' }])], ['Insufficient cpu', 'Insufficient memory']],
    [
      'too many resources fails due to init container cpu',
      pod([{ cpu: '1m', memory: '1' }], [{ cpu: '3m', memory: '1' }]),
      [pod([{ cpu: '8m', memory: '19' }])],
      ['Insufficient cpu'],
    ],
    [
      'too many resources fails due to highest init container cpu',
      pod(
        [{ cpu: '1m', memory: '1' }],
        [
          { cpu: '3m', memory: '1' },
          { cpu: '2m', memory: '1' },
        ],
      ),
      [pod([{ cpu: '8m', memory: '19' }])],
      ['Insufficient cpu'],
    ],
    ['init container memory', pod([{ cpu: '1m', memory: '1' }], [{ cpu: '1m', memory: '3' }]), [pod([{ cpu: '9m', memory: '19' }])], ['Insufficient memory']],
    [
      'init container fits because it is max, not sum',
      pod([{ cpu: '1m', memory: '1' }], [{ cpu: '1m', memory: '1' }]),
      [pod([{ cpu: '9m', memory: '19' }])],
      [],
    ],
    ['both resources fit', pod([{ cpu: '1m', memory: '1' }]), [pod([{ cpu: '5m', memory: '5' }])], []],
    ['one resource memory fits', pod([{ cpu: '2m', memory: '1' }]), [pod([{ cpu: '9m', memory: '5' }])], ['Insufficient cpu']],
    ['one resource cpu fits', pod([{ cpu: '1m', memory: '2' }]), [pod([{ cpu: '5m', memory: '19' }])], ['Insufficient memory']],
    ['equal edge case', pod([{ cpu: '5m', memory: '1' }]), [pod([{ cpu: '5m', memory: '19' }])], []],
    ['extended resource fits', pod([{ 'example.com/aaa': '1' }]), [pod([{}])], []],
    ['extended resource capacity enforced', pod([{ 'example.com/aaa': '10' }]), [pod([{}])], ['Insufficient example.com/aaa']],
    ['extended resource allocatable enforced', pod([{ 'example.com/aaa': '1' }]), [pod([{ 'example.com/aaa': '5' }])], ['Insufficient example.com/aaa']],
    ['extended resource unknown to node', pod([{ 'example.com/bbb': '1' }]), [], ['Insufficient example.com/bbb']],
    ['hugepages enforced', pod([{ 'hugepages-2Mi': '10' }]), [], ['Insufficient hugepages-2Mi']],
    ['overhead counted', pod([{ cpu: '1m', memory: '1' }], [], { cpu: '5m', memory: '1' }), [pod([{ cpu: '5m', memory: '5' }])], ['Insufficient cpu']],
  ];
  for (const [name, p, existing, reasons] of cases) {
    const s = filter(pl, p, node(alloc, existing));
    assert.deepEqual(s.reasons, reasons, name);
    assert.equal(s.code, reasons.length === 0 ? Code.Success : Code.Unschedulable, name);
  }
});

test('NodeResourcesFit ignores configured extended resources and groups', () => {
  const alloc = { cpu: '10m', memory: '20', pods: '32' };
  assert.equal(filter(new NodeResourcesFit({ ignoredResources: ['example.com/bbb'] }), pod([{ 'example.com/bbb': '1' }]), node(alloc)).code, Code.Success);
  assert.equal(filter(new NodeResourcesFit({ ignoredResourceGroups: ['example.com'] }), pod([{ 'example.com/bbb': '1' }]), node(alloc)).code, Code.Success);
});

test('NodeResourcesFit counts pods against allocatable pods', () => {
  const pl = new NodeResourcesFit();
  const s = filter(pl, pod([{ cpu: '1m', memory: '1' }]), node({ cpu: '10m', memory: '20', pods: '1' }, [pod([{}])]));
  assert.deepEqual(s.reasons, ['Too many pods']);
  const z = filter(pl, pod([{}]), node({ cpu: '10m', memory: '20', pods: '1' }, [pod([{}])]));
  assert.deepEqual(z.reasons, ['Too many pods'], 'even a pod requesting nothing');
});

const score = (pl: ScorePlugin, p: Pod, nodes: NodeInfo[]) => {
  const st = new CycleState();
  return nodes.map((ni) => pl.score(st, p, ni));
};
const h = {} as FrameworkHandle;
const machine = (cpu: string, memory: string, pods: Pod[] = []) => node({ cpu, memory, pods: '110' }, pods);

// Upstream's TestNodeResourcesLeastAllocated "nothing scheduled, resources requested, differently sized machines".
test('NodeResourcesLeastAllocated scores (upstream cases)', () => {
  const pl = leastAllocatedFactory(undefined, h) as ScorePlugin;
  const p = pod([
    { cpu: '1000m', memory: '0' },
    { cpu: '2000m', memory: '5000' },
  ]);
  assert.deepEqual(score(pl, p, [machine('4000m', '10000'), machine('6000m', '10000')]), [37, 50]);
  // Nothing requested: non-zero defaults (100m, 200Mi) against 4 cores / 10000 bytes memory.
  assert.deepEqual(score(pl, pod([{}]), [machine('4000m', '10000'), machine('4000m', '10000')]), [48, 48]);
  // Existing pods count with their requests.
  const existing = [pod([{ cpu: '3000m', memory: '0' }])]; // explicit 0 memory: no 200Mi default
  assert.deepEqual(score(pl, pod([{ cpu: '1000m', memory: '0' }]), [machine('10000m', '20000', existing)]), [80]);
});

test('NodeResourcesMostAllocated scores (upstream cases)', () => {
  const pl = mostAllocatedFactory(undefined, h) as ScorePlugin;
  const p = pod([
    { cpu: '1000m', memory: '2000' },
    { cpu: '2000m', memory: '3000' },
  ]);
  assert.deepEqual(score(pl, p, [machine('4000m', '10000'), machine('6000m', '10000')]), [62, 50]);
  // Requested beyond capacity scores 0 for that resource (1.21).
  assert.deepEqual(score(pl, pod([{ cpu: '5000m', memory: '10000' }]), [machine('4000m', '10000')]), [50]);
});

test('RequestedToCapacityRatio scores along the shape', () => {
  const pl = requestedToCapacityRatioFactory(
    {
      shape: [
        { utilization: 0, score: 10 },
        { utilization: 100, score: 0 },
      ],
      resources: [
        { name: 'cpu', weight: 1 },
        { name: 'memory', weight: 1 },
      ],
    },
    h,
  ) as ScorePlugin;
  // Upstream TestRequestedToCapacityRatio "nothing scheduled, nothing requested (default - least requested nodes have priority)".
  const p = pod([{ cpu: '0', memory: '0' }]);
  assert.deepEqual(score(pl, p, [machine('4000m', '10000'), machine('4000m', '10000')]), [100, 100]);
  // 3000m of 4000m used -> utilization 75 -> 25; 0 memory -> 100; mean 62.5 rounds to 63.
  assert.deepEqual(score(pl, pod([{ cpu: '3000m', memory: '0' }]), [machine('4000m', '10000')]), [63]);
  assert.throws(() => requestedToCapacityRatioFactory({ shape: [] }, h), /at least one point/);
});
