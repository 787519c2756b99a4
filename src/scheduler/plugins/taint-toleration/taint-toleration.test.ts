import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import type { NodeScore } from '../../framework/interfaces.js';
import { NodeInfo } from '../../framework/node-info.js';
import { Code } from '../../framework/status.js';
import type { Pod, Taint, Toleration } from '../../framework/types.js';
import { defaultNormalizeScore } from './normalize.js';
import { TaintToleration } from './taint-toleration.js';

const nodeWithTaints = (name: string, taints: Taint[]) => new NodeInfo({ metadata: { name }, spec: { taints } });
const podWithTolerations = (tolerations: Toleration[]): Pod => ({ metadata: { name: 'pod1' }, spec: { containers: [], tolerations } });
const P = 'PreferNoSchedule';

function scoreAll(pod: Pod, nodes: NodeInfo[]): NodeScore[] {
  const pl = new TaintToleration();
  const st = new CycleState();
  assert.equal(pl.preScore(st, pod, nodes).code, Code.Success);
  const scores = nodes.map((n) => ({ name: n.name, score: pl.score(st, pod, n) }));
  assert.equal(pl.normalizeScore(st, pod, scores).code, Code.Success);
  return scores;
}

// Upstream's TestTaintTolerationScore (the 1.21 cases).
test('TaintToleration scores (upstream cases)', () => {
  const cases: [string, Pod, NodeInfo[], number[]][] = [
    [
      'node with taints tolerated by the pod, gets a higher score than those node with intolerable taints',
      podWithTolerations([{ key: 'foo', operator: 'Equal', value: 'bar', effect: P }]),
      [nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: P }]), nodeWithTaints('nodeB', [{ key: 'foo', value: 'blah', effect: P }])],
      [100, 0],
    ],
    [
      'the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has',
      podWithTolerations([
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: P },
        { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: P },
      ]),
      [
        nodeWithTaints('nodeA', []),
        nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: P }]),
        nodeWithTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: P },
          { key: 'disk-type', value: 'ssd', effect: P },
        ]),
      ],
      [100, 100, 100],
    ],
    [
      'the more intolerable taints a node has, the lower score it gets.',
      podWithTolerations([{ key: 'foo', operator: 'Equal', value: 'bar', effect: P }]),
      [
        nodeWithTaints('nodeA', []),
        nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: P }]),
        nodeWithTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: P },
          { key: 'disk-type', value: 'ssd', effect: P },
        ]),
      ],
      [100, 50, 0],
    ],
    [
      'only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function',
      podWithTolerations([
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'NoSchedule' },
        { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'NoSchedule' },
      ]),
      [
        nodeWithTaints('nodeA', []),
        nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }]),
        nodeWithTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: P },
          { key: 'disk-type', value: 'ssd', effect: P },
        ]),
      ],
      [100, 100, 0],
    ],
    [
      'Default behaviour No taints and tolerations, lands on node with no taints',
      podWithTolerations([]),
      [nodeWithTaints('nodeA', []), nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: P }])],
      [100, 0],
    ],
    [
      'a toleration with no effect tolerates PreferNoSchedule taints too',
      podWithTolerations([{ key: 'cpu-type', operator: 'Exists' }]),
      [nodeWithTaints('nodeA', [{ key: 'cpu-type', value: 'arm64', effect: P }]), nodeWithTaints('nodeB', [{ key: 'disk', value: 'hdd', effect: P }])],
      [100, 0],
    ],
  ];
  for (const [name, p, nodes, want] of cases) {
    assert.deepEqual(
      scoreAll(p, nodes).map((s) => s.score),
      want,
      name,
    );
  }
});

const untolerated = (key: string, value: string) => `node(s) had taint {${key}: ${value}}, that the pod didn't tolerate`;

