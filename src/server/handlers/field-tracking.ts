/**
 * The field manager of a request's kind and subresource, and the ownership a non-apply write
 * records. With ServerSideApply off, writes record no ownership and clear what a client sends
 * (upstream's BeforeCreate/BeforeUpdate).
 */
import { apiSchemas, upstreamGroup } from '../../api/schema/index.js';
import { FieldManager } from '../../apply/field-manager.js';
import { FieldSet } from '../../apply/ssa/field-set.js';
import { fieldElement } from '../../apply/ssa/path-element.js';
import { type TypeRef, typeOfKind } from '../../apply/ssa/typed-schema.js';
import { isPlainObject, type Obj } from '../../machinery/object.js';
import type { ResourceInfo } from '../../registry/resource-info.js';
import { managerOf } from './field-manager-name.js';
import type { ResourceRequest } from './resource-request.js';

/** The fields a write of this subresource does not change (they are reset by the registry). */
function resetFieldsOf(info: ResourceInfo, subresource: string, type: TypeRef): FieldSet | undefined {
  const STATUS = fieldElement('status');
  if (subresource === '') return info.def.subresources?.status ? new FieldSet().insert([STATUS]) : undefined;
  // A subresource write changes only its own field: every other top-level field is reset.
  const owned = subresource === 'status' ? ['status'] : ['spec', 'finalizers'];
  const set = new FieldSet();
  const fields = type.atom.map?.fields;
  for (const name of fields?.keys() ?? []) if (name !== owned[0]) set.insert([fieldElement(name)]);
  if (owned.length > 1) {
    const inner = fields?.get(owned[0])?.type.atom.map?.fields;
    for (const name of inner?.keys() ?? []) if (name !== owned[1]) set.insert([fieldElement(owned[0]), fieldElement(name)]);
  }
  return set;
}

const typesOf = new WeakMap<ResourceInfo, TypeRef>();

function typeOf(info: ResourceInfo): TypeRef {
  let t = typesOf.get(info);
  if (t === undefined) {
    const def = info.def;
    t = typeOfKind(apiSchemas(), upstreamGroup(def.groupStem, def.branded), def.version, def.kind);
    typesOf.set(info, t);
  }
  return t;
}

const resetFieldsCache = new WeakMap<ResourceInfo, Map<string, FieldSet | undefined>>();

/** The field manager of the request's kind and subresource; undefined when ServerSideApply is off. */
export function fieldManagerFor(r: ResourceRequest): FieldManager | undefined {
  if (!r.serverSideApply) return undefined;
  const info = r.store.info;
  const type = typeOf(info);
  let bySubresource = resetFieldsCache.get(info);
  if (bySubresource === undefined) resetFieldsCache.set(info, (bySubresource = new Map()));
  if (!bySubresource.has(r.subresource)) bySubresource.set(r.subresource, resetFieldsOf(info, r.subresource, type));
  const now = r.ctx.now;
  return new FieldManager({
    type,
    apiVersion: info.apiVersion,
    kind: info.kind,
    subresource: r.subresource,
    resetFields: bySubresource.get(r.subresource),
    now: () => now,
  });
}

/**
 * Records a non-apply write's ownership on next (the registry calls it on the defaulted object,
 * as upstream's field manager sees the decoded one), over live (undefined on create). With
 * ServerSideApply off, managedFields are cleared.
 */
export function trackWrite(r: ResourceRequest, next: Obj, live: Obj | undefined): void {
  const fm = fieldManagerFor(r);
  if (fm === undefined) {
    if (isPlainObject(next.metadata)) delete next.metadata.managedFields;
    return;
  }
  fm.update(live, next, managerOf(r));
}
