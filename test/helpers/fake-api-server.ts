/**
 * A scripted API server for client tests: one collection (`/api/v1/things`) with list, watch
 * from a resourceVersion (history kept until compacted, 410 below it), bookmarks, and a switch
 * that drops every open watch, so reflectors are tested against the exact failure wanted.
 */
import https from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCertificates } from '../../src/pki/certificates.js';
import { RestClient } from '../../src/client/rest-client.js';

export interface Thing {
  metadata: { name: string; namespace?: string; resourceVersion?: string };
  value?: number;
}

interface Recorded {
  rv: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  obj: Thing;
}

export class FakeApiServer {
  readonly path = '/api/v1/things';
  private rv = 0;
  private readonly objects = new Map<string, Thing>();
  private history: Recorded[] = [];
  /** Watches from below this resourceVersion get 410. */
  private compactedTo = 0;
  private readonly watchers = new Set<ServerResponse>();
  /** Every request's path and query, in order. */
  readonly requests: string[] = [];
  /** Status the next N requests of a kind answer with instead (e.g. 429, 500). */
  failNext: { status: number; count: number; retryAfter?: string } | undefined;
  private server!: https.Server;
  private dir!: string;
  client!: RestClient;

  async start(): Promise<void> {
    this.dir = await mkdtemp(join(tmpdir(), 'orch-fake-api-'));
    const pki = await ensureCertificates(this.dir, { hosts: ['localhost'], ips: ['127.0.0.1'] });
    this.server = https.createServer({ cert: pki.serverCertPem, key: pki.serverKeyPem }, (req, res) => this.handle(req.url ?? '/', res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    const port = (this.server.address() as AddressInfo).port;
    this.client = new RestClient({ server: `https://127.0.0.1:${port}`, caPem: pki.caCertPem, certPem: pki.adminCertPem, keyPem: pki.adminKeyPem });
  }

  async stop(): Promise<void> {
    this.dropWatches();
    this.client.close();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
    await rm(this.dir, { recursive: true, force: true });
  }

  get resourceVersion(): number {
    return this.rv;
  }

  /** Creates or replaces an object, recording the event. */
  put(name: string, value: number): void {
    const type = this.objects.has(name) ? 'MODIFIED' : 'ADDED';
    const obj: Thing = { metadata: { name, resourceVersion: String(++this.rv) }, value };
    this.objects.set(name, obj);
    this.record(type, obj);
  }

  remove(name: string): void {
    const old = this.objects.get(name);
    if (old === undefined) return;
    this.objects.delete(name);
    this.record('DELETED', { ...old, metadata: { ...old.metadata, resourceVersion: String(++this.rv) } });
  }

  /** Writes elsewhere in the store: the resourceVersion moves with no event here. */
  advance(n: number): void {
    this.rv += n;
  }

  /** Forgets history up to now: watches from an older resourceVersion get 410. */
  compact(): void {
    this.compactedTo = this.rv;
    this.history = [];
  }

  /** Ends every open watch abruptly (a dropped connection). */
  dropWatches(): void {
    for (const w of this.watchers) w.destroy();
    this.watchers.clear();
  }

  /** Sends a BOOKMARK at the current resourceVersion to every open watch. */
  bookmark(): void {
    for (const w of this.watchers)
      w.write(`${JSON.stringify({ type: 'BOOKMARK', object: { kind: 'Thing', apiVersion: 'v1', metadata: { resourceVersion: String(this.rv) } } })}\n`);
  }

  get openWatches(): number {
    return this.watchers.size;
  }

  state(): Map<string, number | undefined> {
    return new Map([...this.objects].map(([k, v]) => [k, v.value]));
  }

  private record(type: Recorded['type'], obj: Thing): void {
    this.history.push({ rv: this.rv, type, obj });
    for (const w of this.watchers) w.write(`${JSON.stringify({ type, object: obj })}\n`);
  }

  private handle(url: string, res: ServerResponse): void {
    this.requests.push(url);
    const u = new URL(url, 'https://x');
    if (this.failNext && this.failNext.count > 0) {
      this.failNext.count--;
      res.writeHead(this.failNext.status, {
        'content-type': 'application/json',
        ...(this.failNext.retryAfter ? { 'retry-after': this.failNext.retryAfter } : {}),
      });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: this.failNext.status, message: 'try again' }));
      return;
    }
    if (u.pathname !== this.path) {
      res.writeHead(404).end();
      return;
    }
    if (u.searchParams.get('watch') !== 'true') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'ThingList', apiVersion: 'v1', metadata: { resourceVersion: String(this.rv) }, items: [...this.objects.values()] }));
      return;
    }
    const from = Number(u.searchParams.get('resourceVersion') || this.rv);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    if (from < this.compactedTo) {
      const status = {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Expired',
        code: 410,
        message: `too old resource version: ${from} (${this.compactedTo})`,
      };
      res.end(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
      return;
    }
    for (const h of this.history) if (h.rv > from) res.write(`${JSON.stringify({ type: h.type, object: h.obj })}\n`);
    this.watchers.add(res);
    res.on('close', () => this.watchers.delete(res));
  }
}
