import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { Code } from '../../framework/status.js';
import type { Affinity, NodeSelectorRequirement, NodeSelectorTerm, Pod } from '../../framework/types.js';
import { ERR_REASON_ENFORCED, ERR_REASON_POD, factory, NodeAffinity, type NodeAffinityArgs } from './node-affinity.js';

type NA = NonNullable<Affinity['nodeAffinity']>;
const expr = (key: string, operator: string, ...values: string[]): NodeSelectorRequirement => ({ key, operator, values: values.length ? values : undefined });
const nameIn = (...values: string[]): NodeSelectorRequirement => ({ key: 'metadata.name', operator: 'In', values });
const required = (...terms: NodeSelectorTerm[]): NA => ({ requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } });
const pod = (spec: { nodeSelector?: Record<string, string>; nodeAffinity?: NA } = {}): Pod => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: [], nodeSelector: spec.nodeSelector, affinity: spec.nodeAffinity ? { nodeAffinity: spec.nodeAffinity } : undefined },
});

interface FilterCase {
  name: string;
  pod: Pod;
  labels?: Record<string, string>;
  nodeName?: string;
  args?: NodeAffinityArgs;
  /** Expected Filter reason; undefined means it fits. */
  reason?: string;
  runPreFilter?: boolean;
}

