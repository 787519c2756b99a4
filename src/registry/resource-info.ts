/**
 * A resource definition resolved for one brand: real group name, apiVersion, storage prefix.
 * Computed once at start-up so the request path never rebuilds strings.
 */
import { ALL_VERBS, type Conversion, type ResourceDefinition, type Verb } from '../api/types.js';
import type { Brand } from '../machinery/brand.js';
import type { GroupResource } from '../machinery/status.js';
import { SUBRESOURCES, type SubresourceDeclaration } from './subresources.js';
import { type GoZeroFields, goZeroFieldsFor } from '../codec/protobuf/index.js';

export interface ResourceInfo {
  def: ResourceDefinition;
  group: string;
  version: string;
  /** `v1` for core, `<group>/<version>` otherwise. */
  apiVersion: string;
  kind: string;
  listKind: string;
  plural: string;
  namespaced: boolean;
  verbs: ReadonlySet<Verb>;
  groupResource: GroupResource;
  /** Storage key prefix, `/registry/<group>/<plural>/` (core: `/registry/<plural>/`). */
  keyPrefix: string;
  /** Present when this view shares another definition's storage. */
  conversion?: Conversion;
  /** Field-selector fields this type supports, including metadata.name / metadata.namespace. */
  fieldSelectorFields: ReadonlySet<string>;
  /** The subresources the definition declares, in its order. */
  subresources: readonly SubresourceDeclaration[];
  /**
   * The fields upstream's Go type always writes (value structs, fields without omitempty); absent
   * for custom resources, which upstream keeps unstructured, and kinds with no Go type known.
   */
  goFields: GoZeroFields | undefined;
}

/** The root of every key the registry stores; an etcd store puts its `--etcd-prefix` in its place. */
export const STORAGE_ROOT = '/registry';

/** `/registry/<plural>/` as upstream keys built-in types (plurals are unique across groups). */
export function storagePrefix(plural: string): string {
  return `${STORAGE_ROOT}/${plural}/`;
}

/** Resolves a definition under a brand. */
export function resolveResource(def: ResourceDefinition, brand: Brand): ResourceInfo {
  const group = def.groupStem === '' ? '' : brand.group(def.groupStem, def.branded);
  const keyPrefix = def.storagePrefix ?? storagePrefix(def.storage ? def.storage.plural : def.plural);
  const fields = new Set(['metadata.name', 'metadata.namespace', ...Object.keys(def.fieldSelectors ?? {})]);
  const apiVersion = group === '' ? def.version : `${group}/${def.version}`;
  if (!def.namespaced) fields.delete('metadata.namespace');
  return {
    def,
    group,
    version: def.version,
    apiVersion,
    kind: def.kind,
    listKind: def.listKind ?? `${def.kind}List`,
    plural: def.plural,
    namespaced: def.namespaced,
    verbs: new Set(def.verbs ?? ALL_VERBS),
    groupResource: { group, resource: def.plural },
    keyPrefix,
    conversion: def.storage?.conversion,
    fieldSelectorFields: fields,
    subresources: declaredSubresources(def),
    goFields: def.storagePrefix === undefined ? goZeroFieldsFor(apiVersion, def.kind) : undefined,
  };
}

/** The declarations of the subresources a definition turns on; an unknown one is a bug in the catalogue. */
function declaredSubresources(def: ResourceDefinition): SubresourceDeclaration[] {
  const out: SubresourceDeclaration[] = [];
  for (const [name, on] of Object.entries(def.subresources ?? {})) {
    const declared = SUBRESOURCES.get(name);
    if (declared === undefined) throw new Error(`${def.kind} declares an unknown subresource ${name}`);
    if (on) out.push(declared);
  }
  return out;
}

/** The declaration of one subresource of a resource, if it declares it. */
export function subresourceOf(info: ResourceInfo, name: string): SubresourceDeclaration | undefined {
  return info.subresources.find((s) => s.name === name);
}

/** The storage key of one object. */
export function objectKey(info: ResourceInfo, namespace: string, name: string): string {
  return info.namespaced ? `${info.keyPrefix}${namespace}/${name}` : `${info.keyPrefix}${name}`;
}

/** The storage prefix of a list: one namespace, or all of them. */
export function listPrefix(info: ResourceInfo, namespace: string): string {
  return info.namespaced && namespace !== '' ? `${info.keyPrefix}${namespace}/` : info.keyPrefix;
}
