/**
 * The one schema of every served type, in upstream's OpenAPI v2 `definitions` form (named
 * definitions, `$ref: '#/definitions/<name>'`, upstream's `x-kubernetes-*` extensions), so
 * the published OpenAPI documents are this data and every other use reads the same facts:
 * validation of field types, pruning and unknown-field detection, strategic-merge metadata
 * (`x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`) and server-side-apply
 * semantics (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`;
 * a struct that is `+structType=atomic` upstream carries `x-kubernetes-map-type: atomic`).
 *
 * Definition names are upstream's (`io.k8s.api.core.v1.PodSpec`) and group-version-kinds use
 * upstream's group names (`events.k8s.io`); the OpenAPI publisher spells groups by brand.
 */

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface Schema {
  type?: SchemaType;
  /** int32, int64, double, byte (base64 string), date-time, int-or-string. */
  format?: string;
  description?: string;
  /** `#/definitions/<name>`; a schema with $ref has nothing else but description. */
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  /** A map's value schema (`map[string]T`). */
  additionalProperties?: Schema;
  enum?: unknown[];
  default?: unknown;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-group-version-kind'?: GroupVersionKind[];
  /** Free-form JSON (RawExtension, apiextensions JSON): any value, not pruned. */
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  /** IntOrString. */
  'x-kubernetes-int-or-string'?: boolean;
  /** ObjectMeta-like embedded resource. */
  'x-kubernetes-embedded-resource'?: boolean;
}

export type Definitions = Readonly<Record<string, Schema>>;

const REF_PREFIX = '#/definitions/';

/** Name lookups over one set of definitions. */
export interface SchemaLookup {
  readonly definitions: Definitions;
  /** The named definition, or undefined. */
  definition(name: string): Schema | undefined;
  /** The definition of a top-level kind, by upstream group ('' for core), version and kind. */
  forKind(group: string, version: string, kind: string): Schema | undefined;
  /** The definition name of a top-level kind, or undefined. */
  nameOfKind(group: string, version: string, kind: string): string | undefined;
  /** s itself, or the definition its $ref names (undefined when the name is unknown). */
  resolve(s: Schema): Schema | undefined;
}

/** The definition name a `$ref` points at. */
export function refName(ref: string): string {
  return ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
}

export function createSchemaLookup(definitions: Definitions): SchemaLookup {
  const byKind = new Map<string, string>();
  for (const [name, def] of Object.entries(definitions)) {
    for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
      // List kinds and the meta types (DeleteOptions, WatchEvent) carry many GVKs; the first
      // definition that names a GVK owns it, as upstream's models are unique per GVK.
      const key = `${gvk.group}/${gvk.version}/${gvk.kind}`;
      if (!byKind.has(key)) byKind.set(key, name);
    }
  }
  const lookup: SchemaLookup = {
    definitions,
    // Own definitions only, so no name (`constructor`) finds an Object.prototype member.
    definition: (name) => (Object.hasOwn(definitions, name) ? definitions[name] : undefined),
    nameOfKind: (group, version, kind) => byKind.get(`${group}/${version}/${kind}`),
    forKind(group, version, kind) {
      const name = byKind.get(`${group}/${version}/${kind}`);
      return name === undefined ? undefined : lookup.definition(name);
    },
    resolve: (s) => (s.$ref === undefined ? s : lookup.definition(refName(s.$ref))),
  };
  return lookup;
}
