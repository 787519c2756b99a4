/**
 * Every write verb, as a way to deliver one hostile fragment: create, update, the three patch
 * types, apply, the status/binding/finalize subresources and delete/deletecollection with a
 * DeleteOptions body. A family supplies the fragment (raw JSON text) and the key it sits under;
 * this file picks the verb, content type and parameters, and says what the case may change.
 */
import { APPLY_TYPE, configMap, JSON_PATCH_TYPE, JSON_TYPE, jsonPatchAdd, MERGE_TYPE, namespace, pod, SMP_TYPE, splice, YAML_TYPE } from './bodies.js';
import type { HostileCase, LaneContext } from './hostile-case.js';
import type { Rng } from './prng.js';

export type WriteVerb =
  | 'create'
  | 'update'
  | 'merge'
  | 'strategic'
  | 'json-patch'
  | 'apply'
  | 'apply-create'
  | 'status'
  | 'binding'
  | 'finalize'
  | 'delete'
  | 'deletecollection';

export const WRITE_VERBS: readonly WriteVerb[] = [
  'create',
  'update',
  'merge',
  'strategic',
  'json-patch',
  'apply',
  'apply-create',
  'status',
  'binding',
  'finalize',
  'delete',
  'deletecollection',
];

/** A write case before the family names it and sets its expectation. */
export type WriteCase = Omit<HostileCase, 'family' | 'expect'> & {
  verb: WriteVerb;
  /** fieldValidation=Strict was asked and the fragment sits where no field is known. */
  strictUnknown: boolean;
};

export interface Placement {
  /** Raw JSON text of the hostile value. */
  fragment: string;
  /** The key it is stored under; unknown to every schema unless the family says otherwise. */
  key?: string;
  /** Where the key goes: top level of the object, or inside metadata. */
  inMetadata?: boolean;
  /** The key is a field the schema does not know (so Strict refuses it and it is never stored). */
  unknown?: boolean;
}

