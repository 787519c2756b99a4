/**
 * The resource scope (upstream's RequestScope, built by its installer): for each served
 * group/version/resource and each of its subresources, one object holding everything the
 * handlers need — names, scope, the verbs served (= its capabilities), the kind a request takes
 * and its schema definition, the field manager with the subresource's reset fields, and slots
 * for what loads late (table printer, strategic-merge schema). Built when the resource is
 * registered (again when the registry changes); handlers only read it.
 */
import { apiSchemas, upstreamGroup } from '../api/schema/index.js';
import type { Encoding } from '../codec/negotiation.js';
import { chooseEncoding } from '../codec/serialize.js';
import type { Verb } from '../api/types.js';
import type { FieldManager } from '../apply/field-manager.js';
import { type Capabilities, verbsOf } from '../registry/capabilities.js';
import type { GenericStore } from '../registry/generic-store.js';
import type { Registry, ServedResource } from '../registry/registry.js';
import type { ResourceInfo } from '../registry/resource-info.js';
import { type SubresourceDeclaration, subresourceKind } from '../registry/subresources.js';

export class ResourceScope {
  /** The verbs served: exactly the capabilities implemented. */
  readonly verbs: ReadonlySet<Verb>;
  /** The kind a request body must be and a response names (Binding for pods/binding). */
  readonly kind: string;
  readonly apiVersion: string;
  /** The store of the objects addressed (for reusing served bytes); absent for virtual resources. */
  readonly store: GenericStore | undefined;
  private definition: { name: string | undefined } | undefined;
  private fieldManagerOf: Promise<FieldManager> | undefined;
  private builtFieldManager: FieldManager | undefined;
  private readonly late = new Map<string, unknown>();

  constructor(
    /** The resource's names, scope and definition (the parent's, for a subresource). */
    readonly info: ResourceInfo,
    /** '' for the resource itself. */
    readonly subresource: string,
    readonly declaration: SubresourceDeclaration | undefined,
    readonly capabilities: Capabilities,
    store: GenericStore,
  ) {
    this.verbs = verbsOf(capabilities);
    this.kind = subresourceKind(declaration, info.kind);
    // A subresource of another kind names it in the parent's group-version (pods/binding: Binding)
    // unless it declares its own (serviceaccounts/token: authentication's TokenRequest).
    const kg = declaration?.kindGroup;
    this.apiVersion = kg ? `${store.brand.group(kg.groupStem, kg.branded)}/${kg.version}` : info.apiVersion;
    this.store = info.def.virtual ? undefined : store;
  }

  /** The schema definition of the request's kind (undefined for a type without one, e.g. a custom resource). */
  definitionName(): string | undefined {
    if (this.definition === undefined) {
      const def = this.declaration?.kindGroup ?? this.info.def;
      this.definition = { name: apiSchemas().nameOfKind(upstreamGroup(def.groupStem, def.branded), def.version, this.kind) };
    }
    return this.definition.name;
  }

  /** The field manager of this resource or subresource, built on first use (with the apply machinery). */
  fieldManager(): Promise<FieldManager> {
    this.fieldManagerOf ??= import('./handlers/field-tracking.js').then((m) => {
      this.builtFieldManager = m.buildFieldManager(this);
      return this.builtFieldManager;
    });
    return this.fieldManagerOf;
  }

  /** The field manager once fieldManager() has built it (every write after the first): no promise to wait for. */
  fieldManagerNow(): FieldManager | undefined {
    return this.builtFieldManager;
  }

  /** The serializer of a response carrying this scope's kind: the first negotiated encoding able to (406 when none). */
  encodingFor(encodings: readonly Encoding[]): Encoding {
    return chooseEncoding(encodings, this.apiVersion, this.kind);
  }

  /** A fact computed on first use and kept for the scope's life (its module loads late: printers, patch schemas). */
  cached<T>(name: string, compute: () => T): T {
    if (!this.late.has(name)) this.late.set(name, compute());
    return this.late.get(name) as T;
  }
}

/** The scopes of one registered resource: itself and its subresources. */
export interface ResourceScopes {
  readonly resource: ResourceScope;
  readonly subresources: ReadonlyMap<string, ResourceScope>;
}

function scopesOf(served: ServedResource): ResourceScopes {
  const subresources = new Map<string, ResourceScope>();
  for (const sub of served.info.subresources) {
    subresources.set(sub.name, new ResourceScope(served.info, sub.name, sub, served.subresources.get(sub.name) ?? {}, served.store));
  }
  return { resource: new ResourceScope(served.info, '', undefined, served.capabilities, served.store), subresources };
}

/** Every resource's scopes, rebuilt when the registry's registrations change. */
export class ScopeTable {
  private byPath = new Map<string, ResourceScopes>();
  private generation = -1;

  constructor(private readonly registry: Registry) {}

  /** The scopes serving group/version/resource, or undefined. */
  lookup(group: string, version: string, resource: string): ResourceScopes | undefined {
    if (this.generation !== this.registry.generation) this.rebuild();
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  private rebuild(): void {
    const next = new Map<string, ResourceScopes>();
    for (const info of this.registry.resources) {
      const path = `${info.group}/${info.version}/${info.plural}`;
      const served = this.registry.served(info.group, info.version, info.plural);
      if (!served) continue;
      // A scope whose registration did not change is kept, with what it computed late.
      const kept = this.byPath.get(path);
      next.set(path, kept !== undefined && kept.resource.info === served.info ? kept : scopesOf(served));
    }
    this.byPath = next;
    this.generation = this.registry.generation;
  }
}
