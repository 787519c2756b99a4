/**
 * One kind served at several versions: a hub (the storage version, upstream's internal form)
 * and spokes that convert to and from it, as upstream's scheme converts every external version
 * through the internal one. The registry stores the hub; every other served version is a view
 * whose storage Conversion this builds.
 */
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import type { Conversion, KindConversion, ResourceDefinition } from '../types.js';

export type { KindConversion };

/** A version other than the hub: converts its objects to the hub's form and back. */
export interface Spoke {
  /** Object of this version -> hub object. Never mutates obj. */
  toHub(obj: Obj, brand: Brand): Obj;
  /** Hub object -> object of this version. Never mutates obj. */
  fromHub(obj: Obj, brand: Brand): Obj;
}

/** The version part of an apiVersion (`autoscaling/v1` -> `v1`, core `v1` -> `v1`). */
export function versionOf(apiVersion: unknown): string {
  const text = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = text.lastIndexOf('/');
  return slash < 0 ? text : text.slice(slash + 1);
}

/** Copies obj with apiVersion and kind first (as stored and served), set to the given values. */
function labelled(obj: Obj, apiVersion: string, kind: string): Obj {
  const { apiVersion: _v, kind: _k, ...rest } = obj;
  return { apiVersion, kind, ...rest };
}

/** A kind whose versions all convert through `hub`; a spoke-less version would be the hub itself. */
export function hubAndSpokes(groupStem: string, branded: boolean, kind: string, hub: string, spokes: Readonly<Record<string, Spoke>>): KindConversion {
  const byVersion = new Map(Object.entries(spokes));
  const spokeOf = (version: string): Spoke | undefined => {
    if (version === hub) return undefined;
    const spoke = byVersion.get(version);
    if (spoke === undefined) throw new Error(`${kind} has no version ${JSON.stringify(version)}`);
    return spoke;
  };
  return {
    groupStem,
    branded,
    kind,
    storageVersion: hub,
    versions: [hub, ...byVersion.keys()],
    convert(obj, from, to, brand) {
      const group = brand.group(groupStem, branded);
      const apiVersion = (v: string) => (group === '' ? v : `${group}/${v}`);
      const source = spokeOf(from);
      const target = spokeOf(to);
      const hubObj = source ? labelled(source.toHub(obj, brand), apiVersion(hub), kind) : obj;
      return labelled(target ? target.fromHub(hubObj, brand) : hubObj, apiVersion(to), kind);
    },
  };
}

/**
 * The storage Conversion of the view at `version`: writes convert to the storage version; reads
 * convert from whatever version the stored object carries (objects written before the storage
 * version moved keep their old apiVersion until rewritten).
 */
export function viewConversion(kc: KindConversion, version: string): Conversion {
  return {
    toStorage: (obj, brand) => kc.convert(obj, version, kc.storageVersion, brand),
    fromStorage: (obj, brand) => kc.convert(obj, storedVersion(kc, obj), version, brand),
  };
}

/** The version a stored object was written at; one the kind does not know reads as the storage version. */
export function storedVersion(kc: KindConversion, stored: Obj): string {
  const v = versionOf(stored.apiVersion);
  return kc.versions.includes(v) ? v : kc.storageVersion;
}

/**
 * A definition as one version of a multi-version kind: every version carries the capability;
 * a version other than the storage one becomes a view of the storage version's key prefix.
 */
export function asVersionOf(kc: KindConversion, def: ResourceDefinition): ResourceDefinition {
  if (def.version === kc.storageVersion) return { ...def, kindConversion: kc };
  return { ...def, kindConversion: kc, storage: { groupStem: kc.groupStem, plural: def.plural, conversion: viewConversion(kc, def.version) } };
}
