/** What the registry knows of a request: who asks, under which brand, at what time. */
import type { Brand } from '../machinery/brand.js';
import type { UserInfo } from '../machinery/user.js';
import type { Obj } from '../machinery/object.js';

export interface RequestContext {
  user: UserInfo;
  brand: Brand;
  now: Date;
}

/** Validating admission, run by the registry on the final object before it is written. */
export type AdmitFn = (obj: Obj, old: Obj | undefined) => Promise<void> | void;

export interface WriteOptions {
  dryRun: boolean;
  /**
   * Records the write's field ownership (the field manager) on the defaulted object, as upstream's
   * handlers run it on the decoded object; sets obj's managedFields. Runs right after
   * defaulting, before mutating admission. live is the stored object (absent on create).
   */
  track?: (obj: Obj, live: Obj | undefined) => void;
  /** Runs after defaulting, before prepareFor* and validation; may change obj (mutating admission). */
  mutate?: AdmitFn;
  /** Runs after validation, before the write (validating admission). */
  admit?: AdmitFn;
}

export interface UpdateOptions extends WriteOptions {
  /** `status` for the status subresource, `finalize` for namespaces/finalize, '' for the main resource. */
  subresource: string;
}

export interface DeleteOptions extends WriteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}
