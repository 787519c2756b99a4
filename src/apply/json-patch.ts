/**
 * JSON patch (RFC 6902): add, remove, replace, move, copy, test over JSON pointers (RFC 6901).
 * Any failure throws a BadRequest-style error naming the operation, and the input is untouched.
 *
 * Bounded as upstream bounds it: at most 10,000 operations (413 before any is applied), and
 * `copy` may add at most 3 MiB in all (422), since each copy can double the document.
 */
import { deepEqual } from '../machinery/deep-equal.js';
import { setOwn } from '../machinery/own-property.js';
import { badRequest, StatusError } from '../machinery/status.js';

/** Upstream's maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

/** Upstream's JSONPatchMaxCopyBytes: twice etcd's 1.5 MiB request limit. */
export const MAX_ACCUMULATED_COPY_BYTES = 3 * 1024 * 1024;

type Container = Record<string, unknown> | unknown[];

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw badRequest(`the server rejected our request due to an error in our request: invalid JSON pointer "${pointer}"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

function arrayIndex(arr: unknown[], token: string, forAdd: boolean): number {
  if (forAdd && token === '-') return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`invalid array index "${token}"`);
  const i = Number(token);
  if (i > arr.length || (!forAdd && i === arr.length)) throw new Error(`array index ${i} out of bounds`);
  return i;
}

/** Parent container and last token of a pointer inside doc. */
function locate(doc: unknown, path: string[]): { parent: Container; token: string } {
  let cur: unknown = doc;
  for (const token of path.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, token, false)];
    else if (isContainer(cur) && Object.hasOwn(cur, token)) cur = (cur as Record<string, unknown>)[token];
    else throw new Error(`missing value at "${token}"`);
  }
  if (!isContainer(cur)) throw new Error('path does not point into an object or array');
  return { parent: cur, token: path[path.length - 1] };
}

function getAt(doc: unknown, path: string[]): unknown {
  if (path.length === 0) return doc;
  const { parent, token } = locate(doc, path);
  if (Array.isArray(parent)) return parent[arrayIndex(parent, token, false)];
  if (!Object.hasOwn(parent, token)) throw new Error(`missing value at "${token}"`);
  return parent[token];
}

function remove(doc: unknown, path: string[]): unknown {
  const { parent, token } = locate(doc, path);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, token, false), 1)[0];
  if (!Object.hasOwn(parent, token)) throw new Error(`unable to remove nonexistent key: ${token}`);
  const v = parent[token];
  delete parent[token];
  return v;
}

function add(doc: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const { parent, token } = locate(doc, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, token, true), 0, value);
  else setOwn(parent, token, value);
  return doc;
}

function replace(doc: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const { parent, token } = locate(doc, path);
  if (Array.isArray(parent)) parent[arrayIndex(parent, token, false)] = value;
  else {
    if (!Object.hasOwn(parent, token)) throw new Error(`replace operation does not apply: doc is missing key: /${path.join('/')}`);
    setOwn(parent, token, value);
  }
  return doc;
}

/**
 * Size of v as compact JSON (UTF-8 bytes), as the patch library counts a copy. Iterative, and
 * linear in v: every copy sized is one the limit admits, or the last one.
 */
export function jsonSize(v: unknown): number {
  let size = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const cur = stack.pop();
    if (typeof cur === 'string') size += Buffer.byteLength(JSON.stringify(cur));
    else if (Array.isArray(cur)) {
      // Brackets and the commas between elements.
      size += 1 + Math.max(cur.length, 1);
      for (const e of cur) stack.push(e);
    } else if (typeof cur === 'object' && cur !== null) {
      const keys = Object.keys(cur);
      size += 1 + Math.max(keys.length, 1);
      for (const k of keys) {
        size += Buffer.byteLength(JSON.stringify(k)) + 1;
        stack.push((cur as Record<string, unknown>)[k]);
      }
    } else size += String(cur ?? null).length;
  }
  return size;
}

function accumulatedCopySizeError(accumulated: number): StatusError {
  return new StatusError(
    422,
    'Invalid',
    `Unable to complete the copy, the accumulated size increase of copy is ${accumulated}, exceeding the limit ${MAX_ACCUMULATED_COPY_BYTES}`,
  );
}

/** The operations of a patch document, or its refusal (not a list: 400; too many: 413). */
function operationsOf(patch: unknown): unknown[] {
  if (!Array.isArray(patch)) throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new StatusError(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`,
    );
  }
  return patch;
}

/** A patch being applied: the document so far and the bytes copied so far. */
interface Progress {
  out: unknown;
  copied: number;
}

/** Applies one operation to progress.out (changed in place, or replaced). */
function applyOperation(progress: Progress, raw: unknown): void {
  if (!isContainer(raw) || Array.isArray(raw)) throw badRequest('invalid JSON patch operation');
  const op = raw as Record<string, unknown>;
  const path = parsePointer(String(op.path ?? ''));
  try {
    switch (op.op) {
      case 'add':
        progress.out = add(progress.out, path, structuredClone(op.value));
        break;
      case 'remove':
        remove(progress.out, path);
        break;
      case 'replace':
        progress.out = replace(progress.out, path, structuredClone(op.value));
        break;
      case 'move': {
        const from = parsePointer(String(op.from ?? ''));
        const v = remove(progress.out, from);
        progress.out = add(progress.out, path, v);
        break;
      }
      case 'copy': {
        const from = parsePointer(String(op.from ?? ''));
        const value = getAt(progress.out, from);
        // Counted before the value is cloned: past the limit nothing more is allocated.
        progress.copied += jsonSize(value);
        if (progress.copied > MAX_ACCUMULATED_COPY_BYTES) throw accumulatedCopySizeError(progress.copied);
        progress.out = add(progress.out, path, structuredClone(value));
        break;
      }
      case 'test':
        if (!deepEqual(getAt(progress.out, path), op.value)) throw new Error(`testing value /${path.join('/')} failed`);
        break;
      default:
        throw new Error(`Unexpected kind: ${String(op.op)}`);
    }
  } catch (e) {
    if (e instanceof StatusError) throw e;
    // Upstream answers a patch that cannot be applied with 422 and the patch library's message.
    throw new StatusError(422, 'Invalid', e instanceof Error ? e.message : String(e));
  }
}

/** Applies an RFC 6902 patch document to a copy of doc. */
export function applyJsonPatch(doc: unknown, patch: unknown): unknown {
  const progress: Progress = { out: structuredClone(doc), copied: 0 };
  for (const op of operationsOf(patch)) applyOperation(progress, op);
  return progress.out;
}

/** How long patching may hold the event loop before it lets other requests run. */
const SLICE_MS = 20;

/**
 * applyJsonPatch, yielding to the event loop every SLICE_MS: within its limits a patch can
 * still cost seconds (10,000 inserts at the front of a 500,000-item array each shift it), and
 * upstream bounds no more than that, so the work is done in slices instead of refused.
 */
export async function applyJsonPatchInSlices(doc: unknown, patch: unknown): Promise<unknown> {
  const ops = operationsOf(patch);
  const progress: Progress = { out: structuredClone(doc), copied: 0 };
  let sliceStart = performance.now();
  for (const op of ops) {
    applyOperation(progress, op);
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return progress.out;
}
