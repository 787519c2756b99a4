import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OwnerReference } from '../../../machinery/object.js';
import { CycleState } from '../../framework/cycle-state.js';
import type { FrameworkHandle } from '../../framework/handle.js';
import { NodeInfo } from '../../framework/node-info.js';
import type { Node, Pod } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';
import { factory, NodePreferAvoidPods, preferAvoidPodsAnnotationKey } from './node-prefer-avoid-pods.js';

const KEY = preferAvoidPodsAnnotationKey('kubernetes.io');
const avoid = (kind: string, uid: string) =>
  JSON.stringify({
    preferAvoidPods: [
      {
        podSignature: { podController: { apiVersion: 'v1', kind, name: 'foo', uid, controller: true } },
        reason: 'some reason',
        message: 'some message',
      },
    ],
  });
const nodes: Node[] = [
  { metadata: { name: 'machine1', annotations: { [KEY]: avoid('ReplicationController', 'abcdef123456') } } },
  { metadata: { name: 'machine2', annotations: { [KEY]: avoid('ReplicaSet', 'qwert12345') } } },
  { metadata: { name: 'machine3' } },
];
const pod = (ref: Partial<OwnerReference>): Pod => ({
  metadata: { name: 'p', namespace: 'default', ownerReferences: [{ apiVersion: 'v1', name: 'foo', kind: '', uid: '', ...ref }] },
  spec: { containers: [] },
});

// Upstream's TestNodePreferAvoidPods.
test('NodePreferAvoidPods scores (upstream cases)', () => {
  const pl = new NodePreferAvoidPods('kubernetes.io');
  const cases: [string, Pod, number[]][] = [
    [
      'pod managed by ReplicationController should avoid a node, this node get lowest priority score',
      pod({ kind: 'ReplicationController', uid: 'abcdef123456', controller: true }),
      [0, 100, 100],
    ],
    ['ownership by random controller should be ignored', pod({ kind: 'RandomController', uid: 'abcdef123456', controller: true }), [100, 100, 100]],
    ['owner without Controller field set should be ignored', pod({ kind: 'ReplicationController', uid: 'abcdef123456' }), [100, 100, 100]],
    [
      'pod managed by ReplicaSet should avoid a node, this node get lowest priority score',
      pod({ kind: 'ReplicaSet', uid: 'qwert12345', controller: true }),
      [100, 0, 100],
    ],
  ];
  for (const [name, p, want] of cases) {
    const st = new CycleState();
    assert.deepEqual(
      nodes.map((n) => pl.score(st, p, new NodeInfo(n))),
      want,
      name,
    );
  }
});

test('NodePreferAvoidPods: an unparsable annotation avoids nothing; orch reads its own domain', () => {
  const p = pod({ kind: 'ReplicaSet', uid: 'qwert12345', controller: true });
  const bad = new NodeInfo({ metadata: { name: 'x', annotations: { [KEY]: '{not json' } } });
  assert.equal(new NodePreferAvoidPods('kubernetes.io').score(new CycleState(), p, bad), 100);
  const orch = factory(undefined, { names: ORCH_NAMES } as FrameworkHandle) as NodePreferAvoidPods;
  const orchKey = preferAvoidPodsAnnotationKey(ORCH_NAMES.labelDomain);
  assert.equal(orchKey, 'scheduler.alpha.orch.io/preferAvoidPods');
  const n = new NodeInfo({ metadata: { name: 'y', annotations: { [orchKey]: avoid('ReplicaSet', 'qwert12345') } } });
  assert.equal(orch.score(new CycleState(), p, n), 0);
  assert.equal(orch.score(new CycleState(), p, new NodeInfo(nodes[1])), 100, 'the kubernetes.io key means nothing to orch');
});
