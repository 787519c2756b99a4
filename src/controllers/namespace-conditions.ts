/**
 * The status conditions the namespace controller keeps on a terminating namespace, with
 * upstream's types, reasons and messages (pkg/controller/namespace/deletion/
 * status_condition_utils.go): each of the five is True with the trouble, or False with its
 * "all good" text; a condition that did not change keeps its lastTransitionTime.
 */

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** The five types in upstream's order, each with its reason and message when nothing is wrong. */
const MANAGED: readonly (readonly [type: string, okReason: string, okMessage: string])[] = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  ['NamespaceDeletionContentFailure', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
];

/** What one pass over a namespace's content found. */
export interface DeletionReport {
  /** Group versions whose discovery failed, with why (`apps/v1: ...`). */
  discoveryFailures: string[];
  /** Resources whose deletion or listing failed, with why. */
  contentFailures: string[];
  /** Objects left per resource, keyed `<resource>.<group>`. */
  remaining: Map<string, number>;
  /** Objects left per finalizer they carry. */
  finalizers: Map<string, number>;
}

export function emptyReport(): DeletionReport {
  return { discoveryFailures: [], contentFailures: [], remaining: new Map(), finalizers: new Map() };
}

/** Go's utilerrors.NewAggregate(...).Error(): one message alone, several in brackets. */
const aggregate = (msgs: string[]): string => (msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`);

/** The True conditions a report calls for, by type. */
function troubles(report: DeletionReport): Map<string, { reason: string; message: string }> {
  const out = new Map<string, { reason: string; message: string }>();
  if (report.discoveryFailures.length > 0) {
    out.set('NamespaceDeletionDiscoveryFailure', {
      reason: 'DiscoveryFailed',
      message: `Discovery failed for some groups, ${report.discoveryFailures.length} failing: unable to retrieve the complete list of server APIs: ${[...report.discoveryFailures].sort().join(', ')}`,
    });
  }
  if (report.contentFailures.length > 0) {
    out.set('NamespaceDeletionContentFailure', {
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${report.contentFailures.length} remaining: ${aggregate(report.contentFailures)}`,
    });
  }
  const left = [...report.remaining].filter(([, n]) => n > 0).map(([r, n]) => `${r} has ${n} resource instances`);
  if (left.length > 0)
    out.set('NamespaceContentRemaining', { reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${left.sort().join(', ')}` });
  const held = [...report.finalizers].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`);
  if (held.length > 0) {
    out.set('NamespaceFinalizersRemaining', {
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${held.sort().join(', ')}`,
    });
  }
  return out;
}

/** The namespace's new conditions from the previous ones and a report (upstream's Update). */
export function namespaceConditions(previous: readonly NamespaceCondition[], report: DeletionReport, now: Date): NamespaceCondition[] {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z');
  const bad = troubles(report);
  return MANAGED.map(([type, okReason, okMessage]) => {
    const t = bad.get(type);
    const next: NamespaceCondition = t
      ? { type, status: 'True', lastTransitionTime: stamp, reason: t.reason, message: t.message }
      : { type, status: 'False', lastTransitionTime: stamp, reason: okReason, message: okMessage };
    const old = previous.find((c) => c.type === type);
    // Unchanged conditions keep their time, so a pass that finds the same writes nothing.
    if (old && old.status === next.status && old.reason === next.reason && old.message === next.message) return old;
    return next;
  });
}
