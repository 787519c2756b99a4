/**
 * Watch fan-out with watchers that never read (issue 11): the same run twice on fresh servers,
 * 500 reading watchers alone and then with 500 more that never read, at 200 writes/s of 1 KiB
 * ConfigMaps. Targets: the reading watchers' p99 delivery under 100 ms, write throughput with
 * the non-readers at least 0.8x the run without them, and the server's peak memory under 2x its
 * idle size. The difference between the two runs (server CPU, write latency) is what the
 * non-readers cost. Prints a table, and as its last line one JSON object.
 */
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { printTable, round1, round2 } from './cache-harness.js';
import { boundedRun } from './children.js';
import { benchWatchFanout, type FanoutOptions, type FanoutResult } from './watch-fanout.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const READERS = env('BENCH_READERS', 500);
const NON_READERS = env('BENCH_NON_READERS', 500);
const BASE: FanoutOptions = {
  watchers: READERS,
  sessions: 4,
  timedWatchers: 100,
  writesPerSecond: env('BENCH_WRITES_PER_SECOND', 200),
  warmupMs: env('BENCH_WARMUP_MS', 3000),
  durationMs: env('BENCH_DURATION_MS', 15_000),
};
const TARGETS = { p99Ms: 100, throughputRatio: 0.8, memoryRatio: 2 };
const DEADLINE_MS = 300_000;

const { keepTmp, cleanup } = boundedRun(DEADLINE_MS);
const fmt = (x: number | undefined, digits = 1) => (x === undefined ? '' : x.toLocaleString('en-US', { maximumFractionDigits: digits }));
const mib = (b: number) => fmt(b / 2 ** 20, 0);
const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'orch-bench-watch-'));
  keepTmp(work);
  const loadBefore = loadavg()[0] ?? 0;
  const run = async (name: string, nonReaders: number): Promise<FanoutResult> => {
    console.error(`# ${name}...`);
    const t0 = performance.now();
    const dir = await mkdtemp(join(work, `${name}-`));
    const r = await benchWatchFanout(dir, { ...BASE, nonReaders });
    console.error(`# ${name}: ${round1((performance.now() - t0) / 1000)} s`);
    return r;
  };
  const alone = await run('readers', 0);
  const mixed = await run('readers+non-readers', NON_READERS);

  const throughputRatio = mixed.ackedWritesPerSecond / alone.ackedWritesPerSecond;
  const memoryRatio = mixed.serverRssPeakBytes / mixed.serverRssIdleBytes;
  const met = {
    p99: mixed.p99Ms < TARGETS.p99Ms,
    throughput: throughputRatio >= TARGETS.throughputRatio,
    memory: memoryRatio < TARGETS.memoryRatio,
  };
  console.log(
    `\nWatch fan-out: ${READERS} reading watchers (${BASE.timedWatchers} timed), then the same with ${NON_READERS} that never read; ` +
      `HTTP/2, ${BASE.writesPerSecond} writes/s of 1 KiB ConfigMaps, ${BASE.warmupMs} ms warmup + ${BASE.durationMs} ms measured`,
  );
  const row = (metric: string, a: string, b: string, target = '', ok = '') => [metric, a, b, target, ok];
  printTable(
    ['metric', 'readers only', `+ ${NON_READERS} non-readers`, 'target', ''],
    [
      row('writes acknowledged/s', fmt(alone.ackedWritesPerSecond), fmt(mixed.ackedWritesPerSecond), `>= ${TARGETS.throughputRatio}x`, verdict(met.throughput)),
      row('reading: ack -> event p50 ms', fmt(alone.p50Ms), fmt(mixed.p50Ms)),
      row(
        'reading: ack -> event p99 ms (max)',
        `${fmt(alone.p99Ms)} (${fmt(alone.maxMs)})`,
        `${fmt(mixed.p99Ms)} (${fmt(mixed.maxMs)})`,
        `< ${TARGETS.p99Ms}`,
        verdict(met.p99),
      ),
      row('reading: events received / expected', fmt(alone.deliveredRatio, 4), fmt(mixed.deliveredRatio, 4), '1'),
      row('events delivered/s', fmt(alone.eventsPerSecond, 0), fmt(mixed.eventsPerSecond, 0)),
      row('server CPU load (cores)', fmt(alone.serverCpuLoad, 2), fmt(mixed.serverCpuLoad, 2)),
      row('server CPU per delivered event µs', fmt(alone.serverCpuUsPerEvent, 2), fmt(mixed.serverCpuUsPerEvent, 2)),
      row('write p99 ms (from due)', fmt(alone.writeP99Ms), fmt(mixed.writeP99Ms)),
      row('server RSS idle MiB', mib(alone.serverRssIdleBytes), mib(mixed.serverRssIdleBytes)),
      row('server RSS peak MiB', mib(alone.serverRssPeakBytes), mib(mixed.serverRssPeakBytes), `< ${TARGETS.memoryRatio}x idle`, verdict(met.memory)),
      row(
        'server RSS after GC: idle -> end MiB',
        `${mib(alone.serverRssIdleAfterGcBytes)} -> ${mib(alone.serverRssEndAfterGcBytes)}`,
        `${mib(mixed.serverRssIdleAfterGcBytes)} -> ${mib(mixed.serverRssEndAfterGcBytes)}`,
      ),
      row('non-readers ended by the server', '', `${fmt(mixed.nonReadersClosed, 0)} of ${fmt(mixed.nonReaders, 0)}`),
      row('other processes (cores)', fmt(alone.otherCpuLoad, 2), fmt(mixed.otherCpuLoad, 2)),
    ],
  );
  if (loadBefore > 0.5) console.log(`warning: load average was ${loadBefore.toFixed(2)} at start; figures may be noisy`);
  const r2 = (o: object) => JSON.parse(JSON.stringify(o, (_, v) => (typeof v === 'number' ? round2(v) : v)));
  console.log(
    JSON.stringify({
      readersOnly: r2(alone),
      withNonReaders: r2(mixed),
      throughputRatio: round2(throughputRatio),
      memoryRatio: round2(memoryRatio),
      targets: TARGETS,
      targetsMet: met,
      loadAverageAtStart: round2(loadBefore),
      config: { ...BASE, nonReaders: NON_READERS },
    }),
  );
}

await main();
cleanup();
