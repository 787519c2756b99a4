import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyReport, namespaceConditions } from './namespace-conditions.js';

const T0 = new Date('2026-01-01T00:00:00.123Z');
const T1 = new Date('2026-01-01T00:05:00Z');

test('nothing wrong: the five conditions False with upstream’s reasons, stamped to the second', () => {
  const c = namespaceConditions([], emptyReport(), T0);
  assert.deepEqual(
    c.map((x) => [x.type, x.status, x.reason]),
    [
      ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered'],
      ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions'],
      ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted'],
      ['NamespaceContentRemaining', 'False', 'ContentRemoved'],
      ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers'],
    ],
  );
  assert.equal(c[0].lastTransitionTime, '2026-01-01T00:00:00Z');
});

test('failures and leftovers: upstream’s messages, sorted; unchanged conditions keep their time', () => {
  const report = emptyReport();
  report.discoveryFailures.push('metrics.k8s.io/v1beta1: the server is currently unable to handle the request');
  report.contentFailures.push('deleting pods.: boom', 'deleting secrets.: bang');
  report.remaining.set('pods.', 2);
  report.remaining.set('deployments.apps', 1);
  report.finalizers.set('example.com/f', 1);
  const first = namespaceConditions([], emptyReport(), T0);
  const c = namespaceConditions(first, report, T1);
  const byType = new Map(c.map((x) => [x.type, x]));
  assert.equal(
    byType.get('NamespaceDeletionDiscoveryFailure')?.message,
    'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request',
  );
  assert.equal(byType.get('NamespaceDeletionDiscoveryFailure')?.reason, 'DiscoveryFailed');
  assert.equal(
    byType.get('NamespaceDeletionContentFailure')?.message,
    'Failed to delete all resource types, 2 remaining: [deleting pods.: boom, deleting secrets.: bang]',
  );
  assert.equal(
    byType.get('NamespaceContentRemaining')?.message,
    'Some resources are remaining: deployments.apps has 1 resource instances, pods. has 2 resource instances',
  );
  assert.equal(
    byType.get('NamespaceFinalizersRemaining')?.message,
    'Some content in the namespace has finalizers remaining: example.com/f in 1 resource instances',
  );
  assert.equal(byType.get('NamespaceFinalizersRemaining')?.lastTransitionTime, '2026-01-01T00:05:00Z');
  assert.equal(byType.get('NamespaceDeletionGroupVersionParsingFailure')?.lastTransitionTime, '2026-01-01T00:00:00Z');
});
