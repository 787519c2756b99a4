/**
 * How objects are stored: JSON without metadata.resourceVersion (the store's modRevision is
 * the resource version, as in upstream's etcd3 store), in the storage owner's representation.
 *
 * The stored JSON always starts with apiVersion, kind and metadata, so the served bytes of an
 * unconverted object are the stored bytes with `"resourceVersion":"N"` spliced in after the
 * first `"metadata":{` — which is the top-level one, because apiVersion and kind are strings
 * (a quote inside a string is escaped, so the sequence cannot occur there).
 */
import type { KeyValue } from '../storage/interface.js';
import type { Obj } from '../machinery/object.js';
import type { Brand } from '../machinery/brand.js';
import type { ResourceInfo } from './resource-info.js';
import { storedVersion } from '../api/conversion/kind-conversion.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const METADATA_OPEN = Buffer.from('"metadata":{');
const CLOSE_BRACE = '}'.charCodeAt(0);
const openings = new WeakMap<ResourceInfo, Buffer>();

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

/** Bytes to store for obj (served form): apiVersion, kind, metadata first; resourceVersion never stored. */
export function encodeForStorage(info: ResourceInfo, obj: Obj, brand: Brand): Uint8Array {
  const stored = info.conversion ? info.conversion.toStorage(obj, brand) : obj;
  const { apiVersion, kind, metadata, ...rest } = stored;
  const meta = metadata ?? {};
  const { resourceVersion: _dropped, ...metaWithoutVersion } = meta;
  return encoder.encode(JSON.stringify({ apiVersion, kind, metadata: metaWithoutVersion, ...rest }));
}

/** The served object of a stored key-value, with resourceVersion set from its modRevision. */
export function decodeFromStorage(info: ResourceInfo, kv: KeyValue, brand: Brand): Obj {
  const stored = JSON.parse(decoder.decode(kv.value)) as Obj;
  const obj = info.conversion ? info.conversion.fromStorage(stored, brand) : fromOlderVersion(info, stored, brand);
  obj.apiVersion = info.apiVersion;
  obj.kind = info.kind;
  const meta = (obj.metadata ??= {});
  meta.resourceVersion = String(kv.modRevision);
  return obj;
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
  if ((info.def.storagePrefix !== undefined || info.def.kindConversion !== undefined) && !startsWith(bytes, apiVersionOpening(info))) return undefined;
  const at = bytes.indexOf(METADATA_OPEN);
  if (at < 0) return undefined;
  const cut = at + METADATA_OPEN.length;
  const empty = bytes[cut] === CLOSE_BRACE;
  const version = Buffer.from(`"resourceVersion":"${revision}"${empty ? '' : ','}`);
  return Buffer.concat([bytes.subarray(0, cut), version, bytes.subarray(cut)]);
}
