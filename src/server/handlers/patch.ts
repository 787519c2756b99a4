/**
 * PATCH of one object: JSON patch and JSON merge patch applied to the current object inside
 * the update loop, so a concurrent write makes the patch re-apply, never lose an update.
 */
import { applyJsonPatch } from '../../apply/json-patch.js';
import { mergePatch } from '../../apply/merge-patch.js';
import { mediaTypeEssence } from '../../codec/accept.js';
import { isPlainObject, type Obj } from '../../machinery/object.js';
import { badRequest, invalid, invalidObject, unsupportedMediaType } from '../../machinery/status.js';
import { exceedsDepth, MAX_JSON_DEPTH, objectShapeError } from '../../machinery/object-shape.js';
import { readBody } from '../http.js';
import { fieldValidationOf, readFieldsAs } from './field-validation.js';
import { admitFor, dryRunOf, type ResourceRequest, writeStored } from './resource-request.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';
export const PATCH_TYPES = [JSON_PATCH, MERGE_PATCH];

/** Applies the body as a patch of the request's Content-Type. */
export async function handlePatch(r: ResourceRequest): Promise<void> {
  const type = mediaTypeEssence(r.req.headers['content-type'] as string | undefined);
  if (!PATCH_TYPES.includes(type)) throw unsupportedMediaType(PATCH_TYPES);
  const dryRun = dryRunOf(r.query);
  const fieldValidation = fieldValidationOf(r, 'PatchOptions');
  const raw = (await readBody(r.req)).toString('utf8');
  let patch: unknown;
  try {
    patch = JSON.parse(raw);
  } catch (e) {
    throw badRequest(`error decoding patch: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (type === MERGE_PATCH && !isPlainObject(patch)) throw badRequest('json: cannot unmarshal into Go value of type map[string]interface {}');
  if (exceedsDepth(patch)) throw badRequest(`error decoding patch: json: exceeded max depth of ${MAX_JSON_DEPTH}`);
  const info = r.store.info;
  const transform = (current: Obj): Obj => {
    const patched = (type === JSON_PATCH ? applyJsonPatch(current, patch) : mergePatch(current, patch)) as Obj;
    if (!isPlainObject(patched)) throw badRequest('the patched object is not an object');
    if (patched.apiVersion !== info.apiVersion || patched.kind !== info.kind) {
      throw badRequest(`the API version or kind of the patched object does not match: ${String(patched.apiVersion)}, Kind=${String(patched.kind)}`);
    }
    // As upstream, a patched object its types cannot hold is 422 Invalid on `patch`.
    const shape = objectShapeError(patched);
    if (shape !== undefined) throw invalidObject(info.kind, info.group, r.name, [invalid('patch', '', shape)]);
    readFieldsAs(r, patched, fieldValidation, type === MERGE_PATCH ? raw : undefined, raw);
    return patched;
  };
  const { obj } = await r.store.guaranteedUpdate(r.ctx, r.namespace, r.name, transform, { dryRun, subresource: r.subresource, admit: admitFor(r, 'UPDATE') });
  writeStored(r, 200, obj, dryRun);
}
