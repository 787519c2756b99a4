/**
 * client-go's thread-safe store with indexers (cache.NewIndexer): objects by key
 * (`<namespace>/<name>`, or `<name>` for cluster-scoped ones) plus named indexes that map an
 * index value to the keys of the objects it names. JavaScript is single-threaded, so "thread
 * safe" reduces to: readers see whole updates only. Objects are stored as given, never copied;
 * readers must not mutate them.
 */

/** The fields of metadata the store needs. */
export interface KubeObject {
  metadata: { name?: string; namespace?: string; resourceVersion?: string; uid?: string; [k: string]: unknown };
}

/** Index values of one object (an object may have several, or none). */
export type IndexFunc<T> = (obj: T) => readonly string[];

/** The namespace index, as client-go's cache.NamespaceIndex. */
export const NAMESPACE_INDEX = 'namespace';
export const namespaceIndexFunc: IndexFunc<KubeObject> = (o) => [o.metadata.namespace ?? ''];

/** client-go's MetaNamespaceKeyFunc. */
export function objectKey(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name ?? ''}` : (name ?? '');
}

export class Store<T extends KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  /** A list snapshot, rebuilt lazily after a change: listers are read far more often than written. */
  private listCache: T[] | undefined;

  constructor(private readonly indexers: ReadonlyMap<string, IndexFunc<T>> = new Map()) {
    for (const name of indexers.keys()) this.indices.set(name, new Map());
  }

  /** Adds or replaces the object under its key; returns the object it replaced. */
  upsert(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    if (old !== undefined) this.unindex(key, old);
    this.items.set(key, obj);
    this.index(key, obj);
    this.listCache = undefined;
    return old;
  }

  /** Removes the object with this object's key; returns what was stored. */
  delete(obj: T): T | undefined {
    return this.deleteKey(objectKey(obj));
  }

  deleteKey(key: string): T | undefined {
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    this.listCache = undefined;
    return old;
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  get(name: string, namespace?: string): T | undefined {
    return this.items.get(namespace ? `${namespace}/${name}` : name);
  }

  /** Every object; the array is shared until the next change, so callers must not modify it. */
  list(): readonly T[] {
    this.listCache ??= [...this.items.values()];
    return this.listCache;
  }

  keys(): IterableIterator<string> {
    return this.items.keys();
  }

  get size(): number {
    return this.items.size;
  }

  /** Objects whose index `indexName` has the value `value`; throws on an unknown index (a programming error). */
  byIndex(indexName: string, value: string): T[] {
    const index = this.indices.get(indexName);
    if (index === undefined) throw new Error(`index ${indexName} does not exist`);
    const keys = index.get(value);
    if (keys === undefined) return [];
    const out: T[] = [];
    for (const k of keys) {
      const o = this.items.get(k);
      if (o !== undefined) out.push(o);
    }
    return out;
  }

  private index(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name)!;
      for (const v of fn(obj)) {
        let set = index.get(v);
        if (set === undefined) index.set(v, (set = new Set()));
        set.add(key);
      }
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name)!;
      for (const v of fn(obj)) {
        const set = index.get(v);
        if (set === undefined) continue;
        set.delete(key);
        if (set.size === 0) index.delete(v);
      }
    }
  }
}
