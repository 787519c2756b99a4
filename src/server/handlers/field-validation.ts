/**
 * fieldValidation (Ignore | Warn | Strict, default Warn): what a write does with fields its type
 * does not have and with keys given twice. Unknown fields are always dropped; Warn answers each
 * with a `Warning` header, Strict refuses the write (400, upstream's `strict decoding error`).
 * A value of the wrong JSON type is refused in every mode, as Go's decoder refuses it.
 */
import { apiSchemas } from '../../api/schema/index.js';
import { duplicateFieldsSteps } from '../../codec/duplicate-fields.js';
import { FieldTypeError, readTypedFieldsSteps } from '../../codec/typed-fields.js';
import { badRequest, invalid, invalidObject } from '../../machinery/status.js';
import type { Obj } from '../../machinery/object.js';
import { runPaced } from '../../machinery/pace.js';
import { addWarning } from '../http.js';
import type { FieldValidation } from './options.js';
import type { ResourceRequest } from './resource-request.js';

export type { FieldValidation };

/** Where a patched object came from: the patch's text, its type, and what upstream shows of it in a type error. */
export interface PatchedFrom {
  raw: string;
  strategic: boolean;
  shown: () => string;
}

/**
 * Reads obj as its kind under the directive: prunes unknown fields, then warns or refuses.
 * `json` is the body's text when it was JSON (its repeated keys count as problems too); `from`
 * describes the patch when obj is a patched object. Throws the Status upstream answers: for a
 * body 400 naming the kind; for a patched object 422 Invalid on field `patch` under an empty
 * kind and name, as upstream's patcher.
 */
export function readFieldsAs(r: ResourceRequest, obj: Obj, mode: FieldValidation, json: string | undefined, from?: PatchedFrom): void | Promise<void> {
  const info = r.scope;
  const name = info.definitionName();
  let read: string[] | Promise<string[]>;
  try {
    if (name !== undefined) read = runPaced((due) => readTypedFieldsSteps(obj, apiSchemas(), name, due), r.ctx.pace);
    else {
      // A custom resource: its schema's pruning finds what it does not have.
      const prune = info.info.def.strategy?.prune;
      if (prune === undefined) return;
      read = prune(obj);
    }
  } catch (e) {
    throw typeErrorStatus(r, e, from);
  }
  if (read instanceof Promise) {
    return read.then(
      (unknown) => answerUnknown(r, mode, json, unknown, from),
      (e) => {
        throw typeErrorStatus(r, e, from);
      },
    );
  }
  return answerUnknown(r, mode, json, read, from);
}

/**
 * The Status for a value of the wrong type: upstream's patcher answers NewInvalid with an empty
 * kind and name, the decoded value, and the decoder's error (the unstructured converter's for
 * a strategic merge patch); a body is 400 naming the kind. Other errors pass through.
 */
function typeErrorStatus(r: ResourceRequest, e: unknown, from: PatchedFrom | undefined): unknown {
  if (!(e instanceof FieldTypeError)) return e;
  const info = r.scope;
  if (from !== undefined) return invalidObject('', '', '', [invalid('patch', from.shown(), from.strategic ? e.converterMessage : e.message)]);
  return badRequest(`${info.kind} in version "${info.info.version}" cannot be handled as a ${info.kind}: ${e.message}`);
}

/** After reading: the repeated keys (from the body's text, megabytes of it scanned in steps) and unknown fields, answered per the mode. */
function answerUnknown(
  r: ResourceRequest,
  mode: FieldValidation,
  json: string | undefined,
  unknown: string[],
  from: PatchedFrom | undefined,
): void | Promise<void> {
  if (mode === 'Ignore') return;
  if (json === undefined) return answerProblems(r, mode, [], unknown, from);
  const repeated = runPaced((due) => duplicateFieldsSteps(json, due), r.ctx.pace);
  if (repeated instanceof Promise) return repeated.then((keys) => answerProblems(r, mode, keys, unknown, from));
  answerProblems(r, mode, repeated, unknown, from);
}

/** Warns of or refuses (Strict) the repeated keys and unknown fields of a write. */
function answerProblems(r: ResourceRequest, mode: FieldValidation, repeated: string[], unknown: string[], from: PatchedFrom | undefined): void {
  const info = r.scope;
  const problems = [...repeated.map((k) => `duplicate field ${JSON.stringify(k)}`), ...unknown.map((p) => `unknown field ${JSON.stringify(p)}`)];
  if (problems.length === 0) return;
  if (mode === 'Strict') {
    const why = `strict decoding error: ${problems.join(', ')}`;
    if (from !== undefined) throw invalidObject('', '', '', [invalid('patch', from.raw, why)]);
    throw badRequest(`${info.kind} in version "${info.info.version}" cannot be handled as a ${info.kind}: ${why}`);
  }
  for (const p of problems) addWarning(r.res, p);
}
