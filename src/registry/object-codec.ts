/**
 * How objects are stored: JSON without metadata.resourceVersion (the store's modRevision is
 * the resource version, as in upstream's etcd3 store), in the storage owner's representation.
 *
 * Built-in types are stored in upstream's encoder order (machinery/object-order.ts): kind,
 * apiVersion, metadata in ObjectMeta order. The served bytes of an unconverted object are the
 * stored bytes with `"resourceVersion":"N"` spliced into the first `"metadata":{` — the
 * top-level one, because kind and apiVersion are strings (a quote inside a string is escaped,
 * so the sequence cannot occur there) — after the string fields ObjectMeta puts before it
 * (name ... uid). Custom resources, and bytes stored before this order, start with apiVersion
 * and get the version first in metadata, as they always did.
 */
import { parseJson } from '../machinery/json-parse-steps.js';
import type { KeyValue } from '../storage/interface.js';
import type { Obj } from '../machinery/object.js';
import type { Brand } from '../machinery/brand.js';
import type { ResourceInfo } from './resource-info.js';
import { goOrderedJson, goOrderedJsonSteps, inGoOrder, META_KEYS_BEFORE_RESOURCE_VERSION } from '../machinery/object-order.js';
import { utf8Steps } from '../machinery/utf8-steps.js';
import { jsonSteps } from '../machinery/json-steps.js';
import { type Due, runAtOnce } from '../machinery/pace.js';
import { storedVersion } from '../api/conversion/kind-conversion.js';
import { type GoZeroFields, goZeroFieldsFor } from '../codec/protobuf/index.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const METADATA_OPEN = Buffer.from('"metadata":{');
const CLOSE_BRACE = '}'.charCodeAt(0);
const QUOTE = '"'.charCodeAt(0);
const BACKSLASH = '\\'.charCodeAt(0);
const COLON = ':'.charCodeAt(0);
const KIND_FIRST = Buffer.from('{"kind":');
const openings = new WeakMap<ResourceInfo, Buffer>();
const kindOpenings = new WeakMap<ResourceInfo, Buffer>();

function startsWith(bytes: Buffer, prefix: Buffer): boolean {
  return bytes.length >= prefix.length && bytes.subarray(0, prefix.length).equals(prefix);
}

/** `{"apiVersion":"<served apiVersion>",`, how bytes stored at the served version begin. */
function apiVersionOpening(info: ResourceInfo): Buffer {
  let b = openings.get(info);
  if (b === undefined) {
    b = Buffer.from(`{"apiVersion":${JSON.stringify(info.apiVersion)},`);
    openings.set(info, b);
  }
  return b;
}

/** `{"kind":"<kind>","apiVersion":"<served apiVersion>",`, how built-in bytes stored at the served version begin. */
function kindOpening(info: ResourceInfo): Buffer {
  let b = kindOpenings.get(info);
  if (b === undefined) {
    b = Buffer.from(`{"kind":${JSON.stringify(info.kind)},"apiVersion":${JSON.stringify(info.apiVersion)},`);
    kindOpenings.set(info, b);
  }
  return b;
}

/** Whether bytes were stored at the served version (in either layout). */
function storedAtServedVersion(info: ResourceInfo, bytes: Buffer): boolean {
  return startsWith(bytes, kindOpening(info)) || startsWith(bytes, apiVersionOpening(info));
}

// The always-written fields of the kinds stored through another version's view (a handful of built-ins).
const storedGoFields = new Map<string, GoZeroFields | undefined>();

/** A converted object with its own version's always-written fields (a view's are not the storage version's). */
function withStoredGoFields(stored: Obj): Obj {
  const key = `${String(stored.apiVersion)}/${String(stored.kind)}`;
  if (!storedGoFields.has(key)) storedGoFields.set(key, goZeroFieldsFor(String(stored.apiVersion), String(stored.kind)));
  storedGoFields.get(key)?.fill(stored);
  return stored;
}

/** Bytes to store for obj (served form): kind, apiVersion, metadata first (custom resources: apiVersion first); resourceVersion never stored. */
export function encodeForStorage(info: ResourceInfo, obj: Obj, brand: Brand): Uint8Array {
  return runAtOnce(() => encodeForStorageSteps(info, obj, brand, undefined));
}

/** encodeForStorage as stepped work: with `due` (a request that has paused), the JSON is written in steps. */
export function* encodeForStorageSteps(info: ResourceInfo, obj: Obj, brand: Brand, due: Due | undefined): Generator<void, Uint8Array, void> {
  const stored = info.conversion ? withStoredGoFields(info.conversion.toStorage(obj, brand)) : obj;
  // Exactly-sized bytes (not Buffer.from's pooled slices): the watch cache's history keeps them.
  if (!isCustom(info)) {
    const ordered = stored.metadata == null ? { ...stored, metadata: {} } : stored;
    if (due === undefined) return encoder.encode(goOrderedJson(ordered, 'resourceVersion'));
    return yield* utf8Steps(yield* goOrderedJsonSteps(ordered, 'resourceVersion', due), due);
  }
  const { apiVersion, kind, metadata, ...rest } = stored;
  const { resourceVersion: _dropped, ...metaWithoutVersion } = metadata ?? {};
  const custom = { apiVersion, kind, metadata: metaWithoutVersion, ...rest };
  if (due === undefined) return encoder.encode(JSON.stringify(custom));
  return yield* utf8Steps((yield* jsonSteps(custom, due)) as string, due);
}

/** Custom resources are unstructured upstream: they keep the layout they were written in. */
function isCustom(info: ResourceInfo): boolean {
  return info.def.storagePrefix !== undefined;
}

/** The served object of a stored key-value, with resourceVersion set from its modRevision. */
export function decodeFromStorage(info: ResourceInfo, kv: KeyValue, brand: Brand): Obj {
  return servedOf(info, JSON.parse(decoder.decode(kv.value)) as Obj, kv, brand);
}

/** decodeFromStorage where the caller can wait: a large value is parsed in steps (machinery/json-parse-steps.ts). */
export function decodeFromStorageInSteps(info: ResourceInfo, kv: KeyValue, brand: Brand): Obj | Promise<Obj> {
  const stored = parseJson(decoder.decode(kv.value));
  return stored instanceof Promise ? stored.then((o) => servedOf(info, o as Obj, kv, brand)) : servedOf(info, stored as Obj, kv, brand);
}

function servedOf(info: ResourceInfo, stored: Obj, kv: KeyValue, brand: Brand): Obj {
  const obj = info.conversion ? info.conversion.fromStorage(stored, brand) : fromOlderVersion(info, stored, brand);
  obj.apiVersion = info.apiVersion;
  obj.kind = info.kind;
  // A converted view gets its own version's always-written fields (stored bytes carry the storage version's).
  if (obj !== stored) info.goFields?.fill(obj);
  const meta = (obj.metadata ??= {});
  meta.resourceVersion = String(kv.modRevision);
  return isCustom(info) ? obj : inGoOrder(obj);
}

/** The end of a JSON string whose opening quote is at bytes[start]: the index after its closing quote, or -1. */
function skipString(bytes: Buffer, start: number): number {
  for (let i = start + 1; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/**
 * Where `"resourceVersion"` goes in metadata that opens at `open` (just after its brace): after
 * the leading string fields ObjectMeta orders before it. Returns the index and whether a comma
 * goes before (after a field) or after (first field, more follow) the inserted pair.
 */
function versionSlot(bytes: Buffer, open: number): { at: number; after: boolean } {
  let at = open;
  let after = false;
  for (;;) {
    const keyStart = after ? at + 1 : at;
    if (after && bytes[at] !== 0x2c /* , */) break;
    if (bytes[keyStart] !== QUOTE) break;
    const keyEnd = skipString(bytes, keyStart);
    if (keyEnd < 0 || bytes[keyEnd] !== COLON || bytes[keyEnd + 1] !== QUOTE) break;
    const key = bytes.toString('latin1', keyStart + 1, keyEnd - 1);
    if (!META_KEYS_BEFORE_RESOURCE_VERSION.has(key)) break;
    const valueEnd = skipString(bytes, keyEnd + 1);
    if (valueEnd < 0) break;
    at = valueEnd;
    after = true;
  }
  return { at, after };
}

/**
 * A stored object of a multi-version kind read by its storage version's owner: one written at
 * another version (before the storage version moved, e.g. autoscaling/v1 HPAs) is converted.
 */
function fromOlderVersion(info: ResourceInfo, stored: Obj, brand: Brand): Obj {
  const kc = info.def.kindConversion;
  if (kc === undefined || stored.apiVersion === info.apiVersion) return stored;
  return kc.convert(stored, storedVersion(kc, stored), info.version, brand);
}

/**
 * The served compact JSON of a stored object at `revision` without decoding it, or undefined
 * when that is not possible (converted views, or bytes not written by encodeForStorage).
 */
export function servedJson(info: ResourceInfo, value: Uint8Array, revision: number): Buffer | undefined {
  if (info.conversion) return undefined;
  const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  // A custom resource stored at another version (its CRD's storage version changed) is decoded and relabelled.
  // So is a built-in object stored at another version of its kind.
  if ((info.def.storagePrefix !== undefined || info.def.kindConversion !== undefined) && !storedAtServedVersion(info, bytes)) return undefined;
  const at = bytes.indexOf(METADATA_OPEN);
  if (at < 0) return undefined;
  const open = at + METADATA_OPEN.length;
  const slot = startsWith(bytes, KIND_FIRST) ? versionSlot(bytes, open) : { at: open, after: false };
  const pair = `"resourceVersion":"${revision}"`;
  const version = Buffer.from(slot.after ? `,${pair}` : bytes[slot.at] === CLOSE_BRACE ? pair : `${pair},`);
  return Buffer.concat([bytes.subarray(0, slot.at), version, bytes.subarray(slot.at)]);
}
