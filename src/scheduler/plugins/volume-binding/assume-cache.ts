/**
 * Upstream's assume cache over an informer lister: Reserve records the PV/PVC it intends to
 * write so later cycles see the volume taken before the API confirms it. An assumed object
 * is dropped as soon as the lister holds a different resourceVersion than the one it was
 * assumed over (the API's answer, or someone else's change, wins).
 */
import type { ObjectLister } from '../../framework/handle.js';
import type { ObjectWithMeta } from '../../framework/types.js';

interface Assumed<T> {
  obj: T;
  /** resourceVersion of the lister's object when assumed. */
  base: string | undefined;
}

const keyOf = (name: string, namespace?: string) => (namespace ? `${namespace}/${name}` : name);

export class AssumeCache<T extends ObjectWithMeta> {
  private readonly assumed = new Map<string, Assumed<T>>();

  constructor(
    private readonly lister: ObjectLister<T>,
    private readonly namespaced: boolean,
  ) {}

  /** The assumed object if still current, else the lister's. */
  get(name: string, namespace?: string): T | undefined {
    const ns = this.namespaced ? namespace : undefined;
    const latest = this.lister.get(name, ns);
    const key = keyOf(name, ns);
    const a = this.assumed.get(key);
    if (a === undefined) return latest;
    if (latest !== undefined && latest.metadata.resourceVersion === a.base) return a.obj;
    this.assumed.delete(key);
    return latest;
  }

  /** The lister's object, ignoring assumptions (upstream's GetAPIObj). */
  getAPI(name: string, namespace?: string): T | undefined {
    return this.lister.get(name, this.namespaced ? namespace : undefined);
  }

  /** Every object, assumed versions substituted. */
  list(): T[] {
    if (this.assumed.size === 0) return this.lister.list() as T[];
    return this.lister.list().map((o) => this.get(o.metadata.name ?? '', o.metadata.namespace) ?? o);
  }

  /** Records obj as the current version; throws when the object is gone. */
  assume(obj: T): void {
    const ns = this.namespaced ? obj.metadata.namespace : undefined;
    const latest = this.lister.get(obj.metadata.name ?? '', ns);
    if (latest === undefined) throw new Error(`${keyOf(obj.metadata.name ?? '', ns)} not found in the assume cache`);
    this.assumed.set(keyOf(obj.metadata.name ?? '', ns), { obj, base: latest.metadata.resourceVersion });
  }

  /** Forgets an assumption (Unreserve or a failed bind). */
  restore(name: string, namespace?: string): void {
    this.assumed.delete(keyOf(name, this.namespaced ? namespace : undefined));
  }
}