// Upstream 1.21 TestNodeAffinity.
const filterCases: FilterCase[] = [
  { name: 'no selector', pod: pod(), labels: {} },
  { name: 'missing labels', pod: pod({ nodeSelector: { foo: 'bar' } }), reason: ERR_REASON_POD },
  { name: 'same labels', pod: pod({ nodeSelector: { foo: 'bar' } }), labels: { foo: 'bar' } },
  { name: 'node labels are superset', pod: pod({ nodeSelector: { foo: 'bar' } }), labels: { foo: 'bar', baz: 'blah' } },
  { name: 'node labels are subset', pod: pod({ nodeSelector: { foo: 'bar', baz: 'blah' } }), labels: { foo: 'bar' }, reason: ERR_REASON_POD },
  {
    name: 'Pod with matchExpressions using In operator that matches the existing node',
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('foo', 'In', 'bar', 'value2')] }) }),
    labels: { foo: 'bar' },
  },
  {
    name: 'Pod with matchExpressions using Gt operator that matches the existing node',
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('kernel-version', 'Gt', '0204')] }) }),
    labels: { 'kernel-version': '0206' },
  },
  {
    name: 'Pod with matchExpressions using NotIn operator that matches the existing node',
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('mem-type', 'NotIn', 'DDR', 'DDR2')] }) }),
    labels: { 'mem-type': 'DDR3' },
  },
  {
    name: 'Pod with matchExpressions using Exists operator that matches the existing node',
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('GPU', 'Exists')] }) }),
    labels: { GPU: 'NVIDIA-GRID-K1' },
  },
  {
    name: "Pod with affinity that don't match node's labels won't schedule onto the node",
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('foo', 'In', 'value1', 'value2')] }) }),
    labels: { foo: 'bar' },
    reason: ERR_REASON_POD,
  },
  {
    name: "Pod with a nil []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the node",
    pod: pod({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {} as { nodeSelectorTerms: NodeSelectorTerm[] } } }),
    labels: { foo: 'bar' },
    reason: ERR_REASON_POD,
  },
  {
    name: "Pod with an empty []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the node",
    pod: pod({ nodeAffinity: required() }),
    labels: { foo: 'bar' },
    reason: ERR_REASON_POD,
  },
  {
    name: "Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
    pod: pod({ nodeAffinity: required({ matchExpressions: [] }) }),
    labels: { foo: 'bar' },
    reason: ERR_REASON_POD,
  },
  { name: 'Pod with no Affinity will schedule onto a node', pod: pod(), labels: { foo: 'bar' } },
  { name: 'Pod with Affinity but nil NodeSelector will schedule onto a node', pod: pod({ nodeAffinity: {} }), labels: { foo: 'bar' } },
  {
    name: 'Pod with multiple matchExpressions ANDed that matches the existing node',
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', 'AMD', 'INTER')] }) }),
    labels: { GPU: 'NVIDIA-GRID-K1' },
  },
  {
    name: "Pod with multiple matchExpressions ANDed that doesn't match the existing node",
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'In', 'AMD', 'INTER')] }) }),
    labels: { GPU: 'NVIDIA-GRID-K1' },
    reason: ERR_REASON_POD,
  },
  {
    name: "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
    pod: pod({
      nodeAffinity: required({ matchExpressions: [expr('foo', 'In', 'bar', 'value2')] }, { matchExpressions: [expr('diffkey', 'In', 'wrong', 'value2')] }),
    }),
    labels: { foo: 'bar' },
  },
  {
    name: 'Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node',
    pod: pod({ nodeSelector: { foo: 'bar' }, nodeAffinity: required({ matchExpressions: [expr('foo', 'Exists')] }) }),
    labels: { foo: 'bar' },
  },
  {
    name: "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node",
    pod: pod({ nodeSelector: { foo: 'bar' }, nodeAffinity: required({ matchExpressions: [expr('foo', 'Exists')] }) }),
    labels: { foo: 'barrrrrr' },
    reason: ERR_REASON_POD,
  },
  {
    name: "Pod with an invalid value in Affinity term won't be scheduled onto the node",
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('foo', 'NotIn', 'invalid value: ___@#$%^')] }) }),
    labels: { foo: 'bar' },
    reason: ERR_REASON_POD,
  },
  {
    name: 'Pod with matchFields using In operator that matches the existing node',
    pod: pod({ nodeAffinity: required({ matchFields: [nameIn('node_1')] }) }),
    nodeName: 'node_1',
  },
  {
    name: 'Pod with matchFields using In operator that does not match the existing node',
    pod: pod({ nodeAffinity: required({ matchFields: [nameIn('node_1')] }) }),
    nodeName: 'node_2',
    reason: ERR_REASON_POD,
  },
  {
    name: 'Pod with two terms: matchFields does not match, but matchExpressions matches',
    pod: pod({ nodeAffinity: required({ matchFields: [nameIn('node_1')] }, { matchExpressions: [expr('foo', 'In', 'bar')] }) }),
    nodeName: 'node_2',
    labels: { foo: 'bar' },
  },
  {
    name: 'Pod with one term: matchFields does not match, but matchExpressions matches',
    pod: pod({ nodeAffinity: required({ matchFields: [nameIn('node_1')], matchExpressions: [expr('foo', 'In', 'bar')] }) }),
    nodeName: 'node_2',
    labels: { foo: 'bar' },
    reason: ERR_REASON_POD,
  },
  {
    name: 'Pod with one term: both matchFields and matchExpressions match',
    pod: pod({ nodeAffinity: required({ matchFields: [nameIn('node_1')], matchExpressions: [expr('foo', 'In', 'bar')] }) }),
    nodeName: 'node_1',
    labels: { foo: 'bar' },
  },
  {
    name: 'Pod with two terms: both matchFields and matchExpressions do not match',
    pod: pod({ nodeAffinity: required({ matchFields: [nameIn('node_1')] }, { matchExpressions: [expr('foo', 'In', 'not-match-to-bar')] }) }),
    nodeName: 'node_2',
    labels: { foo: 'bar' },
    reason: ERR_REASON_POD,
  },
  {
    name: 'Pod with two conflicting matchFields requirements',
    pod: pod({ nodeAffinity: required({ matchFields: [nameIn('node_1'), nameIn('node_2')] }) }),
    nodeName: 'node_2',
    reason: ERR_REASON_POD,
  },
  {
    name: "Matches added affinity and Pod's node affinity",
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('zone', 'In', 'foo')] }) }),
    nodeName: 'node2',
    labels: { zone: 'foo' },
    args: { addedAffinity: required({ matchFields: [nameIn('node2')] }) },
  },
  {
    name: "Matches added affinity but not Pod's node affinity",
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('zone', 'In', 'bar')] }) }),
    nodeName: 'node2',
    labels: { zone: 'foo' },
    args: { addedAffinity: required({ matchFields: [nameIn('node2')] }) },
    reason: ERR_REASON_POD,
  },
  {
    name: "Doesn't match added affinity",
    pod: pod(),
    nodeName: 'node2',
    labels: { zone: 'foo' },
    args: { addedAffinity: required({ matchExpressions: [expr('zone', 'In', 'bar')] }) },
    reason: ERR_REASON_ENFORCED,
  },
  {
    name: 'Matches node selector correctly even if PreFilter is not called',
    pod: pod({ nodeSelector: { foo: 'bar' } }),
    labels: { foo: 'bar', baz: 'blah' },
    runPreFilter: false,
  },
  {
    name: 'Matches node affinity correctly even if PreFilter is not called',
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', 'AMD', 'INTER')] }) }),
    labels: { GPU: 'NVIDIA-GRID-K1' },
    runPreFilter: false,
  },
  {
    name: 'Gt and Lt compare integers; a label that is not an integer never matches',
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('cores', 'Gt', '4'), expr('cores', 'Lt', '64')] }) }),
    labels: { cores: '4x' },
    reason: ERR_REASON_POD,
  },
  {
    name: 'DoesNotExist matches a node without the label',
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('spot', 'DoesNotExist')] }) }),
    labels: { other: 'x' },
  },
  {
    name: 'an unknown operator makes its term match nothing, other terms still count',
    pod: pod({ nodeAffinity: required({ matchExpressions: [expr('foo', 'Near', 'bar')] }, { matchExpressions: [expr('foo', 'Exists')] }) }),
    labels: { foo: 'bar' },
  },
];