// Upstream's TestTaintTolerationFilter, with the 1.21 reason.
test('TaintToleration.filter (upstream cases)', () => {
  const pl = new TaintToleration();
  const cases: [string, Pod, NodeInfo, string | undefined][] = [
    [
      "A pod having no tolerations can't be scheduled onto a node with nonempty taints",
      podWithTolerations([]),
      nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]),
      untolerated('dedicated', 'user1'),
    ],
    [
      'A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule',
      podWithTolerations([{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]),
      nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]),
      undefined,
    ],
    [
      "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
      podWithTolerations([{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }]),
      nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]),
      untolerated('dedicated', 'user1'),
    ],
    [
      'A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node',
      podWithTolerations([{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }]),
      nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]),
      undefined,
    ],
    [
      'A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node',
      podWithTolerations([
        { key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
      ]),
      nodeWithTaints('nodeA', [
        { key: 'dedicated', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      ]),
      undefined,
    ],
    [
      "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node",
      podWithTolerations([{ key: 'foo', operator: 'Equal', value: 'bar', effect: P }]),
      nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]),
      untolerated('foo', 'bar'),
    ],
    [
      'The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node',
      podWithTolerations([{ key: 'foo', operator: 'Equal', value: 'bar' }]),
      nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]),
      undefined,
    ],
    [
      "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
      podWithTolerations([{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }]),
      nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: P }]),
      undefined,
    ],
    [
      'The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node',
      podWithTolerations([]),
      nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: P }]),
      undefined,
    ],
    [
      'a NoExecute taint must be tolerated too; the first untolerated taint is reported, value empty',
      podWithTolerations([{ key: 'a', operator: 'Exists' }]),
      nodeWithTaints('nodeA', [
        { key: 'a', value: 'x', effect: 'NoSchedule' },
        { key: 'node-role.kubernetes.io/master', effect: 'NoExecute' },
        { key: 'c', value: 'z', effect: 'NoSchedule' },
      ]),
      untolerated('node-role.kubernetes.io/master', ''),
    ],
    [
      'an empty key with Exists tolerates everything',
      podWithTolerations([{ operator: 'Exists' }]),
      nodeWithTaints('nodeA', [{ key: 'a', value: 'x', effect: 'NoExecute' }]),
      undefined,
    ],
  ];
  for (const [name, p, ni, reason] of cases) {
    const s = pl.filter(new CycleState(), p, ni);
    assert.equal(s.code, reason === undefined ? Code.Success : Code.UnschedulableAndUnresolvable, name);
    assert.deepEqual(s.reasons, reason === undefined ? [] : [reason], name);
  }
  assert.equal(pl.filter(new CycleState(), podWithTolerations([]), new NodeInfo()).code, Code.Error, 'node-less NodeInfo');
});

test('TaintToleration.score without PreScore state throws (an Error status in the runtime)', () => {
  assert.throws(() => new TaintToleration().score(new CycleState(), podWithTolerations([]), nodeWithTaints('n', [])), /PreScoreTaintToleration/);
});

// Upstream's TestDefaultNormalizeScore.
test('defaultNormalizeScore (upstream cases)', () => {
  const cases: [boolean, number[], number[]][] = [
    [false, [10, 20, 30, 40, 50], [20, 40, 60, 80, 100]],
    [true, [10, 20, 30, 40, 50], [80, 60, 40, 20, 0]],
    [false, [0, 0, 0], [0, 0, 0]],
    [true, [0, 0, 0], [100, 100, 100]],
    [false, [1, 1, 2], [50, 50, 100]],
    [true, [1, 1, 2], [50, 50, 0]],
    [false, [0, 5, 7], [0, 71, 100]],
  ];
  for (const [reverse, input, want] of cases) {
    const scores = input.map((score, i) => ({ name: `n${i}`, score }));
    defaultNormalizeScore(100, reverse, scores);
    assert.deepEqual(
      scores.map((s) => s.score),
      want,
      `${reverse} ${input}`,
    );
  }
});
