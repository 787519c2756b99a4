/**
 * PATCH of one object: JSON patch, JSON merge patch and strategic merge patch applied to the
 * current object inside the update loop, so a concurrent write makes the patch re-apply, never
 * lose an update.
 */
import { apiSchemas } from '../../api/schema/index.js';
import { applyJsonPatchInSlices } from '../../apply/json-patch.js';
import { mergePatchPaced } from '../../apply/merge-patch.js';
import type { PatchSchema } from '../../apply/strategic-merge-patch.js';
import { mediaTypeEssence } from '../../codec/accept.js';
import { runPaced } from '../../machinery/pace.js';
import { isPlainObject, type Obj } from '../../machinery/object.js';
import { badRequest, invalid, invalidObject, unsupportedMediaType } from '../../machinery/status.js';
import { exceedsDepthSteps, jsonType, MAX_JSON_DEPTH, objectMetaTypeErrorSteps } from '../../machinery/object-shape.js';
import { goMarshal } from '../../machinery/go-json.js';
import { goFormat } from '../../apply/strategic-errors.js';
import { decodePatchBody } from '../../codec/decode-body.js';
import { parseJson } from '../../machinery/json-parse-steps.js';
import { readFieldsAs } from './field-validation.js';
import { trackingFor } from './field-management.js';
import { patchOptionsOf } from './options.js';
import { mutatingAdmissionFor, readWriteBody, type ResourceRequest, validatingAdmissionFor, writeStored } from './resource-request.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';
export const PATCH_TYPES = [JSON_PATCH, MERGE_PATCH];
const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

/**
 * The schema strategic merge patch reads for the request's kind. Upstream serves that patch
 * type only for types with Go structs (their patch tags); a type without a definition here (a
 * custom resource) has none, and the type is refused as upstream refuses it.
 */
function strategicSchemaOf(r: ResourceRequest, smp: StrategicModule): PatchSchema | undefined {
  return r.scope.cached('strategicMergePatchSchema', () => {
    const name = r.scope.definitionName();
    return name === undefined ? undefined : smp.PatchSchema.forDefinition(apiSchemas(), name);
  });
}

/** The patch types a resource accepts, in upstream's order (strategic after merge patch). */
function acceptedPatchTypes(strategic: PatchSchema | undefined): string[] {
  if (strategic === undefined) return PATCH_TYPES;
  const at = PATCH_TYPES.indexOf(MERGE_PATCH) + 1;
  return [...PATCH_TYPES.slice(0, at), STRATEGIC_MERGE_PATCH, ...PATCH_TYPES.slice(at)];
}

type StrategicModule = typeof import('../../apply/strategic-merge-patch.js');

interface Patchers {
  apply: typeof import('./apply.js');
  smp: StrategicModule;
}

let patcherModules: Promise<Patchers> | undefined;

/** Strategic merge patch and server-side apply, loaded on the first PATCH rather than at start-up. */
function patchers(): Promise<Patchers> {
  patcherModules ??= Promise.all([import('./apply.js'), import('../../apply/strategic-merge-patch.js')]).then(([apply, smp]) => ({ apply, smp }));
  return patcherModules;
}

