import assert from 'node:assert/strict';
import { test } from 'node:test';
import { policyProfile, providerPlugins, withProvider } from './legacy-policy.js';

const enabled = (p: ReturnType<typeof policyProfile>['profile'], ep: 'filter' | 'preFilter' | 'score' | 'preScore' | 'reserve') =>
  (p.plugins?.[ep]?.enabled ?? []).map((e) => (e.weight === undefined ? e.name : `${e.name}:${e.weight}`));

test('a Policy without predicates or priorities runs the legacy defaults', () => {
  const { profile } = policyProfile({ kind: 'Policy', apiVersion: 'v1' }, 'default-scheduler');
  assert.deepEqual(enabled(profile, 'filter'), [
    'NodeUnschedulable',
    'NodeResourcesFit',
    'NodeName',
    'NodePorts',
    'NodeAffinity',
    'VolumeRestrictions',
    'TaintToleration',
    'EBSLimits',
    'GCEPDLimits',
    'NodeVolumeLimits',
    'AzureDiskLimits',
    'VolumeBinding',
    'VolumeZone',
    'PodTopologySpread',
    'InterPodAffinity',
  ]);
  assert.deepEqual(enabled(profile, 'score'), [
    'NodeResourcesBalancedAllocation:1',
    'PodTopologySpread:2',
    'ImageLocality:1',
    'InterPodAffinity:1',
    'NodeResourcesLeastAllocated:1',
    'NodeAffinity:1',
    'NodePreferAvoidPods:10000',
    'TaintToleration:1',
  ]);
  assert.deepEqual(enabled(profile, 'reserve'), ['VolumeBinding']);
  assert.deepEqual(profile.pluginConfig, [{ name: 'PodTopologySpread', args: { defaultingType: 'System' } }]);
  // Every default is disabled: the profile runs exactly what the policy says.
  assert.deepEqual(profile.plugins?.filter?.disabled, [{ name: '*' }]);
});

test('custom predicate and priority arguments become NodeLabel and ServiceAffinity args', () => {
  const { profile } = policyProfile(
    {
      predicates: [{ name: 'zone', argument: { labelsPresence: { labels: ['zone'], presence: true } } }],
      priorities: [
        { name: 'ssd', weight: 2, argument: { labelPreference: { label: 'ssd', presence: true } } },
        { name: 'spread', weight: 3, argument: { serviceAntiAffinity: { label: 'rack' } } },
      ],
    },
    's',
  );
  assert.deepEqual(enabled(profile, 'score'), ['NodeLabel:2', 'ServiceAffinity:3']);
  assert.deepEqual(profile.pluginConfig?.find((p) => p.name === 'NodeLabel')?.args, { presentLabels: ['zone'], presentLabelsPreference: ['ssd'] });
});

test("a priority's weight must be positive", () => {
  assert.throws(() => policyProfile({ priorities: [{ name: 'LeastRequestedPriority', weight: 0 }] }, 's'), {
    message: 'priority LeastRequestedPriority should have a positive weight applied to it or it has overflown',
  });
  assert.throws(() => policyProfile({ priorities: [{ name: 'Nope', weight: 1 }] }, 's'), { message: 'priority type not found for "Nope"' });
});

test('algorithm providers', () => {
  assert.ok(providerPlugins('ClusterAutoscalerProvider').score.some((p) => p.name === 'NodeResourcesMostAllocated'));
  assert.throws(() => providerPlugins('X'), { message: 'algorithm provider "X" is not registered' });
  const p = withProvider({ schedulerName: 'a', plugins: { score: { disabled: [{ name: 'ImageLocality' }] } } }, 'DefaultProvider');
  assert.ok(!(p.plugins?.score?.enabled ?? []).some((e) => e.name === 'ImageLocality'));
});
