/**
 * The label and field selection of a list or watch, compiled once per request and applied per
 * object. Field values come from the resource definition's field getters.
 */
import type { Obj } from '../machinery/object.js';
import { metaOf } from '../machinery/object.js';
import { parseLabelSelector } from '../machinery/label-selector.js';
import { checkFieldSelector, parseFieldSelector } from '../machinery/field-selector.js';
import type { ResourceInfo } from './resource-info.js';
import type { ListOptions } from './context.js';
import type { CacheEntry } from '../storage/cacher/types.js';

export interface Selection {
  /** Selects every object: callers may skip matching. */
  readonly everything: boolean;
  matches(obj: Obj): boolean;
  /** The same decision from a cache entry's precomputed labels and field values. */
  matchesEntry(entry: CacheEntry): boolean;
}

/** Values of the type's field-selector fields for one object (what a cache entry keeps). */
export function fieldValues(info: ResourceInfo, obj: Obj): Record<string, string> {
  const meta = metaOf(obj);
  const out: Record<string, string> = { 'metadata.name': meta.name ?? '' };
  if (info.namespaced) out['metadata.namespace'] = meta.namespace ?? '';
  for (const [field, get] of Object.entries(info.def.fieldSelectors ?? {})) out[field] = get(obj) ?? '';
  return out;
}

/**
 * metadata.name or metadata.namespace of the object stored under key, read from the key
 * (`<prefix><namespace>/<name>`, neither part holding a slash), or undefined for any other field.
 * A selector on names (a controller following one ConfigMap in every namespace) then parses no
 * object for the events of every other one.
 */
function keyField(info: ResourceInfo, key: string, field: string): string | undefined {
  if (field !== 'metadata.name' && field !== 'metadata.namespace') return undefined;
  if (!key.startsWith(info.keyPrefix)) return undefined;
  const slash = info.namespaced ? key.indexOf('/', info.keyPrefix.length) : -1;
  if (field === 'metadata.name') return key.slice(slash < 0 ? info.keyPrefix.length : slash + 1);
  return info.namespaced && slash >= 0 ? key.slice(info.keyPrefix.length, slash) : '';
}

/** Compiles the request's selectors; 400 for a malformed selector or an unsupported field. */
export function selectionFor(info: ResourceInfo, opts: ListOptions): Selection {
  const labels = parseLabelSelector(opts.labelSelector ?? '');
  const fields = parseFieldSelector(opts.fieldSelector ?? '');
  // Types with their own field-label conversion upstream (core kinds, those with extra fields)
  // word an unknown field differently from those on the default conversion.
  const ownConversion = info.group === '' || info.def.fieldSelectors !== undefined;
  checkFieldSelector(fields.requirements, info.fieldSelectorFields, ownConversion ? 'label-not-supported' : 'not-known');
  if (labels.isEverything && fields.isEverything) return { everything: true, matches: () => true, matchesEntry: () => true };
  const getters = info.def.fieldSelectors ?? {};
  return {
    everything: false,
    matchesEntry(entry) {
      if (!labels.isEverything && !labels(entry.labels)) return false;
      return fields.isEverything || fields((field) => keyField(info, entry.key, field) ?? entry.fields[field] ?? '');
    },
    matches(obj) {
      const meta = metaOf(obj);
      if (!labels.isEverything && !labels(meta.labels)) return false;
      if (fields.isEverything) return true;
      return fields((field) => {
        if (field === 'metadata.name') return meta.name ?? '';
        if (field === 'metadata.namespace') return meta.namespace ?? '';
        return getters[field]?.(obj) ?? '';
      });
    },
  };
}