let sequence = 0;
/** A fresh object name no other case uses (creates never collide). */
export function freshName(rng: Rng): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${rng.name(6)}-${sequence}`;
}

function withQuery(path: string, params: string[]): string {
  return params.length === 0 ? path : `${path}?${params.join('&')}`;
}

/** The write verbs' fieldValidation choice: unset (server default Warn) or one of the three. */
function validationParam(rng: Rng): string | undefined {
  return rng.pick([undefined, undefined, 'Strict', 'Warn', 'Ignore']);
}

/** Builds a write case carrying the placement on the given (or a random) verb. */
export function placeWrite(rng: Rng, ctx: LaneContext, p: Placement, verb: WriteVerb = rng.pick(WRITE_VERBS)): WriteCase {
  const key = p.key ?? 'xHostile';
  const unknown = p.unknown ?? true;
  const at = p.inMetadata ? ['metadata'] : [];
  const never = unknown ? [[...at, key]] : [];
  const params: string[] = [];
  const validation = verb === 'delete' || verb === 'deletecollection' ? undefined : validationParam(rng);
  if (validation) params.push(`fieldValidation=${validation}`);
  if (rng.chance(0.15) && verb !== 'delete' && verb !== 'deletecollection') params.push('dryRun=All');
  const strictUnknown = unknown && validation === 'Strict';
  const base = { verb, strictUnknown, neverStored: never };
  const objType = () => rng.pick([JSON_TYPE, YAML_TYPE]);
  switch (verb) {
    case 'create': {
      const name = freshName(rng);
      return {
        ...base,
        variant: 'create',
        method: 'POST',
        path: withQuery(ctx.cms, params),
        headers: { 'content-type': objType() },
        body: splice(configMap(name, ctx.ns), at, key, p.fragment),
        creates: `${ctx.cms}/${name}`,
      };
    }
    case 'update':
      return {
        ...base,
        variant: 'update',
        method: 'PUT',
        path: withQuery(ctx.cm, params),
        headers: { 'content-type': objType() },
        body: splice(configMap('cm', ctx.ns), at, key, p.fragment),
        target: ctx.cm,
      };
    case 'merge':
    case 'strategic': {
      const body = p.inMetadata ? `{"metadata":{${JSON.stringify(key)}:${p.fragment}}}` : `{${JSON.stringify(key)}:${p.fragment}}`;
      const target = rng.pick([ctx.cm, ctx.deploy]);
      return {
        ...base,
        variant: verb,
        method: 'PATCH',
        path: withQuery(target, params),
        headers: { 'content-type': verb === 'merge' ? MERGE_TYPE : SMP_TYPE },
        body,
        target,
      };
    }
    case 'json-patch': {
      const target = rng.pick([ctx.cm, ctx.deploy]);
      const path = `${p.inMetadata ? '/metadata' : ''}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      return {
        ...base,
        variant: verb,
        method: 'PATCH',
        path: withQuery(target, params),
        headers: { 'content-type': JSON_PATCH_TYPE },
        body: jsonPatchAdd(path, p.fragment),
        target,
      };
    }
    case 'apply':
    case 'apply-create': {
      params.push(`fieldManager=${rng.pick(['hostile', 'h2'])}`);
      if (rng.chance(0.3)) params.push('force=true');
      const name = verb === 'apply' ? 'cm' : freshName(rng);
      const path = `${ctx.cms}/${name}`;
      const body = splice(configMap(name, ctx.ns), at, key, p.fragment);
      return {
        ...base,
        variant: verb,
        method: 'PATCH',
        path: withQuery(path, params),
        headers: { 'content-type': APPLY_TYPE },
        body,
        ...(verb === 'apply' ? { target: path } : { creates: path }),
      };
    }
    case 'status': {
      if (rng.chance(0.5)) {
        return {
          ...base,
          variant: 'status put',
          method: 'PUT',
          path: withQuery(`${ctx.pod}/status`, params),
          headers: { 'content-type': objType() },
          body: splice(pod('pod', ctx.ns), at, key, p.fragment),
          target: ctx.pod,
        };
      }
      const body = p.inMetadata
        ? `{"metadata":{${JSON.stringify(key)}:${p.fragment}}}`
        : `{"status":{"observedGeneration":1},${JSON.stringify(key)}:${p.fragment}}`;
      return {
        ...base,
        variant: 'status patch',
        method: 'PATCH',
        path: withQuery(`${ctx.deploy}/status`, params),
        headers: { 'content-type': rng.pick([MERGE_TYPE, SMP_TYPE]) },
        body,
        target: ctx.deploy,
      };
    }
    case 'binding': {
      const binding = {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: 'pod', namespace: ctx.ns },
        target: { apiVersion: 'v1', kind: 'Node', name: `node-${rng.int(0, 3)}` },
      };
      return {
        ...base,
        variant: verb,
        method: 'POST',
        path: withQuery(`${ctx.pod}/binding`, params),
        headers: { 'content-type': objType() },
        body: splice(binding, at, key, p.fragment),
        target: ctx.pod,
      };
    }
    case 'finalize': {
      const ns = { ...namespace(ctx.nsObjName), spec: { finalizers: rng.pick([['kubernetes'], []]) } };
      return {
        ...base,
        variant: verb,
        method: 'PUT',
        path: withQuery(`${ctx.nsObj}/finalize`, params),
        headers: { 'content-type': objType() },
        body: splice(ns, at, key, p.fragment),
        target: ctx.nsObj,
      };
    }
    case 'delete':
    case 'deletecollection': {
      const options = { apiVersion: 'v1', kind: 'DeleteOptions', ...(rng.chance(0.5) ? { propagationPolicy: 'Background' } : {}) };
      const body = splice(options, at, key, p.fragment);
      const headers = { 'content-type': JSON_TYPE };
      if (verb === 'delete') return { ...base, neverStored: [], variant: verb, method: 'DELETE', path: ctx.cm, headers, body, target: ctx.cm };
      return { ...base, neverStored: [], variant: verb, method: 'DELETE', path: `${ctx.cms}?labelSelector=app%3Dhostile`, headers, body, collection: ctx.cms };
    }
  }
}
