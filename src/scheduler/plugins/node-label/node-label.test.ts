import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { Code } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { ERR_REASON_PRESENCE_VIOLATED, factory, NodeLabel, type NodeLabelArgs } from './node-label.js';

const pod: Pod = { metadata: { name: 'p' }, spec: { containers: [] } };

// Upstream's TestNodeLabelFilter: node labels foo and bar.
test('NodeLabel.filter (upstream cases)', () => {
  const ni = new NodeInfo({ metadata: { name: 'n', labels: { foo: 'any value', bar: 'any value' } } });
  const U = Code.UnschedulableAndUnresolvable;
  const cases: [string, NodeLabelArgs, Code][] = [
    ['present label does not match', { presentLabels: ['baz'] }, U],
    ['absent label does not match', { absentLabels: ['baz'] }, Code.Success],
    ['one of two present labels matches', { presentLabels: ['foo', 'baz'] }, U],
    ['one of two absent labels matches', { absentLabels: ['foo', 'baz'] }, U],
    ['all present labels match', { presentLabels: ['foo', 'bar'] }, Code.Success],
    ['all absent labels match', { absentLabels: ['foo', 'bar'] }, U],
    ['both present and absent label matches', { presentLabels: ['foo'], absentLabels: ['bar'] }, U],
    ['neither present nor absent label matches', { presentLabels: ['foz'], absentLabels: ['baz'] }, U],
    ["present label matches and absent label doesn't match", { presentLabels: ['foo'], absentLabels: ['baz'] }, Code.Success],
    ["present label doesn't match and absent label matches", { presentLabels: ['foz'], absentLabels: ['bar'] }, U],
    ['no label', {}, Code.Success],
  ];
  for (const [name, args, code] of cases) {
    const s = new NodeLabel(args).filter(new CycleState(), pod, ni);
    assert.equal(s.code, code, name);
    assert.deepEqual(s.reasons, code === Code.Success ? [] : [ERR_REASON_PRESENCE_VIOLATED], name);
  }
});

// Upstream's TestNodeLabelScore: node labels foo and bar (empty values).
test('NodeLabel.score (upstream cases)', () => {
  const ni = new NodeInfo({ metadata: { name: 'machine1', labels: { foo: '', bar: '' } } });
  const cases: [string, NodeLabelArgs, number][] = [
    ['one present label match', { presentLabelsPreference: ['foo'] }, 100],
    ['one present label mismatch', { presentLabelsPreference: ['somelabel'] }, 0],
    ['two present labels match', { presentLabelsPreference: ['foo', 'bar'] }, 100],
    ['two present labels mismatch', { presentLabelsPreference: ['somelabel1', 'somelabel2'] }, 0],
    ['two present labels only one matches', { presentLabelsPreference: ['foo', 'somelabel'] }, 50],
    ['one absent label match', { absentLabelsPreference: ['foo'] }, 0],
    ['one absent label mismatch', { absentLabelsPreference: ['somelabel'] }, 100],
    ['two absent labels match', { absentLabelsPreference: ['foo', 'bar'] }, 0],
    ['two absent labels mismatch', { absentLabelsPreference: ['somelabel1', 'somelabel2'] }, 100],
    ['two absent labels only one matches', { absentLabelsPreference: ['foo', 'somelabel'] }, 50],
    [
      'two present labels match, two absent labels mismatch',
      { presentLabelsPreference: ['foo', 'bar'], absentLabelsPreference: ['somelabel1', 'somelabel2'] },
      100,
    ],
    [
      'two present labels both mismatch, two absent labels both match',
      { presentLabelsPreference: ['somelabel1', 'somelabel2'], absentLabelsPreference: ['foo', 'bar'] },
      0,
    ],
    [
      'two present labels one matches, two absent labels mismatch',
      { presentLabelsPreference: ['foo', 'somelabel'], absentLabelsPreference: ['somelabel1', 'somelabel2'] },
      75,
    ],
    ['no label preference', {}, 0],
    ['three preferences, one met: integer division', { presentLabelsPreference: ['foo', 'x', 'y'] }, 33],
  ];
  for (const [name, args, want] of cases) assert.equal(new NodeLabel(args).score(new CycleState(), pod, ni), want, name);
});

// Upstream's TestNodeLabelFilterWithoutNode / TestNodeLabelScoreWithoutNode.
test('NodeLabel without a node object', () => {
  assert.equal(new NodeLabel().filter(new CycleState(), pod, new NodeInfo()).code, Code.Error);
  assert.throws(() => new NodeLabel().score(new CycleState(), pod, new NodeInfo()));
});

// Upstream's TestValidateNodeLabelArgs.
test('NodeLabel args validation', () => {
  assert.doesNotThrow(() =>
    factory({ presentLabels: ['a'], absentLabels: ['b'], presentLabelsPreference: ['a'], absentLabelsPreference: ['b'] }, undefined as never),
  );
  assert.throws(() => factory({ presentLabels: ['label1', 'label2'], absentLabels: ['label2', 'label3'] }, undefined as never), {
    message: 'presentLabels[1]: Invalid value: "label2": conflict with absentLabels[0]',
  });
  assert.throws(() => factory({ presentLabelsPreference: ['label1', 'label2'], absentLabelsPreference: ['label2', 'label3'] }, undefined as never), {
    message: 'presentLabelsPreference[1]: Invalid value: "label2": conflict with absentLabelsPreference[0]',
  });
  assert.throws(
    () =>
      factory(
        {
          presentLabels: ['label1', 'label2'],
          absentLabels: ['label2', 'label3'],
          presentLabelsPreference: ['label1', 'label2'],
          absentLabelsPreference: ['label2', 'label3'],
        },
        undefined as never,
      ),
    {
      message:
        '[presentLabels[1]: Invalid value: "label2": conflict with absentLabels[0], presentLabelsPreference[1]: Invalid value: "label2": conflict with absentLabelsPreference[0]]',
    },
  );
});