test('NodeAffinity PreFilter + Filter (upstream 1.21 cases)', () => {
  for (const c of filterCases) {
    const pl = new NodeAffinity(c.args);
    const ni = new NodeInfo({ metadata: { name: c.nodeName ?? '', labels: c.labels } });
    const st = new CycleState();
    if (c.runPreFilter !== false) {
      const pre = pl.preFilter(st, c.pod);
      if (pre.code === Code.Skip) {
        assert.equal(c.reason, undefined, `${c.name}: skipped Filter must mean every node fits`);
        continue;
      }
      assert.equal(pre.code, Code.Success, c.name);
    }
    const s = pl.filter(st, c.pod, ni);
    assert.equal(s.code, c.reason === undefined ? Code.Success : Code.UnschedulableAndUnresolvable, c.name);
    assert.deepEqual(s.reasons, c.reason === undefined ? [] : [c.reason], c.name);
  }
  assert.equal(new NodeAffinity().filter(new CycleState(), pod(), new NodeInfo()).code, Code.Error, 'node-less NodeInfo');
});

const pref = (weight: number, ...exprs: NodeSelectorRequirement[]) => ({ weight, preference: { matchExpressions: exprs } });
const affinity1: NA = { preferredDuringSchedulingIgnoredDuringExecution: [pref(2, expr('foo', 'In', 'bar'))] };
const affinity2: NA = {
  preferredDuringSchedulingIgnoredDuringExecution: [
    pref(2, expr('foo', 'In', 'bar')),
    pref(4, expr('key', 'In', 'value')),
    pref(5, expr('foo', 'In', 'bar'), expr('key', 'In', 'value'), expr('az', 'In', 'az1')),
  ],
};
const label1 = { foo: 'bar' };
const label2 = { key: 'value' };
const label3 = { az: 'az1' };
const label4 = { abc: 'az11', def: 'az22' };
const label5 = { foo: 'bar', key: 'value', az: 'az1' };

function scoreAll(pl: NodeAffinity, p: Pod, labels: Record<string, string>[], runPreScore = true): number[] {
  const nodes = labels.map((l, i) => new NodeInfo({ metadata: { name: `node${i + 1}`, labels: l } }));
  const st = new CycleState();
  if (runPreScore) {
    const s = pl.preScore(st, p, nodes);
    if (s.code === Code.Skip) return nodes.map(() => 0);
    assert.equal(s.code, Code.Success);
  }
  const scores = nodes.map((n) => ({ name: n.name, score: pl.score(st, p, n) }));
  pl.normalizeScore(st, p, scores);
  return scores.map((s) => s.score);
}

