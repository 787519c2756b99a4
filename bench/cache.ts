/**
 * Watch-cache benchmarks (issue 3): watch fan-out (watch-fanout.ts), lists from the cache and
 * paginated from the store against raw better-sqlite3 (lists.ts), and cache memory per object
 * (cache-memory.ts). Each server under test runs alone in a child process; clients run in
 * worker threads. Prints a table, the targets, and as its last line one JSON object.
 */
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MemoryResult, benchCacheMemory } from './cache-memory.js';
import { printTable, round1, round2 } from './cache-harness.js';
import { boundedRun } from './children.js';
import { type ListsResult, benchLists } from './lists.js';
import { type FanoutResult, benchWatchFanout } from './watch-fanout.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const FANOUT = {
  watchers: env('BENCH_WATCHERS', 1000),
  sessions: 4,
  timedWatchers: 100,
  writesPerSecond: env('BENCH_WRITES_PER_SECOND', 200),
  warmupMs: env('BENCH_WARMUP_MS', 3000),
  durationMs: env('BENCH_DURATION_MS', 10_000),
};
const SIZES = (process.env.BENCH_LIST_SIZES ?? '10000,100000').split(',').map(Number);
const LISTS = {
  sizes: SIZES,
  fullReps: (n: number) => (n > 20_000 ? 3 : 7),
  pageReps: (n: number) => (n > 20_000 ? 1 : 3),
  pageSize: 500,
  loadConcurrency: 64,
};
const TARGETS = { fanoutP99Ms: 100, cachedList10kMs: 150, memoryRatio: 3 };
const DEADLINE_MS = 270_000;

// The whole run is bounded: a hung server must not hang CI.
const { keepTmp, cleanup } = boundedRun(DEADLINE_MS);

const verdict = (ok: boolean | undefined) => (ok === undefined ? 'n/a' : ok ? 'ok' : 'MISSED');
const fmt = (x: number | undefined, digits = 1) => (x === undefined ? '' : x.toLocaleString('en-US', { maximumFractionDigits: digits }));

function fanoutRows(f: FanoutResult | undefined): string[][] {
  if (!f) return [['watch fan-out', 'failed', '', '']];
  return [
    ['writes acknowledged/s (offered)', `${fmt(f.ackedWritesPerSecond)} (${f.writesPerSecond})`, '', ''],
    ['events delivered/s', fmt(f.eventsPerSecond, 0), '', ''],
    ['ack -> event p50 ms', fmt(f.p50Ms), '', ''],
    ['ack -> event p99 ms (max)', `${fmt(f.p99Ms)} (${fmt(f.maxMs)})`, `< ${TARGETS.fanoutP99Ms}`, verdict(f.p99Ms < TARGETS.fanoutP99Ms)],
    ['events received / expected', fmt(f.deliveredRatio, 4), '1', verdict(f.deliveredRatio === 1 && f.closedEarly === 0)],
    ['server CPU per event µs', fmt(f.serverCpuUsPerEvent, 2), '', ''],
    ['server CPU load (cores)', fmt(f.serverCpuLoad, 2), '', ''],
    ['bulk watcher thread loop use', fmt(f.clientLoopUtilization, 2), '', ''],
    ['other processes (cores)', fmt(f.otherCpuLoad, 2), '', ''],
    ['write p99 ms (from due)', fmt(f.writeP99Ms), '', ''],
  ];
}

function listRows(l: ListsResult | undefined): string[][] {
  if (!l) return [['lists', 'failed', '', '', '']];
  return l.cases.flatMap((c) => {
    const n = c.objects.toLocaleString('en-US');
    const target = c.objects === 10_000 ? `< ${TARGETS.cachedList10kMs}` : '';
    const met = c.objects === 10_000 ? verdict(c.cachedUnsetMs < TARGETS.cachedList10kMs && c.cachedRv0Ms < TARGETS.cachedList10kMs) : '';
    return [
      [`${n} full, rv=0 (cache)`, fmt(c.cachedRv0Ms), fmt(c.raw.fullMs), fmt(c.cachedRv0Ms / c.raw.fullMs), target, met],
      [`${n} full, rv unset (cache)`, fmt(c.cachedUnsetMs), fmt(c.raw.fullMs), fmt(c.cachedUnsetMs / c.raw.fullMs), target, met],
      [`${n} limit=500, ${c.pages} pages (store)`, fmt(c.paginatedMs), fmt(c.raw.paginatedMs), fmt(c.paginatedMs / c.raw.paginatedMs), '', ''],
    ];
  });
}

