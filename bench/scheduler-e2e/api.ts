/**
 * The benchmark's own traffic to the API server: objects created over concurrent keep-alive
 * connections (the raw HTTP/1.1 client of raw-client.ts, so the loader takes little of the
 * cores the server and the scheduler share), and one watch of pods counting those that get a
 * spec.nodeName, as upstream's throughput collector counts scheduled pods.
 */
import { request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { encodeRequest, RawConnection, type RawTarget } from '../raw-client.js';

export interface ApiTarget extends RawTarget {
  url: string;
}

export interface Create {
  /** Collection path, e.g. `/api/v1/namespaces/default/pods`. */
  path: string;
  body: unknown;
}

/** POSTs every object over `concurrency` connections; rejects on the first answer other than 201 (409 allowed when `tolerateExisting`). */
export async function createAll(target: ApiTarget, objects: Create[], concurrency: number, tolerateExisting = false): Promise<void> {
  const host = new URL(target.url).host;
  let next = 0;
  const worker = async (): Promise<void> => {
    const conn = new RawConnection(target);
    try {
      while (next < objects.length) {
        const o = objects[next++];
        const status = await conn.send(encodeRequest('POST', o.path, host, JSON.stringify(o.body)));
        if (status !== 201 && !(tolerateExisting && status === 409)) {
          const body = conn.lastResponse.toString('utf8').split('\r\n\r\n').slice(1).join('').slice(0, 400);
          throw new Error(`POST ${o.path} -> ${status}: ${body}`);
        }
      }
    } finally {
      conn.close();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, objects.length) }, worker));
}

interface Waiter {
  /** Keys not bound yet. */
  pending: Set<string>;
  resolve: () => void;
  reject: (err: Error) => void;
}

interface PodEvent {
  type: string;
  object: { metadata?: { name?: string; namespace?: string }; spec?: { nodeName?: string } };
}

/**
 * Watches bound pods from now on; counts each pod once, the first time it is seen with a
 * spec.nodeName. `waitFor(keys)` resolves when every `namespace/name` of `keys` is bound.
 */
export class BoundPods {
  private readonly bound = new Set<string>();
  private waiters: Waiter[] = [];
  private res: IncomingMessage | undefined;
  private failure: Error | undefined;
  /** Pods deleted (preemption victims). */
  deleted = 0;

  private constructor() {}

  /** Resolves once the watch is established (the server answered 200), so no later binding is missed. */
  static open(target: ApiTarget): Promise<BoundPods> {
    const w = new BoundPods();
    return new Promise((resolve, reject) => {
      // Only bound pods: upstream's collector reads the scheduler's own informer at no cost to
      // the API server, so this watcher asks for as little as it needs (a pod enters the
      // selection, as an ADDED event, when it is bound; deletions still come).
      const u = new URL('/api/v1/pods?watch=true&fieldSelector=spec.nodeName%21%3D&timeoutSeconds=3600', target.url);
      const req = request(u, { ca: target.ca, cert: target.cert, key: target.key, headers: { accept: 'application/json' } }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`watch pods -> ${res.statusCode}`));
          res.resume();
          return;
        }
        w.res = res;
        res.setEncoding('utf8');
        let buf = '';
        res.on('data', (chunk: string) => {
          buf += chunk;
          for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (line !== '') w.onEvent(JSON.parse(line) as PodEvent);
          }
        });
        res.on('close', () => w.fail(new Error('the pod watch ended')));
        resolve(w);
      });
      req.on('error', reject);
      req.end();
    });
  }

  get count(): number {
    return this.bound.size;
  }

  /** How many of `keys` are bound. */
  countOf(keys: readonly string[]): number {
    let n = 0;
    for (const k of keys) if (this.bound.has(k)) n++;
    return n;
  }

  /** Resolves when every key is bound; rejects after `timeoutMs` (or when the watch ends). */
  waitFor(keys: string[], timeoutMs: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const pending = new Set(keys.filter((k) => !this.bound.has(k)));
    if (pending.size === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== waiter);
        reject(new Error(`timed out: ${keys.length - pending.size}/${keys.length} pods bound after ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        pending,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      this.waiters.push(waiter);
    });
  }

  close(): void {
    this.failure ??= new Error('closed');
    this.res?.destroy();
  }

  private onEvent(e: PodEvent): void {
    const m = e.object.metadata;
    const key = `${m?.namespace}/${m?.name}`;
    if (e.type === 'DELETED') this.deleted++;
    if (!e.object.spec?.nodeName || this.bound.has(key)) return;
    this.bound.add(key);
    for (const w of [...this.waiters]) {
      if (w.pending.delete(key) && w.pending.size === 0) {
        this.waiters = this.waiters.filter((x) => x !== w);
        w.resolve();
      }
    }
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    for (const w of this.waiters.splice(0)) w.reject(err);
  }
}
