/** GET of a collection: a list (optionally chunked), served per the List table. */
import { chooseEncoding, contentTypeOf } from '../../codec/serialize.js';
import { entryObject } from '../../registry/cache-entry.js';
import type { EntryList } from '../../registry/list.js';
import { planList } from '../../registry/read-options.js';
import { selectionFor } from '../../registry/selection.js';
import { writeBody, writeObject, type Response } from '../http.js';
import type { ResourceRequest } from './resource-request.js';
import { listOptionsOf } from './options.js';

/** Answers the list of objects the options select. */
export async function handleList(r: ResourceRequest): Promise<void> {
  const lister = r.scope.capabilities.lister;
  if (lister === undefined) throw new Error(`${r.scope.info.plural} routed a list without a Lister`);
  const opts = listOptionsOf(r.query);
  const plan = planList(opts, r.ctx.brand);
  const selection = selectionFor(r.scope.info, opts);
  const list = await lister.list(r.namespace, opts, plan, selection);
  if (r.output.as) {
    // Tables and their printers load on the first request for one, not at start-up.
    const { transformList } = await import('./transform.js');
    return writeObject(r.res, 200, transformList(r, r.output.as, list.entries.map(entryObject), list.metadata), r.output);
  }
  const encoding = chooseEncoding(r.output.encodings, list.apiVersion, list.kind);
  if (encoding === 'json' && !r.output.pretty) return writeJsonList(r.res, list, contentTypeOf('json', ''));
  writeObject(r.res, 200, { apiVersion: list.apiVersion, kind: list.kind, metadata: list.metadata, items: list.entries.map(entryObject) }, r.output);
}

/** Writes a list as JSON by joining the items' cached bytes (no per-item encode). */
function writeJsonList(res: Response, list: EntryList, contentType: string): void {
  const head = Buffer.from(
    `{"kind":${JSON.stringify(list.kind)},"apiVersion":${JSON.stringify(list.apiVersion)},"metadata":${JSON.stringify(list.metadata)},"items":[`,
  );
  const parts: Buffer[] = [head];
  for (let i = 0; i < list.entries.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(list.entries[i].json);
  }
  parts.push(TAIL);
  const body = Buffer.concat(parts);
  writeBody(res, 200, contentType, body);
}

const COMMA = Buffer.from(',');
const TAIL = Buffer.from(']}');
