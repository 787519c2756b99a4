/**
 * The published OpenAPI definitions of a custom resource version (upstream's builder for CRDs):
 * the kind named `<reversed group>.<version>.<Kind>` with its schema made OpenAPI-v2-safe
 * (junctors dropped, nullable fields untyped), apiVersion, kind and an ObjectMeta reference
 * added, and the `<Kind>List` beside it; both carry their group-version-kind.
 */
import { isPlainObject } from '../../machinery/object.js';

type Props = Record<string, unknown>;

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
const API_VERSION_DESCRIPTION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DESCRIPTION =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** Upstream's definition name prefix: the group's labels reversed (`stable.example.com` -> `com.example.stable`). */
export function definitionPrefix(group: string): string {
  return group.split('.').reverse().join('.');
}

/** A schema node as OpenAPI v2 publishes it. */
function v2Node(s: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'allOf' || k === 'anyOf' || k === 'oneOf' || k === 'not' || k === 'nullable') continue;
    if (k === 'properties' && isPlainObject(v)) {
      out.properties = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, isPlainObject(p) ? v2Node(p) : p]));
    } else if ((k === 'items' || k === 'additionalProperties') && isPlainObject(v)) out[k] = v2Node(v);
    else out[k] = v;
  }
  // A null is a valid value of a nullable field; v2 has no way to say so but leaving the type out.
  if (s.nullable === true) delete out.type;
  return out;
}

/** The definitions of one version: the kind's and its list's, by name. */
export function openAPIDefinitions(
  group: string,
  version: string,
  kind: string,
  listKind: string,
  schema: Props,
): { name: string; definitions: Record<string, unknown> } {
  const name = `${definitionPrefix(group)}.${version}.${kind}`;
  const root = v2Node(schema);
  const properties = isPlainObject(root.properties) ? { ...root.properties } : {};
  properties.apiVersion = { description: API_VERSION_DESCRIPTION, type: 'string' };
  properties.kind = { description: KIND_DESCRIPTION, type: 'string' };
  properties.metadata = { $ref: `#/definitions/${OBJECT_META}` };
  const kindDef: Props = { ...root, type: 'object', properties, 'x-kubernetes-group-version-kind': [{ group, kind, version }] };
  const listDef: Props = {
    description: `${kind}List is a list of ${kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { description: API_VERSION_DESCRIPTION, type: 'string' },
      items: {
        description: `List of ${kind.toLowerCase()}s. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: 'array',
        items: { $ref: `#/definitions/${name}` },
      },
      kind: { description: KIND_DESCRIPTION, type: 'string' },
      metadata: {
        description: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
        $ref: `#/definitions/${LIST_META}`,
      },
    },
    'x-kubernetes-group-version-kind': [{ group, kind: listKind, version }],
  };
  return { name, definitions: { [name]: kindDef, [`${definitionPrefix(group)}.${version}.${listKind}`]: listDef } };
}
