/**
 * The cache entry of a stored object: its served JSON (spliced from the stored bytes, so
 * neither decoded nor re-encoded) and its selector attributes, parsed only when a selector
 * first asks for them. A view that cannot be spliced (a converted one, such as events.<group>/v1
 * over the core events) is decoded only when someone reads it: most such caches have no watcher
 * or reader, and every write to the shared storage reaches them.
 */
import type { KeyValue } from '../storage/interface.js';
import type { CacheEntry, ToEntry } from '../storage/cacher/types.js';
import { metaOf, type Obj } from '../machinery/object.js';
import { type Due, runAtOnce } from '../machinery/pace.js';
import { setOwn } from '../machinery/own-property.js';
import type { ResourceInfo } from './resource-info.js';
import { fieldValues } from './selection.js';
import { servedJson } from './object-codec.js';

interface Attributes {
  labels: Record<string, string> | undefined;
  fields: Record<string, string>;
}

/** What a writer of this server noted about an object it is storing. */
interface Written {
  info: ResourceInfo;
  attrs: Attributes;
  obj: Obj;
}

/**
 * Objects this server just wrote, by the bytes it wrote: the store hands the same bytes to its
 * watch, so the cache entry of the write takes its selector attributes from here, and its event's
 * readers (the Node authorizer's graph) the object itself, instead of parsing the JSON back (two
 * or three parses of every pod a scheduler binds). Taken once; weak, so bytes no entry reads
 * take their record along.
 */
const written = new WeakMap<Uint8Array, Written>();

/**
 * Records obj (the unconverted served form), about to be stored as `bytes`. The writer hands it
 * over: it changes nothing of it later but its resourceVersion.
 */
export function noteWritten(info: ResourceInfo, bytes: Uint8Array, obj: Obj): void {
  runAtOnce((due) => noteWrittenSteps(info, bytes, obj, due));
}

/** noteWritten as stepped work: a map of a hundred thousand labels is copied in steps. */
export function* noteWrittenSteps(info: ResourceInfo, bytes: Uint8Array, obj: Obj, due: Due): Generator<void, void, void> {
  const labels = metaOf(obj).labels;
  // A copy: the caller's object lives on as a response and must not change a cache entry.
  const copy = labels === undefined || labels === null ? labels : yield* copyMapSteps(labels, due);
  written.set(bytes, { info, attrs: { labels: copy, fields: fieldValues(info, obj) }, obj });
}

/** Entries copied between two looks at the pace. */
const ENTRIES_PER_STEP = 4096;

/** A shallow copy of a string map; one spread when small, else in steps (a `__proto__` key stays a key). */
function* copyMapSteps(map: Record<string, string>, due: Due): Generator<void, Record<string, string>, void> {
  // Listing the keys is one native call: it starts a slice rather than ending a spent one.
  if (due()) yield;
  const keys = Object.keys(map);
  if (keys.length <= ENTRIES_PER_STEP) return { ...map };
  const copy: Record<string, string> = {};
  for (let i = 0; i < keys.length; i++) {
    setOwn(copy, keys[i], map[keys[i]]);
    if ((i + 1) % ENTRIES_PER_STEP === 0 && due()) yield;
  }
  return copy;
}

/** The record of these bytes by a writer of the same resource (another view's fields differ). */
function takeWritten(info: ResourceInfo, bytes: Uint8Array): Written | undefined {
  const noted = written.get(bytes);
  if (noted === undefined || noted.info !== info) return undefined;
  written.delete(bytes);
  return noted;
}

/** An entry whose labels and field values are computed from its JSON on first use. */
class LazyEntry implements CacheEntry {
  constructor(
    readonly key: string,
    readonly modRevision: number,
    readonly json: Buffer,
    private readonly info: ResourceInfo,
    private attrs: Attributes | undefined,
  ) {}

  private attributes(): Attributes {
    if (this.attrs === undefined) {
      const obj = sharedEntryObject(this);
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

/** An entry of a view that needs the object decoded (and converted): done on first read, once. */
class DecodedEntry implements CacheEntry {
  private done: { json: Buffer; attrs: Attributes } | undefined;

  constructor(
    readonly key: string,
    readonly modRevision: number,
    private kv: KeyValue | undefined,
    private readonly info: ResourceInfo,
    private readonly decode: (kv: KeyValue) => Obj,
  ) {}

  private decoded(): { json: Buffer; attrs: Attributes } {
    if (this.done === undefined) {
      const obj = this.decode(this.kv as KeyValue);
      const meta = metaOf(obj);
      // A deleted object is served with the deletion's revision as its resourceVersion.
      if (this.modRevision !== (this.kv as KeyValue).modRevision) meta.resourceVersion = String(this.modRevision);
      this.done = { json: Buffer.from(JSON.stringify(obj)), attrs: { labels: meta.labels, fields: fieldValues(this.info, obj) } };
      this.kv = undefined;
    }
    return this.done;
  }

  get json(): Buffer {
    return this.decoded().json;
  }

  /** The served size once encoded; before, the stored size (same object, another version's shape). */
  get jsonBytes(): number {
    return this.done !== undefined ? this.done.json.length : (this.kv as KeyValue).value.length;
  }

  get labels(): Record<string, string> | undefined {
    return this.decoded().attrs.labels;
  }

  get fields(): Record<string, string> {
    return this.decoded().attrs.fields;
  }
}

/** The toEntry function of one resource. */
export function entryEncoder(info: ResourceInfo, decode: (kv: KeyValue) => Obj): ToEntry {
  return (kv, revision): CacheEntry => {
    const spliced = servedJson(info, kv.value, revision);
    if (spliced === undefined) return new DecodedEntry(kv.key, revision, kv, info, decode);
    const noted = takeWritten(info, kv.value);
    const entry = new LazyEntry(kv.key, revision, spliced, info, noted?.attrs);
    if (noted !== undefined) lend(entry, noted.obj);
    return entry;
  };
}

/** The object of a cache entry (a fresh copy the caller may change). */
export function entryObject(entry: CacheEntry): Obj {
  return JSON.parse(entry.json.toString('utf8')) as Obj;
}

/**
 * The last entry read through sharedEntryObject and its object: one write's event is read by
 * several consumers in a row (the selector attributes, the Node authorizer's graph), and this
 * lets them share one parse.
 */
let lastEntry: CacheEntry | undefined;
let lastObject: Obj | undefined;

/**
 * Lends the written object to the readers of its entry's event, delivered in this same
 * synchronous step: past it (a microtask later) the object goes back to its writer, which may
 * answer with it, and readers parse again.
 */
function lend(entry: CacheEntry, obj: Obj): void {
  lastEntry = entry;
  lastObject = obj;
  queueMicrotask(() => {
    if (lastEntry !== entry) return;
    lastEntry = undefined;
    lastObject = undefined;
  });
}

/**
 * The object of a cache entry, possibly shared with other readers: never change it. Its
 * metadata.resourceVersion may be missing or older than the entry's.
 */
export function sharedEntryObject(entry: CacheEntry): Readonly<Obj> {
  if (entry !== lastEntry || lastObject === undefined) {
    lastObject = entryObject(entry);
    lastEntry = entry;
  }
  return lastObject;
}
