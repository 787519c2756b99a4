/**
 * Apply conflicts (structured-merge-diff's merge.Conflicts) and the 409 upstream answers with
 * (fieldmanager/internal/conflict.go NewConflictError): one FieldManagerConflict cause per
 * field, and a message naming each manager and its fields.
 */
import { goQuote } from '../../machinery/validation.js';
import { compareGoStrings } from '../../machinery/validation.js';
import { StatusError } from '../../machinery/status.js';
import type { VersionedSet } from './managed-fields.js';
import { parseManagerIdentifier } from './managed-fields.js';
import { type Path, pathString } from './path-element.js';

export interface Conflict {
  /** The manager identifier of the owner. */
  readonly manager: string;
  readonly path: Path;
}

/** Thrown by an apply that would change fields other managers own. */
export class ApplyConflicts extends Error {
  constructor(readonly conflicts: readonly Conflict[]) {
    super(conflictMessage(conflicts));
  }
}

/** ConflictsFromManagers: each manager's conflicting paths, managers in identifier order. */
export function conflictsFromManagers(sets: ReadonlyMap<string, VersionedSet>): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...sets.keys()].sort(compareGoStrings)) {
    for (const path of (sets.get(manager) as VersionedSet).set.paths()) out.push({ manager, path });
  }
  return out;
}

/** printManager: `"name"`, with ` with subresource "status"` and ` using apps/v1` for updaters. */
export function printManager(id: string): string {
  const info = parseManagerIdentifier(id);
  let s = goQuote(info.manager);
  if (info.subresource) s = `${s} with subresource ${goQuote(info.subresource)}`;
  if (info.operation === 'Update') return `${s} using ${info.apiVersion ?? ''}`;
  return s;
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0];
    return `Apply failed with 1 conflict: conflict with ${printManager(c.manager)}: ${pathString(c.path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort(compareGoStrings)) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of byManager.get(manager) as Path[]) lines.push(`- ${pathString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** NewApplyConflict: 409 Conflict with a FieldManagerConflict cause per field. */
export function applyConflictError(err: ApplyConflicts): StatusError {
  const causes = err.conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: pathString(c.path) }));
  return new StatusError(409, 'Conflict', err.message, { causes });
}
