import type { ServerResponse } from 'node:http';
/** GET of a collection: a list (optionally chunked), or a watch when `watch=true`. */
import { writeObject } from '../http.js';
import { listOptionsOf, intParam, type ResourceRequest } from './resource-request.js';
import { selectionFor } from '../../registry/selection.js';
import { listObjects } from '../../registry/list.js';
import { watchObjects } from '../../registry/watch.js';
import { forbiddenField, invalidObject, notAcceptable } from '../../machinery/status.js';

/** Answers the list of objects the options select. */
export async function handleList(r: ResourceRequest): Promise<void> {
  const opts = listOptionsOf(r.query);
  if (opts.resourceVersionMatch && (opts.resourceVersion === undefined || opts.resourceVersion === '')) {
    throw invalidObject('ListOptions', r.ctx.brand.metaGroup, '', [
      forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'),
    ]);
  }
  const selection = selectionFor(r.store.info, opts);
  const list = await listObjects(r.store, r.registry.store, r.store.info, r.namespace, opts, selection, r.ctx.brand.metaGroup);
  writeObject(r.res, 200, list, r.output);
}

/** Upstream's default watch timeout: a random duration between 30 and 60 minutes. */
function defaultWatchTimeoutSeconds(): number {
  return 1800 * (1 + Math.random());
}

/** Streams watch events as newline-delimited JSON until timeout, client close or shutdown. */
export async function handleWatch(r: ResourceRequest): Promise<void> {
  const opts = listOptionsOf(r.query);
  // Watch events are streamed as JSON; protobuf watch framing is not served yet.
  if (!r.output.encodings.includes('json')) throw notAcceptable(['application/json']);
  const timeout = intParam(r.query, 'timeoutSeconds') ?? defaultWatchTimeoutSeconds();
  const selection = selectionFor(r.store.info, opts);
  const res = r.res;
  let open = true;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const stop = await watchObjects(r.store, r.registry.store, r.store.info, r.namespace, opts, selection, {
    event(type, object) {
      if (!open) return;
      if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
      (res as ServerResponse).write(`${JSON.stringify({ type, object })}\n`);
    },
    end() {
      finish();
    },
  });
  if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
  // Flush headers so clients see the watch is established before the first event.
  (res as { flushHeaders?: () => void }).flushHeaders?.();
  const timer = setTimeout(finish, timeout * 1000);
  const clientGone = new Promise<void>((resolve) => res.on('close', () => resolve()));
  await Promise.race([done, clientGone, r.shuttingDown]);
  open = false;
  clearTimeout(timer);
  stop();
  res.end();
}
