/**
 * List benchmark: namespaces of 10,000 and 100,000 1 KiB ConfigMaps, created through the API,
 * listed in full from the watch cache (resourceVersion=0 and unset) and paginated with
 * limit=500 (every page after the first reads the store at the first page's revision); then,
 * with the server stopped, raw better-sqlite3 reading the same rows from its state.db (see
 * raw-sqlite.ts). The server's memory before and after loading is sampled for cache-memory.ts.
 */
import { mkdir } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { bulkCreate, createNamespace, type MemorySample, median, type Server, serverMemory, startServer, stopServer } from './cache-harness.js';
import { requestOnce } from './http-client.js';
import { type RawListTimes, rawListTimes } from './raw-sqlite.js';

export interface ListsOptions {
  sizes: number[];
  /** Repetitions of each full list, by size (fewer for big lists). */
  fullReps: (size: number) => number;
  pageReps: (size: number) => number;
  pageSize: number;
  loadConcurrency: number;
}

export interface ListCase {
  objects: number;
  /** Median ms per full list: rv=0 and unset (both served by the cache), and a whole paginated walk. */
  cachedRv0Ms: number;
  cachedUnsetMs: number;
  paginatedMs: number;
  pages: number;
  listBytes: number;
  raw: RawListTimes;
}

export interface ListsResult {
  cases: ListCase[];
  /** Objects created through the API per second while loading. */
  loadPerSecond: number;
  /** Size of one object as served (compact JSON). */
  objectJsonBytes: number;
  objects: number;
  dataDir: string;
  memoryEmpty: MemorySample;
  memoryLoaded: MemorySample;
}

/** Loads the namespaces, times the lists, stops the server, then times raw SQLite on its file. */
export async function benchLists(work: string, opts: ListsOptions): Promise<ListsResult> {
  const dataDir = join(work, 'lists-data');
  await mkdir(dataDir);
  const server = await startServer(dataDir);
  const cases: Omit<ListCase, 'raw'>[] = [];
  let memoryEmpty: MemorySample;
  let memoryLoaded: MemorySample;
  let loadPerSecond = 0;
  let objectJsonBytes = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ...server.tls });
  try {
    // One list first, so the empty figure is of a server that has served requests.
    await timedGet(agent, `${server.url}/api/v1/namespaces/default/configmaps`);
    memoryEmpty = await serverMemory(server);
    let created = 0;
    let loadMs = 0;
    for (const size of opts.sizes) {
      await createNamespace(server, namespaceOf(size));
      const r = await bulkCreate({
        ...target(server),
        namespace: namespaceOf(size),
        prefix: 'cm-',
        from: 0,
        count: size,
        concurrency: opts.loadConcurrency,
        size: 1024,
      });
      created += r.created;
      loadMs += r.ms;
    }
    loadPerSecond = (created / loadMs) * 1000;
    memoryLoaded = await serverMemory(server);
    const one = await requestOnce(`${server.url}/api/v1/namespaces/${namespaceOf(opts.sizes[0] ?? 0)}/configmaps/cm-000000`, { tls: server.tls });
    objectJsonBytes = Buffer.byteLength(one.body);
    for (const size of opts.sizes) cases.push(await listCase(agent, server, size, opts));
  } finally {
    agent.destroy();
    await stopServer(server);
  }
  // The store file is free once the server has closed it (it holds an exclusive lock).
  const dbPath = join(dataDir, 'state.db');
  const withRaw = cases.map((c) => ({
    ...c,
    raw: rawListTimes(dbPath, prefixOf(c.objects), opts.pageSize, opts.fullReps(c.objects), opts.pageReps(c.objects)),
  }));
  const objects = opts.sizes.reduce((a, b) => a + b, 0);
  return { cases: withRaw, loadPerSecond, objectJsonBytes, objects, dataDir, memoryEmpty, memoryLoaded };
}

const namespaceOf = (size: number) => `list-${size}`;
const prefixOf = (size: number) => `/registry/configmaps/${namespaceOf(size)}/`;
const target = (server: Server) => ({ baseUrl: server.url, tls: server.tls });

/** Times full and paginated lists of one namespace, checking each returns every object once. */
async function listCase(agent: Agent, server: Server, size: number, opts: ListsOptions): Promise<Omit<ListCase, 'raw'>> {
  const base = `${server.url}/api/v1/namespaces/${namespaceOf(size)}/configmaps`;
  const full = async (query: string) => {
    const times: number[] = [];
    let bytes = 0;
    for (let rep = 0; rep < opts.fullReps(size); rep++) {
      const r = await timedGet(agent, `${base}${query}`);
      times.push(r.ms);
      bytes = r.body.length;
      if (rep === 0) expectItems(r.body, size, `list ${query || '(rv unset)'} of ${size}`);
    }
    return { ms: median(times), bytes };
  };
  // A discarded first list warms the JIT and the cache's sorted key array.
  await timedGet(agent, `${base}?resourceVersion=0`);
  const rv0 = await full('?resourceVersion=0');
  const unset = await full('');
  const walks: number[] = [];
  let pages = 0;
  for (let rep = 0; rep < opts.pageReps(size); rep++) {
    const walk = await paginate(agent, base, opts.pageSize);
    if (walk.items !== size) throw new Error(`paginated list of ${size} returned ${walk.items} items`);
    walks.push(walk.ms);
    pages = walk.pages;
  }
  return { objects: size, cachedRv0Ms: rv0.ms, cachedUnsetMs: unset.ms, paginatedMs: median(walks), pages, listBytes: rv0.bytes };
}

/** Walks a list with limit/continue; ms is the sum of the requests' times (parsing a page is not counted). */
async function paginate(agent: Agent, base: string, limit: number): Promise<{ ms: number; pages: number; items: number }> {
  let ms = 0;
  let pages = 0;
  let items = 0;
  let token: string | undefined;
  do {
    const r = await timedGet(agent, `${base}?limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
    ms += r.ms;
    pages++;
    const page = JSON.parse(r.body.toString('utf8')) as { items: unknown[]; metadata: { continue?: string } };
    items += page.items.length;
    token = page.metadata.continue;
  } while (token);
  return { ms, pages, items };
}

/** Throws unless a list body holds exactly `n` ConfigMaps (counted without parsing 100 MB of JSON). */
function expectItems(body: Buffer, n: number, what: string): void {
  const needle = Buffer.from('"kind":"ConfigMap"');
  let count = 0;
  for (let at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, at + needle.length)) count++;
  if (count !== n) throw new Error(`${what}: ${count} items, expected ${n}`);
}

/** GET over the keep-alive agent; ms from sending the request to the last byte of the body. */
function timedGet(agent: Agent, url: string): Promise<{ ms: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { agent, headers: { accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - t0;
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200) reject(new Error(`GET ${url} -> ${res.statusCode}: ${body.toString('utf8', 0, 300)}`));
        else resolve({ ms, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
