/** The cache entry of a stored object: its served JSON (encoded once) and its selector attributes. */
import type { KeyValue } from '../storage/interface.js';
import type { CacheEntry, ToEntry } from '../storage/cacher/types.js';
import { metaOf, type Obj } from '../machinery/object.js';
import type { ResourceInfo } from './resource-info.js';
import { fieldValues } from './selection.js';

/** The toEntry function of one resource: decode once, keep bytes and attributes, drop the object. */
export function entryEncoder(info: ResourceInfo, decode: (kv: KeyValue) => Obj): ToEntry {
  return (kv, revision): CacheEntry => {
    const obj = decode(kv);
    const meta = metaOf(obj);
    // A deleted object is served with the deletion's revision as its resourceVersion.
    if (revision !== kv.modRevision) meta.resourceVersion = String(revision);
    return { key: kv.key, modRevision: revision, json: Buffer.from(JSON.stringify(obj)), labels: meta.labels, fields: fieldValues(info, obj) };
  };
}

/** The object of a cache entry (a fresh copy the caller may change). */
export function entryObject(entry: CacheEntry): Obj {
  return JSON.parse(entry.json.toString('utf8')) as Obj;
}