/** Applies the body as a patch of the request's Content-Type. */
export async function handlePatch(r: ResourceRequest): Promise<void> {
  const { apply, smp } = await patchers();
  const { APPLY_PATCH, handleApply } = apply;
  const patcher = r.scope.capabilities.patcher;
  if (patcher === undefined) throw new Error(`${r.scope.info.plural} routed a patch without a Patcher`);
  const type = mediaTypeEssence(r.req.headers['content-type'] as string | undefined);
  const strategic = strategicSchemaOf(r, smp);
  const accepted = [...acceptedPatchTypes(strategic), ...(r.serverSideApply ? [APPLY_PATCH] : [])];
  if (!accepted.includes(type)) throw unsupportedMediaType(accepted);
  if (type === APPLY_PATCH) return handleApply(r, patcher);
  const opts = patchOptionsOf(r.query, r.ctx.brand, false);
  const raw = (await readWriteBody(r)).toString('utf8');
  const { pace } = r.ctx;
  const patch = await decodePatchBody(raw, pace);
  if (type === MERGE_PATCH && !isPlainObject(patch)) throw badRequest('json: cannot unmarshal into Go value of type map[string]interface {}');
  // Upstream decodes a strategic merge patch into a map: null is an empty patch.
  if (type === STRATEGIC_MERGE_PATCH && patch !== null && !isPlainObject(patch)) {
    throw badRequest(`json: cannot unmarshal ${jsonType(patch)} into Go value of type map[string]interface {}`);
  }
  const info = r.scope;
  const strategicPatched = async (current: Obj, schema: PatchSchema): Promise<Obj> => {
    // Each attempt merges its own copy of the patch (merging consumes it), in a step of its own:
    // read again from the text, which costs about half of copying the decoded value.
    const own = ((await parseJson(raw, pace)) ?? {}) as Obj;
    if (pace?.due()) await pace.yield();
    return smp.strategicMergePatchPaced(current, own, schema, pace);
  };
  const transform = async (current: Obj): Promise<Obj> => {
    const patched = (
      type === JSON_PATCH
        ? await applyJsonPatchInSlices(current, patch)
        : type === STRATEGIC_MERGE_PATCH && strategic !== undefined
          ? await strategicPatched(current, strategic)
          : await mergePatchPaced(current, patch, pace)
    ) as Obj;
    if (pace?.due()) await pace.yield();
    if (!isPlainObject(patched)) throw badRequest('the patched object is not an object');
    if (patched.apiVersion !== info.apiVersion || patched.kind !== info.kind) {
      throw badRequest(`the API version or kind of the patched object does not match: ${String(patched.apiVersion)}, Kind=${String(patched.kind)}`);
    }
    // As upstream, a patched object its types cannot hold is 422 Invalid on `patch`, showing
    // what was decoded: the patch map (`%+v`) for a strategic merge patch, which goes through the
    // unstructured converter, else the patched object's JSON.
    const from = {
      raw,
      strategic: type === STRATEGIC_MERGE_PATCH,
      shown: () => (type === STRATEGIC_MERGE_PATCH ? goFormat(patch ?? {}) : goMarshal(patched)),
    };
    // A typed kind's fields are read first, so their type errors are the decoder's upstream
    // uses; the metadata shape check then catches what typed reading lets through (null list
    // elements) and a custom resource's metadata.
    if (await runPaced((due) => exceedsDepthSteps(patched, MAX_JSON_DEPTH, due), pace))
      throw invalidObject('', '', '', [invalid('patch', from.shown(), `json: exceeded max depth of ${MAX_JSON_DEPTH}`)]);
    if (pace?.due()) await pace.yield();
    const read = readFieldsAs(r, patched, opts.fieldValidation, type === MERGE_PATCH || type === STRATEGIC_MERGE_PATCH ? raw : undefined, from);
    if (read instanceof Promise) await read;
    if (pace?.due()) await pace.yield();
    // (Its depth was checked above, and reading fields does not deepen it.)
    const shape = await runPaced((due) => objectMetaTypeErrorSteps(patched, due), pace);
    if (shape !== undefined) throw invalidObject('', '', '', [invalid('patch', from.shown(), shape)]);
    return patched;
  };
  const { obj } = await patcher.update(r.ctx, r.namespace, r.name, transform, {
    dryRun: opts.dryRun,
    track: await trackingFor(r, opts),
    mutatingAdmission: mutatingAdmissionFor(r, 'UPDATE'),
    validatingAdmission: validatingAdmissionFor(r, 'UPDATE'),
  });
  writeStored(r, 200, obj, opts.dryRun);
}
