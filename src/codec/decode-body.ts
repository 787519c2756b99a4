/**
 * Request bodies to JSON values: objects to create or update (JSON, YAML or protobuf), apply
 * configurations (YAML or JSON) and patches (JSON). Every path refuses nesting deeper than
 * MAX_JSON_DEPTH before any recursive step (cloning, merging, apply) can overflow the stack,
 * and none holds the event loop for long: JSON nesting is measured on the text in one pass, YAML
 * is decoded off the request thread (yaml-pool.ts) with its nesting bounded while it is read.
 */
import { parseJson } from '../machinery/json-parse-steps.js';
import { isPlainObject, type Obj } from '../machinery/object.js';
import type { Pace } from '../machinery/pace.js';
import { jsonType, MAX_JSON_DEPTH } from '../machinery/object-shape.js';
import { badRequest, type StatusError, unsupportedMediaType } from '../machinery/status.js';
import { decodeProtobufObject, ProtobufDecodeError, UnsupportedProtobufType } from './protobuf/index.js';
import { YamlDecodeError } from './yaml-decode.js';
import { decodeYamlOffThread } from './yaml-pool.js';

/** A decoded request body, and its text when it was JSON (for repeated-key checks). */
export interface DecodedBody {
  value: unknown;
  json?: string;
}

/** The type a body is decoded as: the URL's kind, and the protobuf media types of the brand. */
export interface BodyTarget {
  apiVersion: string;
  version: string;
  kind: string;
  protobufMediaTypes: readonly string[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/** True when JSON text opens more than max objects/arrays inside each other (strings skipped). */
export function jsonTextExceedsDepth(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** Go's words for a body its typed decoding cannot hold, as create and update answer them. */
function cannotHandle(target: BodyTarget, why: string): StatusError {
  return badRequest(`${target.kind} in version "${target.version}" cannot be handled as a ${target.kind}: ${why}`);
}

const DEPTH_ERROR = `json: exceeded max depth of ${MAX_JSON_DEPTH}`;

/** Decodes an object body of the given media type (already one the caller accepts). */
export async function decodeObjectBody(mediaType: string, body: Buffer, target: BodyTarget, pace?: Pace): Promise<DecodedBody> {
  if (target.protobufMediaTypes.includes(mediaType)) return { value: decodeProtobufBody(body, target) };
  const text = body.toString('utf8');
  if (mediaType.endsWith('yaml')) {
    try {
      return { value: await decodeYamlOffThread(text, { maxDepth: MAX_JSON_DEPTH, uniqueKeys: true }, pace) };
    } catch (e) {
      throw badRequest(`error converting YAML to JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (jsonTextExceedsDepth(text)) throw cannotHandle(target, DEPTH_ERROR);
  try {
    return { value: await parseJson(text, pace), json: text };
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** A protobuf body as the JSON object the JSON path would have read. */
function decodeProtobufBody(body: Buffer, target: BodyTarget): unknown {
  try {
    return decodeProtobufObject(body, { apiVersion: target.apiVersion, kind: target.kind });
  } catch (e) {
    if (e instanceof UnsupportedProtobufType) throw unsupportedMediaType(['application/json', 'application/yaml']);
    if (e instanceof ProtobufDecodeError) throw badRequest(`error decoding protobuf body: ${e.message}`);
    throw e;
  }
}

/**
 * An apply configuration (`application/apply-patch+yaml`): a YAML (or JSON) mapping; null or
 * empty is an empty one. Read as sigs.k8s.io/yaml reads it: YAML 1.1, a repeated key wins.
 */
export async function decodeApplyConfiguration(text: string, target: Pick<BodyTarget, 'kind' | 'version'>, pace?: Pace): Promise<Obj> {
  // JSON is YAML; clients mostly send JSON, which JSON.parse reads far faster.
  if (text.trimStart().startsWith('{')) {
    if (jsonTextExceedsDepth(text)) throw cannotHandle({ ...target, apiVersion: '', protobufMediaTypes: [] }, DEPTH_ERROR);
    try {
      return (await parseJson(text, pace)) as Obj;
    } catch {
      // Not JSON after all (a YAML flow mapping): read it as YAML below.
    }
  }
  let v: unknown;
  try {
    v = await decodeYamlOffThread(text, { version: '1.1', uniqueKeys: false, maxDepth: MAX_JSON_DEPTH }, pace);
  } catch (e) {
    if (!(e instanceof YamlDecodeError)) throw e;
    throw badRequest(`error decoding YAML: ${e.message}`);
  }
  if (v === null || v === undefined) return {};
  if (!isPlainObject(v)) {
    throw badRequest(
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${jsonType(v)} into Go value of type map[string]interface {}`,
    );
  }
  return v as Obj;
}

/** A patch body (JSON patch, merge patch or strategic merge patch): JSON of bounded nesting. */
export async function decodePatchBody(text: string, pace?: Pace): Promise<unknown> {
  if (jsonTextExceedsDepth(text)) throw badRequest(`error decoding patch: ${DEPTH_ERROR}`);
  try {
    return await parseJson(text, pace);
  } catch (e) {
    throw badRequest(`error decoding patch: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * An options body (DeleteOptions): Protobuf when the Content-Type says so (kubectl drain sends
 * one), else JSON of bounded nesting; undefined when empty.
 */
export function decodeOptionsBody(body: Buffer, mediaType = '', protobufMediaTypes: readonly string[] = []): unknown {
  if (body.length === 0) return undefined;
  if (protobufMediaTypes.includes(mediaType)) {
    return decodeProtobufBody(body, { apiVersion: 'meta.k8s.io/v1', version: 'v1', kind: 'DeleteOptions', protobufMediaTypes });
  }
  const text = body.toString('utf8');
  if (jsonTextExceedsDepth(text)) throw badRequest(`couldn't get version/kind; json parse error: ${DEPTH_ERROR}`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`);
  }
}
