/**
 * What the watch cache costs in server memory (RSS after a full GC in the server child), for
 * 1 KiB ConfigMaps: per object held (creates: the current state plus its ADDED event), and per
 * event of history (updates of a few objects: the ring keeps each replaced version until the
 * history's count, byte or time bound drops it). Prints a table and, last, one JSON line.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bulkCreate, configMapBody, printTable, round1, serverMemory, startServer, stopServer } from './cache-harness.js';
import { boundedRun } from './children.js';
import { encodeRequest, RawConnection } from './raw-client.js';

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 20_000);
const UPDATES = Number(process.env.BENCH_UPDATES ?? 20_000);
const POOL = 100;
const { keepTmp, cleanup } = boundedRun(240_000);

async function main(): Promise<void> {
  const work = keepTmp(await mkdtemp(join(tmpdir(), 'orch-bench-history-')));
  const server = await startServer(join(work, 'data'));
  try {
    const url = new URL(server.url);
    const empty = await serverMemory(server);
    await bulkCreate({ baseUrl: server.url, tls: server.tls, namespace: 'default', prefix: 'obj-', from: 0, count: OBJECTS, concurrency: 8, size: 1024 });
    const held = await serverMemory(server);
    await bulkCreate({ baseUrl: server.url, tls: server.tls, namespace: 'default', prefix: 'upd-', from: 0, count: POOL, concurrency: 8, size: 1024 });
    const beforeUpdates = await serverMemory(server);
    const conns = Array.from({ length: 8 }, () => new RawConnection({ host: url.hostname, port: Number(url.port), ...server.tls }));
    let next = 0;
    await Promise.all(
      conns.map(async (c) => {
        while (next < UPDATES) {
          const i = next++;
          const name = `upd-${String(i % POOL).padStart(6, '0')}`;
          const status = await c.send(encodeRequest('PUT', `/api/v1/namespaces/default/configmaps/${name}`, url.host, configMapBody(name, 1024, `${i}-`)));
          if (status !== 200) throw new Error(`PUT ${name}: ${status}`);
        }
      }),
    );
    for (const c of conns) c.close();
    const afterUpdates = await serverMemory(server);
    const perObject = (held.rss - empty.rss) / OBJECTS;
    const perEvent = (afterUpdates.rss - beforeUpdates.rss) / UPDATES;
    const jsonBytes = Buffer.byteLength(configMapBody('obj-000000', 1024)) + 200;
    printTable(
      ['measured', 'RSS bytes', 'heap+external bytes'],
      [
        [
          `per 1 KiB object held (${OBJECTS} created)`,
          String(Math.round(perObject)),
          String(Math.round((held.heapUsed + held.external - empty.heapUsed - empty.external) / OBJECTS)),
        ],
        [
          `per event of history (${UPDATES} updates of ${POOL} objects)`,
          String(Math.round(perEvent)),
          String(Math.round((afterUpdates.heapUsed + afterUpdates.external - beforeUpdates.heapUsed - beforeUpdates.external) / UPDATES)),
        ],
      ],
    );
    console.log(
      JSON.stringify({
        objects: OBJECTS,
        updates: UPDATES,
        approxObjectJsonBytes: jsonBytes,
        rssPerObject: round1(perObject),
        rssPerHistoryEvent: round1(perEvent),
        empty,
        held,
        beforeUpdates,
        afterUpdates,
      }),
    );
  } finally {
    await stopServer(server);
  }
}

await main();
cleanup();
