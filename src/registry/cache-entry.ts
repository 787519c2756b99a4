/**
 * The cache entry of a stored object: its served JSON (spliced from the stored bytes, so
 * neither decoded nor re-encoded) and its selector attributes, parsed only when a selector
 * first asks for them.
 */
import type { KeyValue } from '../storage/interface.js';
import type { CacheEntry, ToEntry } from '../storage/cacher/types.js';
import { metaOf, type Obj } from '../machinery/object.js';
import type { ResourceInfo } from './resource-info.js';
import { fieldValues } from './selection.js';
import { servedJson } from './object-codec.js';

/** An entry whose labels and field values are computed from its JSON on first use. */
class LazyEntry implements CacheEntry {
  private attrs: { labels: Record<string, string> | undefined; fields: Record<string, string> } | undefined;

  constructor(
    readonly key: string,
    readonly modRevision: number,
    readonly json: Buffer,
    private readonly info: ResourceInfo,
  ) {}

  private attributes() {
    if (this.attrs === undefined) {
      const obj = entryObject(this);
      this.attrs = { labels: metaOf(obj).labels, fields: fieldValues(this.info, obj) };
    }
    return this.attrs;
  }

  get labels(): Record<string, string> | undefined {
    return this.attributes().labels;
  }

  get fields(): Record<string, string> {
    return this.attributes().fields;
  }
}

/** The toEntry function of one resource. */
export function entryEncoder(info: ResourceInfo, decode: (kv: KeyValue) => Obj): ToEntry {
  return (kv, revision): CacheEntry => {
    const spliced = servedJson(info, kv.value, revision);
    if (spliced !== undefined) return new LazyEntry(kv.key, revision, spliced, info);
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
