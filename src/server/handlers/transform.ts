/**
 * Responses in the meta kind the client asked for (`Accept: ...;as=Table` or
 * `as=PartialObjectMetadata[List]`) instead of the objects: the type's Table (its printer's
 * columns and rows), or only each object's metadata.
 */
import type { AsTarget } from '../../codec/negotiation.js';
import { badRequest } from '../../machinery/status.js';
import type { Obj } from '../../machinery/object.js';
import { buildTable, printerFor, toPartialObjectMetadata, type IncludeObject, type TableOptions, type TablePrinter } from '../../printers/index.js';
import type { ResourceRequest } from './resource-request.js';

const INCLUDE_OBJECT: readonly IncludeObject[] = ['None', 'Metadata', 'Object'];

/** The includeObject query parameter (Tables; default Metadata, as upstream's TableOptions). */
function includeObjectOf(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject') ?? '';
  if (v === '') return 'Metadata';
  if (!(INCLUDE_OBJECT as readonly string[]).includes(v))
    throw badRequest(`includeObject: Unsupported value: "${v}": supported values: "None", "Metadata", "Object"`);
  return v as IncludeObject;
}

function metaApiVersion(as: AsTarget): string {
  return `${as.group}/${as.version}`;
}

/** Metadata of a list as a Table or PartialObjectMetadataList carries it. */
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** One object as the requested kind; `noHeaders` leaves a Table's column definitions out (watch events after the first). */
export function transformObject(r: ResourceRequest, as: AsTarget, obj: Obj, noHeaders = false): Obj {
  if (as.kind === 'Table') return table(r, as, [obj], undefined, noHeaders);
  return toPartialObjectMetadata(obj, metaApiVersion(as));
}

/** A list's objects as the requested kind. */
export function transformList(r: ResourceRequest, as: AsTarget, items: Obj[], listMeta: ListMeta): Record<string, unknown> {
  if (as.kind === 'Table') return table(r, as, items, listMeta, false);
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: metaApiVersion(as),
    metadata: listMeta,
    items: items.map((o) => toPartialObjectMetadata(o, metaApiVersion(as))),
  };
}

/** The printer and options of the request's Table (includeObject read and checked here). */
export function tableOptionsFor(
  r: ResourceRequest,
  as: AsTarget,
  listMeta: ListMeta | undefined,
  noHeaders = false,
): { printer: TablePrinter; options: TableOptions } {
  const { def } = r.store.info;
  const printer = printerFor(def.groupStem, def.kind, r.ctx.brand);
  return { printer, options: { includeObject: includeObjectOf(r.query), apiVersion: metaApiVersion(as), listMeta, noHeaders, now: r.ctx.now } };
}

function table(r: ResourceRequest, as: AsTarget, items: Obj[], listMeta: ListMeta | undefined, noHeaders: boolean): Obj {
  const { printer, options } = tableOptionsFor(r, as, listMeta, noHeaders);
  return buildTable(printer, items, options);
}
