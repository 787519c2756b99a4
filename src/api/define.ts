/**
 * Builders that fill the defaults every definition shares, so each resource file states only
 * what is particular to its type.
 */
import type { FieldGetter, ResourceDefinition, Verb } from './types.js';
import type { Obj } from '../machinery/object.js';
import { bool, num, pathReader, str } from '../machinery/fields.js';

/** Groups served under their bare, historical names; every other group carries the brand domain. */
const UNBRANDED_GROUPS: ReadonlySet<string> = new Set(['', 'apps', 'autoscaling', 'batch', 'extensions', 'policy']);

/** What a resource file states; the rest defaults (singular: lower-case kind, nameRule: subdomain). */
export type ResourceSpec = Omit<ResourceDefinition, 'groupStem' | 'branded' | 'version' | 'singular' | 'nameRule'> &
  Partial<Pick<ResourceDefinition, 'version' | 'singular' | 'nameRule'>>;

/** A builder of definitions in one group at its served version; `branded` follows the group. */
export function apiGroup(groupStem: string, version: string): (spec: ResourceSpec) => ResourceDefinition {
  const branded = !UNBRANDED_GROUPS.has(groupStem);
  return (spec) => ({ groupStem, branded, version, singular: spec.kind.toLowerCase(), nameRule: 'subdomain', ...spec });
}

/** Verbs of resources that serve every verb but deletecollection (namespaces). */
export const WITHOUT_DELETECOLLECTION: readonly Verb[] = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/** The shared part of every review: create-only, never stored, no name rule beyond the path. */
export const REVIEW = { verbs: ['create'] as readonly Verb[], virtual: true, nameRule: 'path-segment' } as const;

/** A field-selector getter of a string field; absent reads as '' (Go's zero value). */
export function text(path: string): FieldGetter {
  const read = pathReader(path);
  return (obj: Obj) => str(read(obj));
}

/** A field-selector getter of an integer field, formatted as upstream's strconv.Itoa (absent: "0"). */
export function count(path: string): FieldGetter {
  const read = pathReader(path);
  return (obj: Obj) => String(num(read(obj)));
}

/** A field-selector getter of a boolean field, formatted as strconv.FormatBool (absent: "false"). */
export function flag(path: string): FieldGetter {
  const read = pathReader(path);
  return (obj: Obj) => String(bool(read(obj)));
}
