/** What the registry knows of a request: who asks, under which brand, at what time; and the options of its writes. */
import type { Brand } from '../machinery/brand.js';
import type { UserInfo } from '../machinery/user.js';
import type { Obj } from '../machinery/object.js';
import type { Pace } from '../machinery/pace.js';

export interface RequestContext {
  user: UserInfo;
  brand: Brand;
  now: Date;
  /** A write's pace once its body is read: its heavy steps yield between them (machinery/pace.ts). */
  pace?: Pace;
}

/** An admission step the registry runs on a write's object (old: the stored object, if any). */
export type AdmissionHook = (obj: Obj, old: Obj | undefined) => Promise<void> | void;

export interface WriteOptions {
  dryRun: boolean;
  /**
   * Records the write's field ownership (the field manager) on the defaulted object, as upstream's
   * handlers run it on the decoded object; sets obj's managedFields. Runs right after
   * defaulting, before mutating admission. live is the stored object (absent on create).
   * A promise only when the work yielded to the event loop (the request's pace was due).
   */
  track?: (obj: Obj, live: Obj | undefined) => void | Promise<void>;
  /** Mutating admission: runs after defaulting, before prepareFor* and validation; may change obj. */
  mutatingAdmission?: AdmissionHook;
  /** Validating admission: runs on the final object after validation, before the write. */
  validatingAdmission?: AdmissionHook;
}

export interface UpdateOptions extends WriteOptions {
  /** The subresource written ('' for the main resource); it owns the fields the write may change. */
  subresource: string;
  /**
   * Upstream's forceAllowCreate (server-side apply): when the object does not exist, the
   * transform is run on nothing and its result created (201); a concurrent create makes the
   * update run again on the winner's object. Only the main resource is created this way.
   */
  createIfMissing?: {
    /** Mutating admission of the create (the update's is `mutatingAdmission`). */
    mutatingAdmission?: AdmissionHook;
    validatingAdmission?: AdmissionHook;
  };
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
  /** Watch-list's parameter as sent (a list refuses it; a watch validates it). */
  sendInitialEvents?: string;
  allowWatchBookmarks?: boolean;
}
