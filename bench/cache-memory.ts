/**
 * Watch-cache memory: server RSS per cached object against the object's JSON size, measured
 * two ways, each after a full GC in the server child:
 * - restart: a server started on the loaded data directory (its cache filled from the store
 *   at start) minus a server started on an empty one;
 * - in process: the lists server after creating the objects through the API minus the same
 *   server before (this includes the cache's event ring and what the write path left behind).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type MemorySample, serverMemory, startServer, stopServer } from './cache-harness.js';

export interface MemoryFigure {
  /** RSS difference per object, bytes. */
  rssPerObject: number;
  /** rssPerObject / objectJsonBytes: the target is at most 3 (upstream is about 5). */
  ratio: number;
  /** JS heap + external memory (buffers) difference per object: the part the cache itself allocates. */
  heapPerObject: number;
  empty: MemorySample;
  loaded: MemorySample;
}

export interface MemoryResult {
  objects: number;
  objectJsonBytes: number;
  restart: MemoryFigure;
  inProcess: MemoryFigure;
  /** ms from spawning the server on the loaded directory to READY (the cache is filled before it). */
  restartReadyMs: number;
}

/** Measures an empty server, then one restarted on `loadedDir` (which holds `objects` objects). */
export async function benchCacheMemory(
  work: string,
  loadedDir: string,
  objects: number,
  objectJsonBytes: number,
  inProcess: { empty: MemorySample; loaded: MemorySample },
): Promise<MemoryResult> {
  const emptyDir = join(work, 'memory-empty');
  await mkdir(emptyDir);
  const empty = await sampleServer(emptyDir);
  const t0 = performance.now();
  const loaded = await sampleServer(loadedDir, () => performance.now() - t0);
  const figure = (e: MemorySample, l: MemorySample): MemoryFigure => {
    const rssPerObject = (l.rss - e.rss) / objects;
    const heapPerObject = (l.heapUsed + l.external - (e.heapUsed + e.external)) / objects;
    return { rssPerObject, ratio: rssPerObject / objectJsonBytes, heapPerObject, empty: e, loaded: l };
  };
  return {
    objects,
    objectJsonBytes,
    restart: figure(empty.memory, loaded.memory),
    inProcess: figure(inProcess.empty, inProcess.loaded),
    restartReadyMs: loaded.readyMs,
  };
}

/** Starts a server on dataDir, samples its memory once ready, and stops it. */
async function sampleServer(dataDir: string, readyAt = () => 0): Promise<{ memory: MemorySample; readyMs: number }> {
  const server = await startServer(dataDir, 120_000);
  const readyMs = readyAt();
  try {
    return { memory: await serverMemory(server), readyMs };
  } finally {
    await stopServer(server);
  }
}
