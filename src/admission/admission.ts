/**
 * The admission chain, in upstream's order: mutating plugins run on the defaulted object before
 * the registry prepares and validates it; validating plugins run on the final object, inside
 * the registry's write.
 */
import type { RequestContext } from '../registry/context.js';
import type { ResourceInfo } from '../registry/resource-info.js';
import type { Obj } from '../machinery/object.js';

export interface AdmissionAttributes {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  resource: ResourceInfo;
  /** The resource as requested, when admission sees it at another version (a webhook matched as Equivalent). */
  requested?: ResourceInfo;
  namespace: string;
  name: string;
  subresource: string;
  object: Obj;
  oldObject?: Obj;
  ctx: RequestContext;
  /** The request is a dry run (`dryRun=All`): webhooks with side effects may not be called. */
  dryRun: boolean;
  /** Adds a `Warning` header to the request's response (webhooks' warnings). */
  warn?: (text: string) => void;
  /**
   * Adds an annotation to the request's audit event, when it is audited (first value wins);
   * with `level`, only when the event records at least that level.
   */
  annotate?: (key: string, value: string, level?: 'Metadata' | 'Request' | 'RequestResponse') => void;
}

export interface ValidatingPlugin {
  readonly name: string;
  validate(a: AdmissionAttributes): void | Promise<void>;
}

/** A plugin that may change a.object (upstream's MutationInterface). */
export interface MutatingPlugin {
  readonly name: string;
  admit(a: AdmissionAttributes): void | Promise<void>;
}

export interface Admission {
  /** Mutating admission: the mutating plugins in order; may change a.object. */
  mutate(a: AdmissionAttributes): Promise<void>;
  /** Validating admission: the validating plugins in order; never changes a.object. */
  validate(a: AdmissionAttributes): Promise<void>;
}

/**
 * Runs plugins in order; the first rejection (a thrown StatusError) stops the request. A plugin
 * that answers synchronously (most do, for most requests) is not awaited: every write passes
 * each plugin twice, and an await is a promise and a microtask turn.
 */
export function admissionChain(plugins: ValidatingPlugin[], mutating: MutatingPlugin[] = []): Admission {
  return {
    async mutate(a) {
      for (const p of mutating) {
        const pending = p.admit(a);
        if (pending !== undefined) await pending;
      }
    },
    async validate(a) {
      for (const p of plugins) {
        const pending = p.validate(a);
        if (pending !== undefined) await pending;
      }
    },
  };
}
