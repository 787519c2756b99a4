/**
 * Watch streams: newline-delimited watch events over a chunked (HTTP/1.1) or streamed (HTTP/2)
 * response. The initial state is written with backpressure; live events go through a bounded
 * buffer, and a watcher that stops reading is closed when it fills (the client resumes from its
 * last resourceVersion), so no watcher ever slows another or the writers.
 */
import type { ServerResponse } from 'node:http';
import { decodeWatchEvent, encodeWatchEvent, watchEventLine } from '../../codec/watch-event.js';
import { notAcceptable } from '../../machinery/status.js';
import { planWatch } from '../../registry/read-options.js';
import { selectionFor } from '../../registry/selection.js';
import type { WatchStart } from '../../registry/watch.js';
import type { CacheEntry } from '../../storage/cacher/types.js';
import { watchOptionsOf } from './options.js';
import type { ResourceRequest } from './resource-request.js';

/** Bytes a watcher may have waiting for its socket before it is closed. */
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

/** One watcher's output: catch-up (initial state, live lines held), then live with a bounded buffer. */
class WatchOutput {
  open = true;
  private catchingUp = true;
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  private finish: () => void = () => {};
  readonly done = new Promise<void>((resolve) => {
    this.finish = resolve;
  });

  constructor(
    private readonly res: ServerResponse,
    private readonly rewrite: (line: Buffer) => Buffer,
  ) {
    res.on('close', () => this.end());
  }

  end(): void {
    this.open = false;
    this.finish();
  }

  /** A shared live line; false once this watcher is closed (it stops receiving). */
  deliver(line: Buffer): boolean {
    if (!this.open) return false;
    // Lines held during catch-up are rewritten when written, so the first written carries the headers.
    if (this.catchingUp) {
      this.pending.push(line);
      this.pendingBytes += line.length;
    } else {
      this.res.write(this.rewrite(line));
    }
    if ((this.catchingUp ? this.pendingBytes : this.res.writableLength) > WATCH_BUFFER_BYTES) {
      this.end();
      return false;
    }
    return true;
  }

  /** A line of this watcher's own (a periodic bookmark), only while live. */
  writeOwn(line: Buffer): void {
    if (this.open && !this.catchingUp) this.res.write(line);
  }

  /** The last line before closing (the timeout's bookmark). */
  writeLast(line: Buffer): void {
    if (this.open) this.res.write(line);
  }

  /** Writes the initial state at the client's pace, then what arrived meanwhile, and goes live. */
  async catchUp(initial: readonly CacheEntry[], endBookmark: Buffer | undefined): Promise<void> {
    for (const entry of initial) {
      if (!this.open) break;
      if (!this.res.write(this.rewrite(watchEventLine('ADDED', entry.json)))) {
        await Promise.race([new Promise((resolve) => this.res.once('drain', resolve)), this.done]);
      }
    }
    if (this.open && endBookmark) this.res.write(endBookmark);
    for (const line of this.pending) if (this.open) this.res.write(this.rewrite(line));
    this.pending.length = 0;
    this.catchingUp = false;
  }
}

/** Streams one started watch until timeout, client close, buffer overflow or shutdown. */
async function stream(r: ResourceRequest, start: WatchStart, opts: ReturnType<typeof watchOptionsOf>, endBookmark: boolean): Promise<void> {
  const res = r.res as ServerResponse;
  const out = new WatchOutput(res, await lineWriter(r));
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
  const unsubscribe = start.subscribe((line) => out.deliver(line));
  void r.shuttingDown.then(() => out.end());
  const revision = () => r.scope.store?.currentRevision() ?? start.revision;
  const timer = setTimeout(() => {
    if (opts.allowWatchBookmarks) out.writeLast(bookmarkLine(r, revision(), false));
    out.end();
  }, opts.timeoutSeconds * 1000);
  const bookmarks = opts.allowWatchBookmarks ? setInterval(() => out.writeOwn(bookmarkLine(r, revision(), false)), BOOKMARK_INTERVAL_MS) : undefined;
  if (start.expired) {
    res.write(encodeWatchEvent('ERROR', start.expired));
    out.end();
  } else {
    await out.catchUp(start.initial, endBookmark ? bookmarkLine(r, start.revision, true) : undefined);
  }
  (res as { flushHeaders?: () => void }).flushHeaders?.();
  await out.done;
  out.open = false;
  clearTimeout(timer);
  if (bookmarks) clearInterval(bookmarks);
  unsubscribe();
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
  await stream(r, start, opts, plan.initialEventsEndBookmark);
}
