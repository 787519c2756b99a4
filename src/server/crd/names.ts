/**
 * Upstream's naming controller decision for one CRD: which of its requested names it may have
 * (a name another CRD of the group has accepted is refused, one it already holds is kept), the
 * NamesAccepted condition with upstream's reasons and messages, and the Established condition
 * that follows from it.
 */
import type { AcceptedNames } from './definitions.js';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/** The names other CRDs of the group hold: resource names (plural, singular, short) and kinds. */
export interface UsedNames {
  resources: Set<string>;
  kinds: Set<string>;
}

export function usedNamesOf(others: readonly AcceptedNames[]): UsedNames {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const n of others) {
    for (const r of [n.plural, n.singular, ...n.shortNames]) if (r !== '') resources.add(r);
    for (const k of [n.kind, n.listKind]) if (k !== '') kinds.add(k);
  }
  return { resources, kinds };
}

/** upstream's equalToAcceptedOrFresh: undefined when the requested name may be taken, else why not. */
function conflict(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

/** The names a CRD gets and its NamesAccepted condition (upstream's calculateNamesAndConditions). */
export function acceptNames(requested: AcceptedNames, accepted: AcceptedNames, used: UsedNames): { names: AcceptedNames; namesAccepted: Condition } {
  const names: AcceptedNames = { ...accepted, shortNames: [...accepted.shortNames], categories: [...accepted.categories] };
  let refused: { reason: string; message: string } | undefined;
  const check = (reason: string, why: string | undefined, take: () => void): void => {
    if (why === undefined) take();
    else refused = { reason, message: why };
  };
  check('PluralConflict', conflict(requested.plural, accepted.plural, used.resources), () => {
    names.plural = requested.plural;
  });
  check('SingularConflict', conflict(requested.singular, accepted.singular, used.resources), () => {
    names.singular = requested.singular;
  });
  if (requested.shortNames.join('\0') !== accepted.shortNames.join('\0')) {
    const held = new Set(accepted.shortNames);
    const why = requested.shortNames
      .filter((s) => !held.has(s))
      .map((s) => conflict(s, '', used.resources))
      .filter((m) => m !== undefined);
    // utilerrors.NewAggregate: one message alone, several as a bracketed list.
    const message = why.length === 0 ? undefined : why.length === 1 ? why[0] : `[${why.join(', ')}]`;
    check('ShortNamesConflict', message, () => {
      names.shortNames = [...requested.shortNames];
    });
  }
  check('KindConflict', conflict(requested.kind, accepted.kind, used.kinds), () => {
    names.kind = requested.kind;
  });
  check('ListKindConflict', conflict(requested.listKind, accepted.listKind, used.kinds), () => {
    names.listKind = requested.listKind;
  });
  names.categories = [...requested.categories];
  const namesAccepted: Condition = refused
    ? { type: 'NamesAccepted', status: 'False', ...refused }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  return { names, namesAccepted };
}

/** Established once the names are accepted (upstream's establishing controller); it stays so. */
export function establishedCondition(namesAccepted: Condition, old: Condition | undefined): Condition {
  if (old?.status === 'True') return old;
  if (namesAccepted.status === 'True') {
    return { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
  }
  return old ?? { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
}
