/**
 * A DaemonSet's template generation: an internal spec field upstream that apps/v1 carries as
 * the `deprecated.daemonset.template.generation` annotation (always written on the way out).
 */
import type { Obj } from '../../machinery/object.js';
import { metaOf } from '../../machinery/object.js';
import { goQuote } from '../../machinery/validation.js';
import { DecodeError } from '../core/decoding.js';
import { rec } from '../../machinery/fields.js';

export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** The template generation the object carries (0 when the annotation is absent, as Go's zero value). */
export function templateGenerationOf(obj: Obj): number {
  const v = rec(metaOf(obj).annotations)[TEMPLATE_GENERATION_ANNOTATION];
  return typeof v === 'string' && /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

/** Sets the template generation annotation. */
export function setTemplateGeneration(obj: Obj, generation: number): void {
  const meta = metaOf(obj);
  meta.annotations = { ...(rec(meta.annotations) as Record<string, string>), [TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
}

/** The v1 -> internal conversion: an annotation that is not an integer fails decoding (400), as strconv.ParseInt does. */
export function checkTemplateGeneration(obj: Obj): void {
  const v = rec(metaOf(obj).annotations)[TEMPLATE_GENERATION_ANNOTATION];
  if (typeof v === 'string' && !/^[+-]?\d+$/.test(v)) throw new DecodeError(`strconv.ParseInt: parsing ${goQuote(v)}: invalid syntax`);
}
