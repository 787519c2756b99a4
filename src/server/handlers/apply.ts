/**
 * Server-side apply: PATCH with `application/apply-patch+yaml` (YAML or JSON). The field
 * manager merges the configuration into the live object inside the update loop; the registry
 * creates an object that does not exist from it (201), as upstream's patch with forceAllowCreate.
 */
import { parse as parseYaml } from 'yaml';
import { isPlainObject, type Obj } from '../../machinery/object.js';
import { badRequest } from '../../machinery/status.js';
import type { Patcher } from '../../registry/capabilities.js';
import { readBody } from '../http.js';
import { fieldManagerOf } from './field-management.js';
import { readFieldsAs } from './field-validation.js';
import { objectShapeError } from '../../machinery/object-shape.js';
import { patchOptionsOf } from './options.js';
import { mutatingAdmissionFor, type ResourceRequest, validatingAdmissionFor, writeStored } from './resource-request.js';

export const APPLY_PATCH = 'application/apply-patch+yaml';

/** The applied configuration: a YAML (or JSON) mapping; null or empty is an empty one. */
function decodeConfig(text: string): Obj {
  let v: unknown;
  // JSON is YAML; clients mostly send JSON, which JSON.parse reads far faster.
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(text) as Obj;
    } catch {
      // Not JSON after all (a YAML flow mapping): read it as YAML below.
    }
  }
  try {
    // sigs.k8s.io/yaml reads YAML 1.1 (yes/no booleans, `<<` merges) and lets a repeated key win.
    v = parseYaml(text, { version: '1.1', uniqueKeys: false });
  } catch (e) {
    throw badRequest(`error decoding YAML: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (v === null || v === undefined) return {};
  if (!isPlainObject(v)) {
    const kind = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v;
    throw badRequest(
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
    );
  }
  return v as Obj;
}

/** checkName: the applied object must name the URL's object (and may not name another namespace). */
function checkName(r: ResourceRequest, obj: Obj): Obj {
  const meta = isPlainObject(obj.metadata) ? obj.metadata : {};
  const name = typeof meta.name === 'string' ? meta.name : '';
  if (name !== r.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${r.name})`);
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  if (r.namespace !== '' && ns !== '' && ns !== r.namespace) {
    throw badRequest(`the namespace of the object (${ns}) does not match the namespace on the request (${r.namespace})`);
  }
  return obj;
}

/**
 * The applied object read as its type, as every other write is: a configuration that merges into
 * something the Go types cannot hold (a null label value) is refused, never stored.
 */
function asStoredType(r: ResourceRequest, obj: Obj): Obj {
  const shape = objectShapeError(obj);
  const { kind } = r.scope;
  const { version } = r.scope.info;
  if (shape !== undefined) throw badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${shape}`);
  readFieldsAs(r, obj, 'Ignore', undefined);
  return obj;
}

/** Applies the body for its fieldManager; the registry creates the object when it does not exist. */
export async function handleApply(r: ResourceRequest, patcher: Patcher): Promise<void> {
  const fm = await fieldManagerOf(r);
  if (fm === undefined) throw new Error('apply without a field manager');
  const raw = (await readBody(r.req)).toString('utf8');
  const opts = patchOptionsOf(r.query, r.ctx.brand, true);
  const config = decodeConfig(raw);
  const apply = (live: Obj | undefined) => checkName(r, asStoredType(r, fm.apply(live, structuredClone(config), opts.fieldManager, opts.force)));
  const { obj, created } = await patcher.update(r.ctx, r.namespace, r.name, apply, {
    dryRun: opts.dryRun,
    mutatingAdmission: mutatingAdmissionFor(r, 'UPDATE'),
    validatingAdmission: validatingAdmissionFor(r, 'UPDATE'),
    createIfMissing: { mutatingAdmission: mutatingAdmissionFor(r, 'CREATE'), validatingAdmission: validatingAdmissionFor(r, 'CREATE') },
  });
  writeStored(r, created ? 201 : 200, obj, opts.dryRun);
}
