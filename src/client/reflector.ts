/**
 * client-go's Reflector: list a resource (in pages of 500), hand the items to the sink as one
 * replace, then watch from the list's resourceVersion with bookmarks and a server-side
 * timeout, following each event's resourceVersion. A watch that ends (timeout, a dropped
 * connection, a server restart) resumes from the last resourceVersion seen; only 410 Gone
 * (the version was compacted away) makes it list again. Failures back off exponentially.
 */
import { Backoff } from './backoff.js';
import { type Clock, REAL_CLOCK, sleep } from './clock.js';
import { ApiError, type RestClient, type WatchEvent } from './rest-client.js';
import type { KubeObject } from './store.js';

/** Where a reflector puts what it sees. */
export interface ReflectorSink<T> {
  /** The complete current state (after each list). */
  replace(items: T[], resourceVersion: string): void;
  added(obj: T): void;
  modified(obj: T): void;
  deleted(obj: T): void;
}

export interface ReflectorOptions<T> {
  client: RestClient;
  /** Collection path, e.g. `/api/v1/pods` (all namespaces). */
  path: string;
  /** Extra query parameters for list and watch (selectors), already encoded: `fieldSelector=...`. */
  query?: string;
  sink: ReflectorSink<T>;
  clock?: Clock;
  /** Page size of lists (client-go's pager default: 500). */
  pageSize?: number;
  /** Server-side watch timeout; default random in [5, 10) minutes, as client-go, so watches do not end together. */
  watchTimeoutSeconds?: () => number;
  random?: () => number;
  /** Told of each failure that leads to a backoff (logging). */
  onError?: (err: unknown) => void;
}

interface ListBody<T> {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: T[];
}

/** A watch that ends this soon with no event is a failure, not a timeout (client-go's "very short watch"). */
const SHORT_WATCH_MS = 1000;

export class Reflector<T extends KubeObject> {
  private stopped = false;
  private readonly abort = new AbortController();
  private stopWatch: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private readonly clock: Clock;
  private readonly backoff: Backoff;
  /** The resourceVersion to resume from; undefined until the first list. */
  private lastSyncResourceVersion: string | undefined;
  /** Lists done so far (observable for tests and metrics). */
  listCount = 0;

  constructor(private readonly o: ReflectorOptions<T>) {
    this.clock = o.clock ?? REAL_CLOCK;
    this.backoff = new Backoff(this.clock, { random: o.random });
  }

  /** The resourceVersion of the last list or event applied. */
  get lastResourceVersion(): string | undefined {
    return this.lastSyncResourceVersion;
  }

  /** Starts list-and-watch in the background; runs until stop(). */
  start(): void {
    this.running ??= this.run();
  }

  /** Ends the watch and the loop; resolves when the loop has returned. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.stopWatch?.();
    await this.running;
  }

  private async run(): Promise<void> {
    let needList = true;
    while (!this.stopped) {
      try {
        if (needList) {
          await this.list();
          needList = false;
        }
        await this.watch();
        this.backoff.reset();
        continue;
      } catch (err) {
        if (this.stopped) return;
        if (isGone(err)) {
          // The version is compacted away: only a fresh list can give a consistent state; at once.
          needList = true;
          continue;
        }
        this.o.onError?.(err);
      }
      await sleep(this.clock, this.backoff.next(), this.abort.signal);
    }
  }

  private query(extra: string): string {
    const q = [this.o.query, extra].filter((s) => s !== undefined && s !== '').join('&');
    return q === '' ? this.o.path : `${this.o.path}?${q}`;
  }

  /** A consistent list, page by page; an expired continue token restarts it unpaged. */
  private async list(): Promise<void> {
    const items: T[] = [];
    let cont = '';
    let rv = '';
    let limit = this.o.pageSize ?? 500;
    for (;;) {
      const page = limit > 0 ? `limit=${limit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}` : '';
      const res = await this.o.client.request<ListBody<T>>('GET', this.query(page));
      if (res.status === 410 && cont !== '') {
        items.length = 0;
        cont = '';
        limit = 0;
        continue;
      }
      if (res.status !== 200) throw new ApiError(res.status, res.body, `list ${this.o.path}`);
      for (const item of res.body.items ?? []) items.push(item);
      rv = res.body.metadata?.resourceVersion ?? rv;
      cont = res.body.metadata?.continue ?? '';
      if (cont === '' || this.stopped) break;
    }
    if (this.stopped) return;
    this.listCount++;
    this.o.sink.replace(items, rv);
    this.lastSyncResourceVersion = rv;
  }

  /** One watch from the last resourceVersion until the stream ends; rejects on ERROR events and refusals. */
  private async watch(): Promise<void> {
    const timeout = this.o.watchTimeoutSeconds?.() ?? Math.floor(300 * (1 + (this.o.random ?? Math.random)()));
    const params = `watch=true&allowWatchBookmarks=true&timeoutSeconds=${timeout}&resourceVersion=${encodeURIComponent(this.lastSyncResourceVersion ?? '')}`;
    const started = this.clock.now();
    let events = 0;
    await this.o.client.watch(
      this.query(params),
      (e) => {
        events++;
        this.apply(e);
      },
      (stop) => {
        this.stopWatch = stop;
        if (this.stopped) stop();
      },
      this.abort.signal,
    );
    if (!this.stopped && events === 0 && this.clock.now() - started < SHORT_WATCH_MS) {
      throw new Error(`very short watch of ${this.o.path}: ended at once with no events`);
    }
  }

  private apply(e: WatchEvent): void {
    if (this.stopped) return;
    if (e.type === 'ERROR') {
      const code = typeof e.object.code === 'number' ? e.object.code : 0;
      throw new ApiError(code, e.object, `watch ${this.o.path}`);
    }
    const obj = e.object as unknown as T;
    if (e.type === 'ADDED') this.o.sink.added(obj);
    else if (e.type === 'MODIFIED') this.o.sink.modified(obj);
    else if (e.type === 'DELETED') this.o.sink.deleted(obj);
    else if (e.type !== 'BOOKMARK') throw new Error(`watch ${this.o.path}: unknown event type ${JSON.stringify(e.type)}`);
    // Bookmarks carry only a resourceVersion: following it keeps a resume from going stale.
    const rv = obj.metadata?.resourceVersion;
    if (rv) this.lastSyncResourceVersion = rv;
  }
}

function isGone(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 410 || err.reason === 'Expired' || err.reason === 'Gone');
}
