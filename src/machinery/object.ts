/** Objects are plain JSON values; these are the typed views the server needs of them. */
export type Obj = Record<string, unknown> & { apiVersion?: string; kind?: string; metadata?: ObjectMeta };

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
  [extra: string]: unknown;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface ObjList {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: Obj[];
}

/** Metadata of an object, created empty when absent (never null for callers). */
export function metaOf(obj: Obj): ObjectMeta {
  if (obj.metadata === undefined || obj.metadata === null || typeof obj.metadata !== 'object') {
    obj.metadata = {};
  }
  return obj.metadata;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The second rfc3339 formatted last (NaN for none: an invalid date never matches) and its text. */
let lastSecond = Number.NaN;
let lastText = '';

/** RFC 3339 timestamp with second precision, as upstream's metav1.Time serializes. */
export function rfc3339(date: Date): string {
  // Every write stamps a time or two, mostly within the same second as the previous write.
  const second = Math.floor(date.getTime() / 1000);
  if (second !== lastSecond) {
    lastText = `${date.toISOString().slice(0, 19)}Z`;
    lastSecond = second;
  }
  return lastText;
}

/** RFC 3339 with microseconds, as upstream's metav1.MicroTime serializes. */
export function rfc3339Micro(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}
