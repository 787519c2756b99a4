/**
 * kubectl's last-applied-configuration annotation and server-side apply (upstream's
 * lastAppliedManager and lastAppliedUpdater): when `kubectl apply --server-side` meets fields
 * that client-side apply set to the values still in the annotation, they are not conflicts;
 * and while the annotation exists, kubectl's server-side applies keep it current.
 */
import { isPlainObject, type Obj } from '../../machinery/object.js';
import type { Conflict } from './conflict.js';
import type { FieldSet } from './field-set.js';
import { compareTyped } from './typed/compare.js';
import { toFieldSet } from './typed/to-field-set.js';
import { validateTyped } from './typed/validate.js';
import type { Atom } from './typed-schema.js';
import { goJson } from './value.js';

/** kubectl writes this key whatever the server's brand. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Upstream's TotalAnnotationSizeLimitB: past it the annotation is dropped rather than kept. */
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

function annotationsOf(obj: Obj): Record<string, unknown> | undefined {
  const meta = obj.metadata;
  return isPlainObject(meta) && isPlainObject(meta.annotations) ? (meta.annotations as Record<string, unknown>) : undefined;
}

/**
 * The fields the live object still holds at the values of its last-applied annotation
 * (undefined when there is no usable annotation): conflicts over them may be taken.
 */
export function allowedConflictsFromLastApplied(live: Obj, apiVersion: string, atom: Atom): FieldSet | undefined {
  const text = annotationsOf(live)?.[LAST_APPLIED];
  if (typeof text !== 'string' || text === '') return undefined;
  if (validateTyped(live, atom).length > 0) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(last) || last.apiVersion !== apiVersion) return undefined;
  if (validateTyped(last, atom).length > 0) return undefined;
  const c = compareTyped(last, live, atom);
  return toFieldSet(last, atom).difference(c.modified).difference(c.added).difference(c.removed);
}

/** The conflicts whose field is not in allowed. */
export function conflictsNotAllowed(conflicts: readonly Conflict[], allowed: FieldSet): Conflict[] {
  return conflicts.filter((c) => !allowed.has(c.path));
}

/**
 * When the applied object carries the annotation, sets it to the applied configuration
 * (without the annotation itself), as json.Encoder writes it; dropped past the size limit.
 */
export function syncLastApplied(object: Obj, config: Obj): void {
  const annotations = annotationsOf(object);
  const current = annotations?.[LAST_APPLIED];
  if (annotations === undefined || typeof current !== 'string' || current === '') return;
  const copy = structuredClone(config) as Obj;
  const copyAnnotations = annotationsOf(copy);
  if (copyAnnotations !== undefined) delete copyAnnotations[LAST_APPLIED];
  annotations[LAST_APPLIED] = `${goJson(copy)}\n`;
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED];
}
