/**
 * The field manager of a resource scope, and the ownership a non-apply write records. Loaded
 * on the first write (with the server-side-apply machinery), not at start-up. With
 * ServerSideApply off, writes record no ownership and clear what a client sends (upstream's
 * BeforeCreate/BeforeUpdate).
 */
import { schemasOf, upstreamGroup } from '../../api/schema/index.js';
import { FieldManager } from '../../apply/field-manager.js';
import { FieldSet } from '../../apply/ssa/field-set.js';
import { fieldElement, type PathElement } from '../../apply/ssa/path-element.js';
import { type TypeRef, typeOfKind } from '../../apply/ssa/typed-schema.js';
import { isPlainObject, type Obj } from '../../machinery/object.js';
import type { Pace } from '../../machinery/pace.js';
import type { ResourceInfo } from '../../registry/resource-info.js';
import type { FieldPath, SubresourceDeclaration } from '../../registry/subresources.js';

/** What a field manager is built from: a resource scope (server/scope.ts). */
export interface FieldManagerSource {
  readonly info: ResourceInfo;
  readonly subresource: string;
  readonly declaration: SubresourceDeclaration | undefined;
  readonly kind: string;
  readonly apiVersion: string;
}

type Fields = NonNullable<TypeRef['atom']['map']>['fields'] | undefined;

/** Every field of the type beside the owned paths, along them: what a write of only those paths resets. */
function allBut(fields: Fields, owned: readonly FieldPath[], prefix: PathElement[], into: FieldSet): void {
  for (const [name, field] of fields ?? []) {
    const under = owned.filter((p) => p[0] === name);
    const path = [...prefix, fieldElement(name)];
    if (under.length === 0) into.insert(path);
    else if (under.every((p) => p.length > 1))
      allBut(
        field.type.atom.map?.fields,
        under.map((p) => p.slice(1)),
        path,
        into,
      );
  }
}

/**
 * The fields a write of the scope does not change (the registry resets them): a subresource
 * write changes only what it owns; a main-resource write leaves what its subresources keep.
 */
function resetFieldsOf(scope: FieldManagerSource, type: TypeRef): FieldSet | undefined {
  if (scope.declaration !== undefined) {
    const set = new FieldSet();
    allBut(type.atom.map?.fields, scope.declaration.owns, [], set);
    return set;
  }
  const kept = scope.info.subresources.filter((s) => s.keptOnMainWrite).flatMap((s) => s.owns);
  if (kept.length === 0) return undefined;
  const set = new FieldSet();
  for (const path of kept) set.insert(path.map((name) => fieldElement(name)));
  return set;
}

/** The field manager of a scope (built once per scope; timestamps read the clock at each write, as upstream's). */
export function buildFieldManager(scope: FieldManagerSource): FieldManager {
  const def = scope.info.def;
  // Ownership is of the stored object, whatever kind a subresource answers in (a Scale writes a Deployment's replicas).
  const type = typeOfKind(schemasOf(def), upstreamGroup(def.groupStem, def.branded), def.version, scope.info.kind);
  return new FieldManager({
    type,
    apiVersion: scope.info.apiVersion,
    kind: scope.info.kind,
    subresource: scope.subresource,
    resetFields: resetFieldsOf(scope, type),
    goZero: scope.info.goFields?.zero,
    now: () => new Date(),
  });
}

/**
 * Records a non-apply write's ownership on next (the registry calls it on the defaulted object,
 * as upstream's field manager sees the decoded one), over live (undefined on create). Without a
 * field manager (ServerSideApply off), managedFields are cleared. A promise only when the work
 * yielded to the event loop (the request's pace was due).
 */
export function trackWrite(fm: FieldManager | undefined, next: Obj, live: Obj | undefined, manager: string, pace?: Pace): void | Promise<void> {
  if (fm === undefined) {
    if (isPlainObject(next.metadata)) delete next.metadata.managedFields;
    return;
  }
  const done = fm.updatePaced(live, next, manager, pace);
  if (done instanceof Promise) return done.then(() => undefined);
}
