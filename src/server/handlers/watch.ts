/**
 * Watch streams: newline-delimited watch events over a chunked (HTTP/1.1) or streamed (HTTP/2)
 * response. The initial state and a resume's backlog are written with backpressure; live events
 * go through a bounded queue (watch-sink.ts), and a watcher that stops reading is ended when it
 * fills (the client resumes from its last resourceVersion), so no watcher ever slows another or
 * the writers.
 */
import type { ServerResponse } from 'node:http';
import { decodeWatchEvent, encodeWatchEvent, watchEventLine } from '../../codec/watch-event.js';
import { notAcceptable } from '../../machinery/status.js';
import { planWatch } from '../../registry/read-options.js';
import { selectionFor } from '../../registry/selection.js';
import type { WatchStart } from '../../registry/watch.js';
import { WatchSink } from '../watch-sink.js';
import { isWebSocketRequest, upgradeWatch } from '../websocket-watch.js';
import { watchOptionsOf } from './options.js';
import type { ResourceRequest } from './resource-request.js';

/** Bytes of events a watcher may have waiting for its socket before it is ended. */
export const WATCH_BUFFER_BYTES = 1024 * 1024;
/** How often a watch that allows bookmarks gets one (upstream: about a minute). */
const BOOKMARK_INTERVAL_MS = 60_000;

/** A BOOKMARK line at a revision (the end of watch-list's initial events is annotated). */
function bookmarkLine(r: ResourceRequest, revision: number, initialEventsEnd: boolean): Buffer {
  const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
  if (initialEventsEnd) metadata.annotations = { [r.ctx.brand.key('initial-events-end')]: 'true' };
  return encodeWatchEvent('BOOKMARK', { kind: r.scope.kind, apiVersion: r.scope.apiVersion, metadata });
}

/**
 * How this watcher's lines are written: as shared, or, for a watch of Tables or metadata,
 * rewritten per event. A shared line is decoded once for every watcher (codec's decode cache);
 * only the first rewritten event carries the Table's column definitions.
 */
async function lineWriter(r: ResourceRequest): Promise<(line: Buffer) => Buffer> {
  const as = r.output.as;
  if (as === undefined) return (line) => line;
  // Tables and their printers load on the first request for one, not at start-up.
  const { transformObject } = await import('./transform.js');
  let headersSent = false;
  return (line) => {
    const event = decodeWatchEvent(line);
    if (event.type === 'BOOKMARK' || event.type === 'ERROR') return line;
    const object = transformObject(r, as, event.object, headersSent);
    headersSent = true;
    return encodeWatchEvent(event.type, object);
  };
}

/** Streams one started watch until timeout, client close, buffer overflow or shutdown. */
async function stream(
  r: ResourceRequest,
  res: ServerResponse,
  start: WatchStart,
  opts: ReturnType<typeof watchOptionsOf>,
  endBookmark: boolean,
): Promise<void> {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let open = true;
  const end = () => {
    open = false;
    finish();
  };
  // Lines are rewritten (Tables) when written, so the first written carries the Table's headers.
  const rewrite = await lineWriter(r);
  const sink = new WatchSink(res, { bufferBytes: WATCH_BUFFER_BYTES, encode: r.output.as === undefined ? undefined : rewrite, onOverflow: end });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
  // Live lines wait in the sink until the initial state and the backlog are out.
  const unsubscribe = start.subscribe((line) => open && sink.push(line));
  res.on('close', end);
  void r.shuttingDown.then(end);
  const revision = () => r.scope.store?.currentRevision() ?? start.revision;
  const timer = setTimeout(() => {
    if (open && opts.allowWatchBookmarks) sink.push(bookmarkLine(r, revision(), false));
    end();
  }, opts.timeoutSeconds * 1000);
  let catchingUp = true;
  const bookmarks = opts.allowWatchBookmarks
    ? setInterval(() => {
        if (open && !catchingUp) sink.push(bookmarkLine(r, revision(), false));
      }, BOOKMARK_INTERVAL_MS)
    : undefined;
  if (start.expired) {
    res.write(encodeWatchEvent('ERROR', start.expired));
    end();
  } else {
    // The initial state and the kept events a resume asked for go at the client's pace.
    for (const entry of start.initial) {
      if (!open) break;
      await sink.send(watchEventLine('ADDED', entry.json), done);
    }
    for (const line of start.backlog) {
      if (!open) break;
      await sink.send(line, done);
    }
    if (open && endBookmark) await sink.send(bookmarkLine(r, start.revision, true), done);
    catchingUp = false;
    sink.release();
  }
  (res as { flushHeaders?: () => void }).flushHeaders?.();
  await done;
  open = false;
  clearTimeout(timer);
  if (bookmarks) clearInterval(bookmarks);
  unsubscribe();
  sink.finish();
  res.end();
}

/** Starts a watch of the scope's objects and streams it. */
export async function handleWatch(r: ResourceRequest): Promise<void> {
  const watcher = r.scope.capabilities.watcher;
  if (watcher === undefined) throw new Error(`${r.scope.info.plural} routed a watch without a Watcher`);
  const opts = watchOptionsOf(r.query, r.name, r.minRequestTimeoutSeconds);
  const plan = planWatch(opts, r.ctx.brand);
  // Watch events are streamed as JSON; protobuf watch framing is not served yet.
  if (!r.output.encodings.includes('json')) throw notAcceptable(['application/json']);
  const start = await watcher.watch(r.namespace, plan, selectionFor(r.scope.info, opts));
  let res = r.res;
  if (isWebSocketRequest(r.req)) {
    const upgraded = await upgradeWatch(r.req, r.res);
    if (upgraded === undefined) return;
    res = upgraded;
  }
  await stream(r, res as ServerResponse, start, opts, plan.initialEventsEndBookmark);
}