function memoryRows(m: MemoryResult | undefined): string[][] {
  if (!m) return [['memory', 'failed', '', '', '']];
  const row = (name: string, f: MemoryResult['restart']) => [
    name,
    fmt(f.rssPerObject, 0),
    fmt(f.heapPerObject, 0),
    `${fmt(f.ratio, 2)}x`,
    `<= ${TARGETS.memoryRatio}x`,
    verdict(f.ratio <= TARGETS.memoryRatio),
  ];
  return [row('restarted on loaded store', m.restart), row('same process, after API creates', m.inProcess)];
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'orch-bench-cache-'));
  keepTmp(work);
  const failures: Record<string, string> = {};
  const attempt = async <T>(name: string, fn: () => Promise<T>): Promise<T | undefined> => {
    console.error(`# ${name}...`);
    const t0 = performance.now();
    try {
      return await fn();
    } catch (err) {
      failures[name] = ((err as Error).stack ?? String(err)).split('\n').slice(0, 6).join('\n').slice(0, 600);
      console.error(`# ${name} failed: ${(err as Error).message}`);
      return undefined;
    } finally {
      console.error(`# ${name}: ${round1((performance.now() - t0) / 1000)} s`);
    }
  };

  const loadBefore = loadavg()[0] ?? 0;
  const fanout = await attempt('watch fan-out', () => benchWatchFanout(work, FANOUT));
  const lists = await attempt('lists', () => benchLists(work, LISTS));
  const memory = lists
    ? await attempt('cache memory', () =>
        benchCacheMemory(work, lists.dataDir, lists.objects, lists.objectJsonBytes, { empty: lists.memoryEmpty, loaded: lists.memoryLoaded }),
      )
    : undefined;

  console.log(
    `\nWatch fan-out: ${FANOUT.watchers} watchers over HTTP/2 (${FANOUT.sessions} sessions + 1 for the ${FANOUT.timedWatchers} timed ones), ` +
      `${FANOUT.writesPerSecond} writes/s of 1 KiB ConfigMaps, ${FANOUT.warmupMs} ms warmup + ${FANOUT.durationMs} ms measured`,
  );
  printTable(['metric', 'value', 'target', ''], fanoutRows(fanout));
  console.log(
    `\nLists of 1 KiB ConfigMaps (${lists ? fmt(lists.objectJsonBytes, 0) : '?'} B served each), ms (median), against raw better-sqlite3 reading the same rows` +
      `${lists ? `; loaded through the API at ${fmt(lists.loadPerSecond, 0)} objects/s` : ''}`,
  );
  printTable(['case', 'orch ms', 'raw ms', 'ratio', 'target', ''], listRows(lists));
  console.log(`\nWatch-cache memory: RSS per cached object (${memory ? fmt(memory.objects, 0) : '?'} objects) against the object's JSON size`);
  printTable(['measured', 'RSS B/object', 'heap+ext B/object', 'ratio', 'target', ''], memoryRows(memory));
  if (memory) console.log(`restart on the loaded store: ready in ${fmt(memory.restartReadyMs, 0)} ms`);
  if (loadBefore > 0.5) console.log(`warning: load average was ${loadBefore.toFixed(2)} at start; figures may be noisy`);

  const list10k = lists?.cases.find((c) => c.objects === 10_000);
  const targetsMet = {
    fanoutP99: fanout ? fanout.p99Ms < TARGETS.fanoutP99Ms : undefined,
    cachedList10k: list10k ? Math.max(list10k.cachedRv0Ms, list10k.cachedUnsetMs) < TARGETS.cachedList10kMs : undefined,
    memory: memory ? memory.restart.ratio <= TARGETS.memoryRatio : undefined,
  };
  const r2 = (o: object) => JSON.parse(JSON.stringify(o, (_, v) => (typeof v === 'number' ? round2(v) : v)));
  console.log(
    JSON.stringify({
      fanout: fanout && r2(fanout),
      lists: lists && r2({ loadPerSecond: lists.loadPerSecond, objectJsonBytes: lists.objectJsonBytes, cases: lists.cases }),
      memory: memory && r2(memory),
      targets: TARGETS,
      targetsMet,
      loadAverageAtStart: round2(loadBefore),
      config: { fanout: FANOUT, listSizes: SIZES, pageSize: LISTS.pageSize, arrangement: 'server=child process, clients=worker threads' },
      ...(Object.keys(failures).length ? { failures } : {}),
    }),
  );
  process.exitCode = Object.keys(failures).length ? 1 : 0;
}

await main();
cleanup();
