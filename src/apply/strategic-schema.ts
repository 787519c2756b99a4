/**
 * Patch metadata lookups over the OpenAPI definitions, answering what upstream's
 * PatchMetaFromStruct reads from Go struct tags: a field's patch strategies and merge key, and
 * the schema of the field (or of a list's element) to continue with.
 */
import { refName, type Schema, type SchemaLookup } from '../api/schema/schema.js';
import { goQuote, patchError } from './strategic-errors.js';
import type { StatusError } from '../machinery/status.js';

/** `x-kubernetes-patch-strategy` split on commas, and `x-kubernetes-patch-merge-key`. */
export interface PatchMeta {
  strategies: string[];
  mergeKey: string;
}

const NO_META: PatchMeta = { strategies: [], mergeKey: '' };

/** What upstream's Go type is at a schema position ('plain': no schema, e.g. an unknown field). */
type Shape = 'struct' | 'map' | 'slice' | 'scalar' | 'plain';

function shapeOf(s: Schema): Shape {
  if (s.type === 'array') return 'slice';
  if (s.additionalProperties !== undefined) return 'map';
  if (s.type === 'object' || s.properties !== undefined || s['x-kubernetes-preserve-unknown-fields'] === true) return 'struct';
  return s.type === undefined ? 'plain' : 'scalar';
}

/** Go's reflect.Kind name of a scalar schema. */
function scalarKind(s: Schema): string {
  if (s.type === 'boolean') return 'bool';
  if (s.type === 'integer') return s.format === 'int32' ? 'int32' : 'int64';
  if (s.type === 'number') return s.format === 'float' ? 'float32' : 'float64';
  return s.format === 'byte' ? 'slice' : 'string';
}

/** One position in a type's schema. */
export class PatchSchema {
  private constructor(
    private readonly lookup: SchemaLookup | undefined,
    private readonly schema: Schema | undefined,
    /** The Go type name of a struct (the definition name's last segment). */
    private readonly typeName: string,
  ) {}

  /** The schema of a named definition (a top-level kind). */
  static forDefinition(lookup: SchemaLookup, name: string): PatchSchema {
    return PatchSchema.at(lookup, { $ref: `#/definitions/${name}` });
  }

  /** No schema: maps merge and lists are replaced, as for a type without patch metadata. */
  static plain(): PatchSchema {
    return new PatchSchema(undefined, undefined, '');
  }

  private static at(lookup: SchemaLookup, s: Schema): PatchSchema {
    if (s.$ref === undefined) return new PatchSchema(lookup, s, '');
    const resolved = lookup.resolve(s);
    if (resolved === undefined) return PatchSchema.plain();
    return new PatchSchema(lookup, resolved, refName(s.$ref).split('.').pop() ?? '');
  }

  private get shape(): Shape {
    return this.schema === undefined ? 'plain' : shapeOf(this.schema);
  }

  /** Go's reflect.Kind of this position, as upstream's LookupPatchMeta.Name() reports it. */
  kindName(): string {
    const shape = this.shape;
    if (shape === 'scalar') return scalarKind(this.schema as Schema);
    return shape === 'plain' ? 'interface' : shape;
  }

  /**
   * The metadata of field `key` of this struct (or of any value of this map) and its schema.
   * A key the struct does not declare is upstream's `unable to find api field` error when
   * `strict`, or when the struct declares no fields at all (RawExtension, JSON: free-form
   * content upstream holds in a field-less Go struct). Otherwise it is an unknown field: a
   * stored object upstream would have pruned it, so it merges without metadata.
   */
  lookupForStruct(key: string, strict: boolean): { sub: PatchSchema; meta: PatchMeta } {
    const s = this.schema;
    const lookup = this.lookup;
    const shape = this.shape;
    if (s === undefined || lookup === undefined || shape === 'plain') return { sub: PatchSchema.plain(), meta: NO_META };
    if (shape === 'map') return { sub: PatchSchema.at(lookup, s.additionalProperties as Schema), meta: NO_META };
    if (shape !== 'struct') throw patchError(`merging an object in json but data type is not map or struct, instead is: ${this.kindName()}`);
    const props = s.properties ?? {};
    // Go's JSON field lookup falls back to a case-insensitive match. Own properties only: a key
    // named `constructor` is no field.
    const field = (Object.hasOwn(props, key) ? props[key] : undefined) ?? Object.entries(props).find(([name]) => name.toLowerCase() === key.toLowerCase())?.[1];
    if (field === undefined) {
      if (strict || s.properties === undefined) throw this.fieldNotFound(key);
      return { sub: PatchSchema.plain(), meta: NO_META };
    }
    const strategy = field['x-kubernetes-patch-strategy'];
    const meta = { strategies: strategy === undefined ? [] : strategy.split(','), mergeKey: field['x-kubernetes-patch-merge-key'] ?? '' };
    return { sub: PatchSchema.at(lookup, field), meta };
  }

  /** As lookupForStruct, for a field that is a list: the schema continues with its element. */
  lookupForSlice(key: string, strict: boolean): { sub: PatchSchema; meta: PatchMeta } {
    const { sub, meta } = this.lookupForStruct(key, strict);
    const s = sub.schema;
    if (s === undefined || sub.lookup === undefined || sub.shape === 'plain') return { sub, meta };
    // Upstream names the containing type's kind here, not the field's.
    if (sub.shape !== 'slice') throw patchError(`expected slice or array type, but got: ${this.kindName()}`);
    const items = s.items ?? {};
    const elem = PatchSchema.at(sub.lookup, items);
    if (elem.shape === 'slice') throw patchError('unexpected slice of slice');
    return { sub: elem, meta };
  }

  private fieldNotFound(key: string): StatusError {
    return patchError(`unable to find api field in struct ${this.typeName} for the json field ${goQuote(key)}`);
  }
}