// Upstream 1.21 TestNodeAffinityPriority.
test('NodeAffinity scores (upstream 1.21 cases)', () => {
  const cases: [string, Pod, Record<string, string>[], number[], NodeAffinityArgs?, boolean?][] = [
    ['all machines are same priority as NodeAffinity is nil', pod(), [label1, label2, label3], [0, 0, 0]],
    [
      'no machine macthes preferred scheduling requirements in NodeAffinity of pod so all machines priority is zero',
      pod({ nodeAffinity: affinity1 }),
      [label4, label2, label3],
      [0, 0, 0],
    ],
    ['only machine1 matches the preferred scheduling requirements of pod', pod({ nodeAffinity: affinity1 }), [label1, label2, label3], [100, 0, 0]],
    // node1: 2, node5: 2+4+5 = 11, node2: 4 -> 18, 100, 36.
    [
      'all machines matches the preferred scheduling requirements of pod but with different priorities',
      pod({ nodeAffinity: affinity2 }),
      [label1, label5, label2],
      [18, 100, 36],
    ],
    ['added affinity', pod(), [label1, label2], [100, 0], { addedAffinity: affinity1 }],
    [
      'added affinity and pod has default affinity',
      pod({ nodeAffinity: affinity1 }),
      [label1, label2, label5],
      [40, 60, 100],
      { addedAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [pref(3, expr('key', 'In', 'value'))] } },
    ],
    [
      'calculate the priorities correctly even if PreScore is not called',
      pod({ nodeAffinity: affinity2 }),
      [label1, label5, label2],
      [18, 100, 36],
      undefined,
      false,
    ],
    [
      'weight-0 and empty preferred terms are ignored',
      pod({
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [pref(0, expr('foo', 'Exists')), { weight: 9, preference: {} }, pref(1, expr('key', 'Exists'))],
        },
      }),
      [label1, label2],
      [0, 100],
    ],
  ];
  for (const [name, p, labels, want, args, runPreScore] of cases) assert.deepEqual(scoreAll(new NodeAffinity(args), p, labels, runPreScore), want, name);
});

test('NodeAffinity: an unparsable preferred term is a PreScore error, as 1.21', () => {
  const p = pod({ nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [pref(1, expr('foo', 'Gt', 'x'))] } });
  const s = new NodeAffinity().preScore(new CycleState(), p, [new NodeInfo({ metadata: { name: 'n' } })]);
  assert.equal(s.code, Code.Error);
  assert.match(s.message(), /must be an integer/);
});

test('NodeAffinity args: addedAffinity must parse', () => {
  assert.throws(
    () => factory({ addedAffinity: required({ matchExpressions: [expr('foo', 'In')] }) }, undefined as never),
    /parsing addedAffinity.requiredDuringSchedulingIgnoredDuringExecution: .*values set can't be empty/,
  );
  assert.throws(
    () => factory({ addedAffinity: required({ matchFields: [{ key: 'metadata.name', operator: 'Exists' }] }) }, undefined as never),
    /must have one element/,
  );
  assert.throws(
    () => factory({ addedAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [pref(1, expr('a', 'Bogus'))] } }, undefined as never),
    /parsing addedAffinity.preferredDuringSchedulingIgnoredDuringExecution: .*Unsupported value: "Bogus"/,
  );
  assert.ok(factory(undefined, undefined as never) instanceof NodeAffinity);
});

test('NodeAffinity skips Filter and Score for pods with nothing to match', () => {
  const pl = new NodeAffinity();
  assert.equal(pl.preFilter(new CycleState(), pod()).code, Code.Skip);
  assert.equal(pl.preScore(new CycleState(), pod(), [new NodeInfo({ metadata: { name: 'n' } })]).code, Code.Skip);
  const withAdded = new NodeAffinity({ addedAffinity: required({ matchFields: [nameIn('a')] }) });
  assert.equal(withAdded.preFilter(new CycleState(), pod()).code, Code.Success, 'added affinity still filters');
});
