/**
 * A meta/v1 Table as upstream's API server returns it: the printer's columns (all of them; the
 * server prints wide), one row per object with the object itself, its metadata only
 * (PartialObjectMetadata, the default) or nothing, as `includeObject` asks.
 */
import type { ListMeta, Obj, ObjectMeta } from '../machinery/object.js';
import type { TablePrinter } from './types.js';

/** metav1.IncludeObjectPolicy. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  includeObject: IncludeObject;
  /** Of the Table and the PartialObjectMetadata rows, e.g. `meta.orch.io/v1`. */
  apiVersion: string;
  /** A list's metadata; omitted for one object, whose resourceVersion the Table then carries. */
  listMeta?: ListMeta;
  /** metav1.TableOptions.NoHeaders (watch events after the first): no column definitions. */
  noHeaders?: boolean;
  /** The time ages are measured to. */
  now: Date;
}

/** An object's metadata as a PartialObjectMetadata of the meta group version. */
export function toPartialObjectMetadata(obj: Obj, metaApiVersion: string): Obj {
  return { kind: 'PartialObjectMetadata', apiVersion: metaApiVersion, metadata: obj.metadata ?? {} };
}

/** The row's `object`: upstream's RawExtension serializes a nil object as null. */
function rowObject(obj: Obj, opts: TableOptions): Obj | null {
  switch (opts.includeObject) {
    case 'Object':
      return obj;
    case 'Metadata':
      return toPartialObjectMetadata(obj, opts.apiVersion);
    case 'None':
      return null;
  }
}

/**
 * The Table's ListMeta: a list's, or for one object its resourceVersion (upstream's table
 * generator reads a non-list with meta.CommonAccessor). Unset fields are left out (omitempty).
 */
function tableMetadata(listMeta: ListMeta | undefined, objects: readonly Obj[]): ObjectMeta {
  if (listMeta === undefined) listMeta = { resourceVersion: objects.length === 1 ? objects[0].metadata?.resourceVersion : undefined };
  const out: Record<string, unknown> = {};
  if (listMeta?.resourceVersion) out.resourceVersion = listMeta.resourceVersion;
  if (listMeta?.continue) out.continue = listMeta.continue;
  if (listMeta?.remainingItemCount !== undefined) out.remainingItemCount = listMeta.remainingItemCount;
  return out;
}

/** The Table of objects (one object for a get or watch event, the items of a list). */
export function buildTable(printer: TablePrinter, objects: readonly Obj[], opts: TableOptions): Obj {
  const ordered = printer.sortList === undefined ? objects : printer.sortList(objects);
  const rows: Obj[] = [];
  for (const obj of ordered) rows.push(...tableRows(printer, obj, opts));
  return {
    ...tableHead(printer, opts, objects),
    // Serialized without omitempty upstream: absent rows are null.
    rows: rows.length === 0 && printer.nullRowsWhenEmpty ? null : rows,
  };
}

/** A Table's fields before its rows (a list's Table is streamed as this, then its rows). */
export function tableHead(printer: TablePrinter, opts: TableOptions, objects: readonly Obj[] = []): Obj {
  return {
    kind: 'Table',
    apiVersion: opts.apiVersion,
    metadata: tableMetadata(opts.listMeta, objects),
    // Serialized without omitempty upstream: absent headers are null.
    columnDefinitions: opts.noHeaders ? null : printer.columns,
  };
}

/** The rows of one object (printers may print several per object). */
export function tableRows(printer: TablePrinter, obj: Obj, opts: TableOptions): Obj[] {
  const conditions = printer.conditions?.(obj);
  const object = rowObject(obj, opts);
  return printer.rows(obj, opts.now).map((cells) => (conditions === undefined || conditions.length === 0 ? { cells, object } : { cells, conditions, object }));
}
