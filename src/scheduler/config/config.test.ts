import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultPlugins, mergePluginSet, resolveConfiguration } from './defaults.js';
import { validateConfiguration } from './validation.js';

test('default v1beta1 plugin set and weights (Kubernetes 1.21)', () => {
  const d = defaultPlugins();
  assert.deepEqual(
    d.queueSort.map((p) => p.name),
    ['PrioritySort'],
  );
  assert.deepEqual(
    d.postFilter.map((p) => p.name),
    ['DefaultPreemption'],
  );
  assert.deepEqual(
    d.bind.map((p) => p.name),
    ['DefaultBinder'],
  );
  const weights = Object.fromEntries(d.score.map((p) => [p.name, p.weight]));
  assert.deepEqual(weights, {
    NodeResourcesBalancedAllocation: 1,
    ImageLocality: 1,
    InterPodAffinity: 1,
    NodeResourcesLeastAllocated: 1,
    NodeAffinity: 1,
    NodePreferAvoidPods: 10000,
    PodTopologySpread: 2,
    TaintToleration: 1,
  });
  assert.ok(!d.filter.some((p) => p.name === 'AzureDiskLimits') === false, 'three cloud limits on: EBS, GCEPD, AzureDisk');
  assert.ok(!d.filter.some((p) => p.name === 'CinderLimits'), 'the fourth (Cinder) is off');
  assert.ok(!d.score.some((p) => ['NodeResourcesMostAllocated', 'RequestedToCapacityRatio', 'NodeLabel', 'ServiceAffinity'].includes(p.name)));
});

test('mergePluginSet: disabled, * and enabled', () => {
  const defaults = [{ name: 'A' }, { name: 'B' }];
  assert.deepEqual(mergePluginSet(defaults, undefined), defaults);
  assert.deepEqual(mergePluginSet(defaults, { disabled: [{ name: 'A' }], enabled: [{ name: 'C', weight: 3 }] }), [{ name: 'B' }, { name: 'C', weight: 3 }]);
  assert.deepEqual(mergePluginSet(defaults, { disabled: [{ name: '*' }], enabled: [{ name: 'C' }] }), [{ name: 'C' }]);
});

test('resolveConfiguration defaults', () => {
  const r = resolveConfiguration();
  assert.equal(r.profiles.length, 1);
  assert.equal(r.profiles[0].schedulerName, 'default-scheduler');
  assert.equal(r.percentageOfNodesToScore, 0);
  assert.equal(r.podInitialBackoffMs, 1000);
  assert.equal(r.podMaxBackoffMs, 10000);
});

test('validation: unique names and one common queue sort', () => {
  assert.deepEqual(validateConfiguration({ profiles: [{ schedulerName: 'a' }, { schedulerName: 'b' }] }), []);
  const dup = validateConfiguration({ profiles: [{ schedulerName: 'a' }, { schedulerName: 'a' }] });
  assert.deepEqual(
    dup.map((e) => [e.type, e.field]),
    [['FieldValueDuplicate', 'profiles[1].schedulerName']],
  );
  // A lone unnamed profile is named by defaulting; among several, a name is required.
  assert.deepEqual(validateConfiguration({ profiles: [{}] }), []);
  const missing = validateConfiguration({ profiles: [{ schedulerName: 'a' }, {}] });
  assert.deepEqual(
    missing.map((e) => [e.type, e.field]),
    [['FieldValueRequired', 'profiles[1].schedulerName']],
  );
  const qs = validateConfiguration({
    profiles: [{ schedulerName: 'a' }, { schedulerName: 'b', plugins: { queueSort: { disabled: [{ name: '*' }], enabled: [{ name: 'Other' }] } } }],
  });
  assert.deepEqual(
    qs.map((e) => [e.field, e.detail]),
    [['profiles[1].plugins.queueSort', 'has to match for all profiles']],
  );
  // Upstream 1.21 compares queue-sort args only for the plugin the first profile names explicitly.
  const args = validateConfiguration({
    profiles: [
      { schedulerName: 'a', plugins: { queueSort: { enabled: [{ name: 'PrioritySort' }] } } },
      { schedulerName: 'b', plugins: { queueSort: { enabled: [{ name: 'PrioritySort' }] } }, pluginConfig: [{ name: 'PrioritySort', args: { x: 1 } }] },
    ],
  });
  assert.equal(args.length, 1);
  assert.equal(args[0].field, 'profiles[1].pluginConfig.args');
  assert.equal(validateConfiguration({ percentageOfNodesToScore: 101 })[0].detail, 'not in valid range [0-100]');
});
