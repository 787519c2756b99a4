/**
 * The shape of one resource definition. The catalogue (api/catalogue.ts) is built from these;
 * the registry, the router and discovery derive everything they need from it at start-up.
 */
import type { Brand } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import type { UserInfo } from '../machinery/user.js';
import type { FieldError } from '../machinery/status.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** Which name rule metadata.name follows, as upstream's per-type ValidateObjectMeta call. */
export type NameRule =
  | 'subdomain' // DNS-1123 subdomain (most types)
  | 'label' // DNS-1123 label (namespaces)
  | 'dns1035' // DNS-1035 label (services)
  | 'path-segment'; // any name that is a valid path segment (RBAC, CSRs, HPAs)

/** Context a strategy sees: the brand and the time of the request. */
export interface StrategyContext {
  brand: Brand;
  now: Date;
  /** Who writes (a CertificateSigningRequest records its requester); absent in server-internal writes. */
  user?: UserInfo;
  /**
   * The subresource an update writes: '' for the main resource, 'status', 'finalize'.
   * Absent on create. (Namespaces carry spec.finalizers over only on main-resource writes.)
   */
  subresource?: string;
}

/** Type-specific behaviour; the generic registry decides when each runs. */
export interface Strategy {
  /**
   * The type's defaults (upstream's SetDefaults_*, run as the request body is decoded): fills
   * absent fields and puts values in canonical form. Runs on the incoming object of every
   * write (create, update, patch and apply results, subresource writes) before prepareFor*.
   * May mutate obj.
   */
  defaults?(obj: Obj, ctx: StrategyContext): void;
  /** Clear what clients may not set and default what the server sets on create. May mutate obj. */
  prepareForCreate?(obj: Obj, ctx: StrategyContext): void;
  /** Carry over what the write may not change (e.g. status on a main-resource write). May mutate obj. */
  prepareForUpdate?(obj: Obj, old: Obj, ctx: StrategyContext): void;
  /** Field errors of a new object. Never mutates. */
  validate?(obj: Obj, ctx: StrategyContext): FieldError[];
  /** Field errors of an update (immutable fields...). Never mutates. */
  validateUpdate?(obj: Obj, old: Obj, ctx: StrategyContext): FieldError[];
  /**
   * Drops the fields a type without a built-in schema does not have (a custom resource's
   * structural schema) and answers their paths, for fieldValidation's warnings. May mutate obj.
   */
  prune?(obj: Obj): string[];
  /** Finalizers beyond metadata.finalizers that hold a deleting object (a namespace's spec.finalizers). */
  finalizers?(obj: Obj): string[];
  /** Marks an object whose deletion waits for finalizers (a namespace becomes Terminating). May mutate obj. */
  prepareForDeletion?(obj: Obj): void;
  /**
   * A DELETE that names no propagation policy orphans dependents (upstream's
   * DefaultGarbageCollectionPolicy OrphanDependents, kept by core/v1 ReplicationControllers).
   */
  orphanDependentsByDefault?: boolean;
}

/** Extracts the string a field selector compares, e.g. `spec.nodeName` of a pod. */
export type FieldGetter = (obj: Obj) => string | undefined;

/**
 * Converts between the served representation and the stored one when two API views share one
 * storage (core/v1 Event and events/v1 Event; extensions and networking Ingress).
 */
export interface Conversion {
  /** Served object -> stored object (stored form is the storage owner's version). */
  toStorage(obj: Obj, brand: Brand): Obj;
  /** Stored object -> served object. */
  fromStorage(obj: Obj, brand: Brand): Obj;
}

/** The conversion capability of one multi-version kind. */
export interface KindConversion {
  readonly groupStem: string;
  readonly branded: boolean;
  readonly kind: string;
  /** The version objects are stored at (upstream's storage version). */
  readonly storageVersion: string;
  /** Every version this kind converts between, the storage version first. */
  readonly versions: readonly string[];
  /** obj (at `from`) as an object of version `to`, apiVersion and kind set. Never mutates obj. */
  convert(obj: Obj, from: string, to: string, brand: Brand): Obj;
}

