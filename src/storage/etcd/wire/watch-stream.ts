/**
 * etcd watches over one bidirectional gRPC stream (`/etcdserverpb.Watch/Watch`), shared by all
 * of a store's watchers as etcd's own client shares it: each watcher is a WatchCreateRequest on
 * the stream, and etcd tags every response with the watcher's id. etcd answers creates in the
 * order they were sent, so ids are matched to watchers by that order (which any etcd 3.x does).
 *
 * The stream asks for a member with a leader (upstream's WithRequireLeader), so a member cut off
 * from its cluster ends it. When the stream ends (that, a lost connection, a member killed), every
 * watcher is created again on a new stream, on whichever member answers, from the revision its
 * owner says it has delivered up to, after a short backoff.
 */
import type { ClientHttp2Session, ClientHttp2Stream } from 'node:http2';
import type { EtcdConnection } from './connection.js';
import { FrameReader } from './grpc-frame.js';
import { decodeWatchResponse, encodeWatchCancelRequest, encodeWatchCreateRequest, type WatchCreateRequest, type WatchResponse } from './watch-messages.js';

/** One watcher's side: what to create, and where its responses and its end go. */
export interface WatchTarget {
  /** The create request, asked again at every (re)creation for the revision to resume from. */
  request(): WatchCreateRequest;
  /** A response for this watcher (events, progress, the created confirmation, a cancel). */
  onResponse(res: WatchResponse): void;
}

/** Backoff between stream attempts: doubling from the first, up to the last. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 3000;
/** A watch response is as large as the events of one revision; etcd's own limit is its send size. */
const MAX_WATCH_RESPONSE_BYTES = 2 ** 31 - 1;

export class EtcdWatchStream {
  private stream: ClientHttp2Stream | undefined;
  private opening = false;
  private closed = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Watchers by etcd's id on the current stream. */
  private readonly byId = new Map<number, WatchTarget>();
  /** Watchers whose create was sent on the current stream and not yet confirmed, in sending order. */
  private pending: WatchTarget[] = [];
  /** Every live watcher (to create again on a new stream). */
  private readonly live = new Set<WatchTarget>();

  constructor(private readonly conn: EtcdConnection) {}

  /** Starts watching for target; returns the cancel (etcd is told in the background). */
  watch(target: WatchTarget): () => void {
    if (this.closed) throw new Error('the etcd client is closed');
    this.live.add(target);
    if (this.stream) this.create(this.stream, target);
    else this.open();
    return () => this.cancel(target);
  }

  /** Ends the stream and every watcher without telling them (the store ends its watches itself). */
  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.live.clear();
    this.byId.clear();
    this.pending = [];
    const s = this.stream;
    this.stream = undefined;
    s?.close();
  }

  private cancel(target: WatchTarget): void {
    if (!this.live.delete(target)) return;
    for (const [id, t] of this.byId) {
      if (t !== target) continue;
      this.byId.delete(id);
      this.send(encodeWatchCancelRequest(id));
      return;
    }
    // Still pending: its created response is answered with a cancel (onCreated).
  }

  private open(): void {
    if (this.opening || this.stream || this.closed || this.live.size === 0) return;
    this.opening = true;
    const ready = this.conn.readySession();
    if (ready) this.start(ready);
    else
      this.conn.connect().then(
        (session) => this.start(session),
        () => this.ended(undefined),
      );
  }

  private start(session: ClientHttp2Session): void {
    this.opening = false;
    if (this.closed) return;
    let s: ClientHttp2Stream;
    try {
      s = session.request({
        ':method': 'POST',
        ':path': '/etcdserverpb.Watch/Watch',
        'content-type': 'application/grpc',
        te: 'trailers',
        hasleader: 'true',
      });
    } catch {
      this.ended(undefined);
      return;
    }
    this.stream = s;
    this.byId.clear();
    this.pending = [];
    const reader = new FrameReader(MAX_WATCH_RESPONSE_BYTES, (m) => this.receive(decodeWatchResponse(m)));
    s.on('data', (chunk: Buffer) => {
      if (this.stream !== s) return;
      try {
        reader.push(chunk);
      } catch {
        // A frame it cannot take (compressed, too large): a new stream starts over.
        s.close();
      }
    });
    // How the stream ended (a status, a reset, the connection) changes nothing: it is opened again.
    s.on('error', () => {});
    s.on('close', () => this.ended(s));
    for (const target of this.live) this.create(s, target);
  }

  private create(s: ClientHttp2Stream, target: WatchTarget): void {
    this.pending.push(target);
    s.write(encodeWatchCreateRequest(target.request()));
  }

  private send(frame: Buffer): void {
    const s = this.stream;
    if (s && !s.closed && !s.destroyed) s.write(frame);
  }

  private receive(res: WatchResponse): void {
    if (res.created) {
      const target = this.pending.shift();
      if (!target) return;
      // Cancelled while its create was on the way: etcd is told now that the id is known.
      if (!this.live.has(target)) {
        if (!res.canceled) this.send(encodeWatchCancelRequest(res.watch_id));
        return;
      }
      if (!res.canceled) {
        this.byId.set(res.watch_id, target);
        this.retryMs = RETRY_FIRST_MS;
      } else this.live.delete(target);
      target.onResponse(res);
      return;
    }
    const target = this.byId.get(res.watch_id);
    if (!target) return;
    if (res.canceled) {
      this.byId.delete(res.watch_id);
      this.live.delete(target);
    }
    target.onResponse(res);
  }

  /**
   * The stream s (or an attempt to open one) ended: its watchers are created again on a new
   * stream after a backoff (what ended it is not theirs to handle: their owners resume where
   * they were, and a member that stays away shows in the store's calls and health check).
   */
  private ended(s: ClientHttp2Stream | undefined): void {
    if (s !== undefined && this.stream !== s) return;
    this.stream = undefined;
    this.opening = false;
    this.byId.clear();
    this.pending = [];
    if (this.closed) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
    this.retryTimer = setTimeout(() => this.open(), wait);
    this.retryTimer.unref();
  }
}
