/**
 * Responses in the meta kind the client asked for (`Accept: ...;as=Table` or
 * `as=PartialObjectMetadata[List]`) instead of the objects: the type's Table (its printer's
 * columns and rows), or only each object's metadata.
 */
import type { AsTarget } from '../../codec/negotiation.js';
import type { Obj } from '../../machinery/object.js';
import { buildTable, customColumnsPrinter, printerFor, toPartialObjectMetadata, type TableOptions, type TablePrinter } from '../../printers/index.js';
import { tableOptionsOf } from './options.js';
import type { ResourceRequest } from './resource-request.js';

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
  const { def } = r.scope.info;
  // A custom resource prints the columns its definition declares.
  const printer = r.scope.cached('printer', () =>
    def.printerColumns ? customColumnsPrinter(def.printerColumns) : printerFor(def.groupStem, def.kind, r.ctx.brand),
  );
  return {
    printer,
    options: { includeObject: tableOptionsOf(r.query).includeObject, apiVersion: metaApiVersion(as), listMeta, noHeaders, now: r.ctx.now },
  };
}

function table(r: ResourceRequest, as: AsTarget, items: Obj[], listMeta: ListMeta | undefined, noHeaders: boolean): Obj {
  const { printer, options } = tableOptionsFor(r, as, listMeta, noHeaders);
  return buildTable(printer, items, options);
}
