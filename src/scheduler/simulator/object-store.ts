/**
 * An informer-like store of one kind: the latest object per key, listeners told of every
 * change in order. Objects are treated as immutable: an update stores a new object, so the
 * old one handed to listeners stays what it was.
 */
import type { ObjectLister } from '../framework/handle.js';
import type { ObjectWithMeta } from '../framework/types.js';

export interface StoreListener<T> {
  add(obj: T): void;
  update(oldObj: T, newObj: T): void;
  delete(obj: T): void;
}

export class ObjectStore<T extends ObjectWithMeta> implements ObjectLister<T> {
  private readonly items = new Map<string, T>();
  private readonly listeners: StoreListener<T>[] = [];
  private cachedList: T[] | undefined;

  constructor(
    readonly kind: string,
    private readonly nextVersion: () => string,
  ) {}

  private static key(name: string, namespace?: string): string {
    return namespace ? `${namespace}/${name}` : name;
  }

  private keyOf(obj: T): string {
    return ObjectStore.key(obj.metadata.name ?? '', obj.metadata.namespace);
  }

  list(): readonly T[] {
    this.cachedList ??= [...this.items.values()];
    return this.cachedList;
  }

  listInNamespace(namespace: string): readonly T[] {
    return this.list().filter((o) => (o.metadata.namespace ?? '') === namespace || o.metadata.namespace === undefined);
  }

  get(name: string, namespace?: string): T | undefined {
    return this.items.get(ObjectStore.key(name, namespace));
  }

  /** Subscribes and replays current objects as adds (an informer's initial list). */
  subscribe(l: StoreListener<T>): void {
    this.listeners.push(l);
    for (const o of this.items.values()) l.add(o);
  }

  /** Stores a new object; throws if one with the same key exists. */
  create(obj: T): T {
    const key = this.keyOf(obj);
    if (this.items.has(key)) throw new Error(`${this.kind} ${key} already exists`);
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: this.nextVersion() } };
    this.items.set(key, stored);
    this.cachedList = undefined;
    for (const l of this.listeners) l.add(stored);
    return stored;
  }

  /** Replaces the object with mutate(current); throws if absent. */
  update(name: string, namespace: string | undefined, mutate: (current: T) => T): T {
    const key = ObjectStore.key(name, namespace);
    const old = this.items.get(key);
    if (old === undefined) throw new Error(`${this.kind} ${key} not found`);
    const next = mutate(old);
    const stored = { ...next, metadata: { ...next.metadata, resourceVersion: this.nextVersion() } };
    this.items.set(key, stored);
    this.cachedList = undefined;
    for (const l of this.listeners) l.update(old, stored);
    return stored;
  }

  delete(name: string, namespace?: string): T | undefined {
    const key = ObjectStore.key(name, namespace);
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    this.items.delete(key);
    this.cachedList = undefined;
    for (const l of this.listeners) l.delete(old);
    return old;
  }
}