export interface ResourceDefinition {
  /** Group stem: '' for core, 'apps', 'events', 'rbac.authorization', ... */
  groupStem: string;
  /** True when the real group name is `<stem>.<brand domain>` (events.orch.io). */
  branded: boolean;
  version: string;
  kind: string;
  /** The list's kind when not `<kind>List` (a custom resource's spec.names.listKind). */
  listKind?: string;
  /** Resource name in URLs, e.g. `deployments`. */
  plural: string;
  singular: string;
  shortNames?: string[];
  categories?: string[];
  namespaced: boolean;
  /** Verbs served; default ALL_VERBS. */
  verbs?: readonly Verb[];
  /**
   * Subresources, each declared in registry/subresources.ts (verbs, request kind, owned fields):
   * `status` shares the object, `finalize` (namespaces) writes `spec.finalizers`, `binding` (pods)
   * takes a Binding that assigns the pod to a node, `token` (service accounts) takes a
   * TokenRequest and answers it with a bound token, `scale` (workloads) reads and writes
   * `spec.replicas` as an autoscaling/v1 Scale, `eviction` (pods) deletes within the budget.
   */
  subresources?: {
    status?: boolean;
    finalize?: boolean;
    binding?: boolean;
    token?: boolean;
    scale?: boolean;
    eviction?: boolean;
    /** certificatesigningrequests/approval: writes only the Approved/Denied conditions. */
    approval?: boolean;
    /** Upstream's connect subresources (pods/log, exec, attach, portforward; proxy of pods, nodes, services). */
    log?: boolean;
    exec?: boolean;
    attach?: boolean;
    portforward?: boolean;
    proxy?: boolean;
  };
  nameRule: NameRule;
  /**
   * Storage shared with another definition: its group stem and plural. Keys are
   * `/registry/<storage plural>/...`. Absent: the definition owns its own storage.
   */
  storage?: { groupStem: string; plural: string; conversion: Conversion };
  strategy?: Strategy;
  /** Extra field-selector fields beyond metadata.name and metadata.namespace. */
  fieldSelectors?: Record<string, FieldGetter>;
  /**
   * Virtual resources (reviews) are not stored: create returns `review(obj)`'s result.
   * The registry supplies the user and an authorizer through the review context.
   */
  virtual?: true;
  /** Server bookkeeping this type opts into. */
  behaviour?: ResourceBehaviour;
  /**
   * Storage key prefix when not `/registry/<plural>/`: custom resources are keyed
   * `/registry/<group>/<plural>/` as upstream's, since their plurals need not be unique.
   */
  storagePrefix?: string;
  /** Where a `scale` subresource reads and writes (custom resources); absent: `spec.replicas`, `status.replicas`, `spec.selector`. */
  scalePaths?: ScalePaths;
  /** Table columns after the name (custom resources' additionalPrinterColumns). */
  printerColumns?: readonly PrinterColumn[];
  /** Served as a `Warning` header on every request of this version (a deprecated custom resource version). */
  deprecationWarning?: string;
  /** Upstream's prerelease lifecycle of a deprecated built-in version (its generated APILifecycle* values). */
  lifecycle?: ApiLifecycle;
  /**
   * The conversion capability of a kind served at several versions; set on every version of it.
   * The storage version's definition owns the storage; the others are views (`storage`).
   */
  kindConversion?: KindConversion;
  /**
   * The schema published for the kind when it is not one of the built-in definitions (a custom
   * resource's): definitions by upstream's name, the kind's own first.
   */
  openAPI?: { name: string; definitions: Readonly<Record<string, unknown>> };
}

/** When a version was deprecated and removed upstream (`"1.23"`), and what replaces it. */
export interface ApiLifecycle {
  deprecated: string;
  removed: string;
  replacement?: { groupStem: string; branded: boolean; version: string; kind: string };
}

/** JSON paths (`.spec.replicas`) of a custom resource's scale subresource, as its CRD declares them. */
export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** One printed column: its Table definition and the JSONPath its cells read. */
export interface PrinterColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  jsonPath: string;
}

/** Server-owned bookkeeping a type opts into (as each upstream strategy does). */
export interface ResourceBehaviour {
  /** metadata.generation starts at 1 and increments when anything outside metadata/status changes. */
  generation?: boolean;
  /** Keep a client-supplied status on create (Node); otherwise status is reset on create. */
  keepStatusOnCreate?: boolean;
  /** Finalizer names are not checked against the standard ones (custom resources, as upstream). */
  anyFinalizerNames?: boolean;
}
