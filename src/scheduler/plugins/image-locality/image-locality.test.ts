import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizedImageName } from '../../cache/cache.js';
import { CycleState } from '../../framework/cycle-state.js';
import type { FrameworkHandle } from '../../framework/handle.js';
import type { ImageStateSummary } from '../../framework/node-info.js';
import { snapshotOf } from '../../framework/snapshot.js';
import type { ContainerImage, Node, Pod } from '../../framework/types.js';
import { calculatePriority, ImageLocality, MIN_THRESHOLD } from './image-locality.js';

const mb = 1024 * 1024;
const pod = (...images: string[]): Pod => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: images.map((image, i) => ({ name: `c${i}`, image })) },
});
const node = (name: string, images: ContainerImage[]): Node => ({ metadata: { name }, status: { images } });

/** Scores every node as the framework would, with image states counted across nodes as the cache does. */
function scores(p: Pod, nodes: Node[]): number[] {
  const snap = snapshotOf([], nodes);
  const all = new Map<string, ImageStateSummary & { nodes: Set<string> }>();
  for (const ni of snap.list()) {
    for (const img of ni.node?.status?.images ?? []) {
      for (const raw of img.names ?? []) {
        const name = normalizedImageName(raw);
        let st = all.get(name);
        if (st === undefined) all.set(name, (st = { size: img.sizeBytes ?? 0, numNodes: 0, nodes: new Set() }));
        st.nodes.add(ni.name);
        st.numNodes = st.nodes.size;
        ni.imageStates.set(name, st);
      }
    }
  }
  const pl = new ImageLocality({ snapshotSharedLister: () => snap } as unknown as FrameworkHandle);
  const st = new CycleState();
  return snap.list().map((ni) => pl.score(st, p, ni));
}

const node403002000: ContainerImage[] = [
  { names: ['gcr.io/40:latest', 'gcr.io/40:v1', 'gcr.io/40:v1'], sizeBytes: 40 * mb },
  { names: ['gcr.io/300:latest', 'gcr.io/300:v1'], sizeBytes: 300 * mb },
  { names: ['gcr.io/2000:latest'], sizeBytes: 2000 * mb },
];
const node25010: ContainerImage[] = [
  { names: ['gcr.io/250:latest'], sizeBytes: 250 * mb },
  { names: ['gcr.io/10:latest', 'gcr.io/10:v1'], sizeBytes: 10 * mb },
];

// Upstream 1.21 TestImageLocalityPriority: max threshold 1000MB per container.
test('ImageLocality scores (upstream 1.21 cases)', () => {
  const cases: [string, Pod, Node[], number[]][] = [
    // machine1: 40M/2 < 23M -> 0. machine2: 100 * (250M/2 - 23M) / (1000M*2 - 23M) = 5.
    [
      'two images spread on two nodes, prefer the larger image one',
      pod('gcr.io/40', 'gcr.io/250'),
      [node('machine1', node403002000), node('machine2', node25010)],
      [0, 5],
    ],
    // machine1: 100 * ((40M + 300M)/2 - 23M) / (1000M*2 - 23M) = 7.
    ['two images on one node, prefer this node', pod('gcr.io/40', 'gcr.io/300'), [node('machine1', node403002000), node('machine2', node25010)], [7, 0]],
    // machine1: 100 * (2000M/2 - 23M) / (1000M*2 - 23M) = 49. machine2: 10M/2 < 23M -> 0.
    ['if exceed limit, use limit', pod('gcr.io/2000', 'gcr.io/10'), [node('machine1', node403002000), node('machine2', node25010)], [49, 0]],
    // machine1: 100 * (2000M/3 - 23M) / (1000M*2 - 23M) = 32.
    [
      'if exceed limit, use limit (with node which has no images present)',
      pod('gcr.io/2000', 'gcr.io/10'),
      [node('machine1', node403002000), node('machine2', node25010), node('machine3', [])],
      [32, 0, 0],
    ],
  ];
  for (const [name, p, nodes, want] of cases) assert.deepEqual(scores(p, nodes), want, name);
});

test('ImageLocality: tags matter, an untagged name means :latest', () => {
  const nodes = [node('a', [{ names: ['repo/big:v2'], sizeBytes: 900 * mb }]), node('b', [{ names: ['repo/big'], sizeBytes: 900 * mb }])];
  // Each image is on one of two nodes: 450M -> 100 * (450M - 23M) / (1000M - 23M) = 43.
  assert.deepEqual(scores(pod('repo/big:v2'), nodes), [43, 0]);
  assert.deepEqual(scores(pod('repo/big:latest'), nodes), [0, 43]);
});

test('calculatePriority clamps to the thresholds', () => {
  assert.equal(calculatePriority(0, 1), 0);
  assert.equal(calculatePriority(MIN_THRESHOLD, 1), 0);
  assert.equal(calculatePriority(5000 * mb, 1), 100);
  assert.equal(calculatePriority(5000 * mb, 3), 100);
  assert.equal(calculatePriority(1000 * mb, 3), 32, '100 * (1000M - 23M) / (3000M - 23M)');
});
