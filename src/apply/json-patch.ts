/**
 * JSON patch (RFC 6902): add, remove, replace, move, copy, test over JSON pointers (RFC 6901).
 * Any failure throws a BadRequest-style error naming the operation, and the input is untouched.
 */
import { deepEqual } from '../machinery/deep-equal.js';
import { setOwn } from '../machinery/own-property.js';
import { badRequest, StatusError } from '../machinery/status.js';

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

/** Applies an RFC 6902 patch document to a copy of doc. */
export function applyJsonPatch(doc: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let out = structuredClone(doc);
  for (const raw of patch) {
    if (!isContainer(raw) || Array.isArray(raw)) throw badRequest('invalid JSON patch operation');
    const op = raw as Record<string, unknown>;
    const path = parsePointer(String(op.path ?? ''));
    try {
      switch (op.op) {
        case 'add':
          out = add(out, path, structuredClone(op.value));
          break;
        case 'remove':
          remove(out, path);
          break;
        case 'replace':
          out = replace(out, path, structuredClone(op.value));
          break;
        case 'move': {
          const from = parsePointer(String(op.from ?? ''));
          const v = remove(out, from);
          out = add(out, path, v);
          break;
        }
        case 'copy': {
          const from = parsePointer(String(op.from ?? ''));
          out = add(out, path, structuredClone(getAt(out, from)));
          break;
        }
        case 'test':
          if (!deepEqual(getAt(out, path), op.value)) throw new Error(`testing value /${path.join('/')} failed`);
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
  return out;
}
