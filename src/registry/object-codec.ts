/**
 * How objects are stored: JSON without metadata.resourceVersion (the store's modRevision is
 * the resource version, as in upstream's etcd3 store), in the storage owner's representation.
 */
import type { KeyValue } from '../storage/interface.js';
import type { Obj } from '../machinery/object.js';
import type { Brand } from '../machinery/brand.js';
import type { ResourceInfo } from './resource-info.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bytes to store for obj (served form); resourceVersion is never stored. */
export function encodeForStorage(info: ResourceInfo, obj: Obj, brand: Brand): Uint8Array {
  const stored = info.conversion ? info.conversion.toStorage(obj, brand) : obj;
  const meta = stored.metadata;
  const rv = meta?.resourceVersion;
  if (meta && rv !== undefined) delete meta.resourceVersion;
  try {
    return encoder.encode(JSON.stringify(stored));
  } finally {
    if (meta && rv !== undefined && stored === obj) meta.resourceVersion = rv;
  }
}

/** The served object of a stored key-value, with resourceVersion set from its modRevision. */
export function decodeFromStorage(info: ResourceInfo, kv: KeyValue, brand: Brand): Obj {
  const stored = JSON.parse(decoder.decode(kv.value)) as Obj;
  const obj = info.conversion ? info.conversion.fromStorage(stored, brand) : stored;
  obj.apiVersion = info.apiVersion;
  obj.kind = info.kind;
  const meta = (obj.metadata ??= {});
  meta.resourceVersion = String(kv.modRevision);
  return obj;
}
