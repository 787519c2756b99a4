/**
 * Watch streams: newline-delimited watch events over a chunked (HTTP/1.1) or streamed (HTTP/2)
 * response. The initial state and a resume's backlog are written with backpressure; live events
 * go through a bounded queue (watch-sink.ts), and a watcher that stops reading is ended when it
 * fills (the client resumes from its last resourceVersion), so no watcher ever slows another or
 * the writers.
 */
import type { ServerResponse } from 'node:http';
import { notAcceptable } from '../../machinery/status.js';
import { planWatch } from '../../registry/read-options.js';
import { selectionFor } from '../../registry/selection.js';
import { startWatch } from '../../registry/watch.js';
import type { Obj } from '../../machinery/object.js';
import { WatchSink } from '../watch-sink.js';
import { intParam, listOptionsOf, type ResourceRequest } from './resource-request.js';

/** Bytes of events a watcher may have waiting for its socket before it is ended. */
export const WATCH_BUFFER_BYTES = 1024 * 1024;
/** How often a watch that allows bookmarks gets one (upstream: about a minute). */
const BOOKMARK_INTERVAL_MS = 60_000;

/** Upstream's default watch timeout: a random duration between 30 and 60 minutes. */
function defaultTimeoutSeconds(): number {
  return 1800 * (1 + Math.random());
}

function boolParam(query: URLSearchParams, name: string): boolean {
  const v = query.get(name);
  return v === 'true' || v === '1';
}

/** Streams watch events until timeout, client close, buffer overflow or shutdown. */
export async function handleWatch(r: ResourceRequest): Promise<void> {
  const opts = listOptionsOf(r.query);
  // /watch/.../<name> watches one object, as upstream adds a metadata.name field selector.
  if (r.name !== '') opts.fieldSelector = [opts.fieldSelector, `metadata.name=${r.name}`].filter((s) => s !== undefined && s !== '').join(',');
  const allowBookmarks = boolParam(r.query, 'allowWatchBookmarks');
  const plan = planWatch({ ...opts, sendInitialEvents: r.query.get('sendInitialEvents') ?? undefined, allowWatchBookmarks: allowBookmarks }, r.ctx.brand);
  // Watch events are streamed as JSON; protobuf watch framing is not served yet.
  if (!r.output.encodings.includes('json')) throw notAcceptable(['application/json']);
  // timeoutSeconds=0 asks for the server's default, as upstream's watch handler reads it.
  const requestedTimeout = intParam(r.query, 'timeoutSeconds');
  const timeoutSeconds = requestedTimeout === undefined || requestedTimeout === 0 ? defaultTimeoutSeconds() : requestedTimeout;
  const selection = selectionFor(r.store.info, opts);
  const start = await startWatch(r.store, r.namespace, plan, selection);
  const res = r.res as ServerResponse;
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });

  const { info } = r.store;
  const bookmark = (revision: number, initialEventsEnd: boolean): Buffer => {
    const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
    if (initialEventsEnd) metadata.annotations = { [r.ctx.brand.key('initial-events-end')]: 'true' };
    return Buffer.from(`${JSON.stringify({ type: 'BOOKMARK', object: { kind: info.kind, apiVersion: info.apiVersion, metadata } })}\n`);
  };

  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let open = true;
  // A watch for Tables or metadata rewrites each event (the shared encoded line cannot serve it).
  const as = r.output.as;
  // Tables and their printers load on the first request for one, not at start-up.
  const transformObject = as === undefined ? undefined : (await import('./transform.js')).transformObject;
  let headersSent = false;
  const transform = (line: Buffer): Buffer => {
    if (as === undefined || transformObject === undefined) return line;
    const event = JSON.parse(line.toString('utf8')) as { type: string; object: Obj };
    if (event.type === 'BOOKMARK' || event.type === 'ERROR') return line;
    const object = transformObject(r, as, event.object, headersSent);
    headersSent = true;
    return Buffer.from(`${JSON.stringify({ type: event.type, object })}\n`);
  };
  // Lines are transformed when written, so the first written carries the Table's headers.
  const sink = new WatchSink(res, {
    bufferBytes: WATCH_BUFFER_BYTES,
    encode: as === undefined ? undefined : transform,
    onOverflow: () => {
      open = false;
      finish();
    },
  });
  // Live lines wait in the sink until the initial state and the backlog are out.
  const unsubscribe = start.subscribe((line) => open && sink.push(line));
  res.on('close', () => {
    open = false;
    finish();
  });
  void r.shuttingDown.then(finish);
  const timer = setTimeout(() => {
    if (open && allowBookmarks) sink.push(bookmark(r.store.currentRevision(), false));
    finish();
  }, timeoutSeconds * 1000);
  let catchingUp = true;
  const bookmarks = allowBookmarks
    ? setInterval(() => {
        if (open && !catchingUp) sink.push(bookmark(r.store.currentRevision(), false));
      }, BOOKMARK_INTERVAL_MS)
    : undefined;

  if (start.expired) {
    res.write(`${JSON.stringify({ type: 'ERROR', object: start.expired })}\n`);
    finish();
  } else {
    // The initial state and the kept events a resume asked for respect the client's pace.
    for (const entry of start.initial) {
      if (!open) break;
      await sink.send(Buffer.concat([ADDED_HEAD, entry.json, LINE_TAIL]), done);
    }
    for (const line of start.backlog) {
      if (!open) break;
      await sink.send(line, done);
    }
    if (open && plan.initialEventsEndBookmark) await sink.send(bookmark(start.revision, true), done);
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

const ADDED_HEAD = Buffer.from('{"type":"ADDED","object":');
const LINE_TAIL = Buffer.from('}\n');
