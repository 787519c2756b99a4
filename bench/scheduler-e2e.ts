/**
 * `npm run bench:scheduler-e2e`: upstream's scheduler_perf workloads with the API server in the
 * loop, as upstream measures its thresholds: nodes and pods created through the API, the
 * scheduler a separate `orch-scheduler` process binding through `POST pods/<name>/binding`,
 * pods/s over the measured pods. Per workload: the ratio to upstream's threshold, the CPU the
 * API server and the scheduler used (in cores) and what bounds the figure; a table, and as the
 * last line one JSON object shaped as `bench:scheduler`'s.
 *
 * Options: `--scale=<f>` multiplies node and pod counts (`--quick` is `--scale=0.1`);
 * `--only=<a,b>` picks workloads; `--storage=sqlite|memory` (default sqlite, orch's default);
 * `--concurrency=<n>` connections creating objects (default 16); `--cpu-prof=<dir>` writes a V8
 * CPU profile of the API server and of the scheduler per workload; `--runs=<n>` runs each
 * workload n times (a fresh cluster each) and reports the median run, with the range: on a
 * shared 2-core machine one run can be a third slower than the next. Each run prints the
 * machine's speed just before it started (calibrate.ts) beside its figures.
 * `node dist/bench/scheduler-e2e/request-costs.js` breaks the API server's CPU per pod down by
 * request kind (create, binding, Scheduled event, watch delivery), each measured alone.
 */
import { resolve } from 'node:path';
import { boundedRun } from './children.js';
import { type E2eResult, runE2eWorkload } from './scheduler-e2e/run.js';
import { WORKLOADS } from './scheduler/workloads.js';

function arg(name: string): string | undefined {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a?.slice(name.length + 3);
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const pct = (cores: number) => `${fmt(cores * 100)}%`;
/** CPU milliseconds per measured pod: steadier than pods/s on a shared machine. */
const perPod = (r: E2eResult, cores: number) => fmt((cores * r.seconds * 1000) / Math.max(1, r.scheduled), 2);

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n');
}

/** A Node process runs JavaScript on one thread: near one core busy, that process is the bound. */
const SATURATED = 0.85;

/** Which resource the figure hit, from the CPU shares of the measured phase. */
function bound(r: E2eResult, cores: number): string {
  const { apiserver, scheduler, loader, others } = r.cpu;
  const total = apiserver + scheduler + loader + others;
  if (r.timedOut) return 'timed out';
  if (apiserver >= SATURATED && apiserver >= scheduler) return 'API server CPU';
  if (scheduler >= SATURATED) return 'scheduler CPU';
  if (total >= cores * SATURATED) return `machine's ${cores} cores`;
  if (r.createSeconds >= r.seconds * 0.9) return 'pod creation';
  return 'latency (no process saturated)';
}

async function main(): Promise<void> {
  const scale = process.argv.includes('--quick') ? 0.1 : Number(arg('scale') ?? '1');
  const only = arg('only')?.split(',');
  const storage = (arg('storage') ?? 'sqlite') as 'sqlite' | 'memory';
  if (storage !== 'sqlite' && storage !== 'memory') throw new Error('--storage is sqlite or memory');
  const concurrency = Number(arg('concurrency') ?? '16');
  const profDir = arg('cpu-prof');
  const runs = Math.max(1, Number(arg('runs') ?? '1'));
  const cores = (await import('node:os')).availableParallelism();
  const { keepTmp } = boundedRun(60 * 60 * 1000);

  console.log('orch scheduler benchmark, API server in the loop: upstream scheduler_perf workloads (5000Nodes variants)');
  console.log(
    `node ${process.version}, ${cores} cores, store ${storage}, ${concurrency} creating connections${scale !== 1 ? `, counts scaled by ${scale}` : ''}`,
  );
  console.log('orch-apiserver (no controllers) and orch-scheduler (--leader-elect=false, 5,000 qps as scheduler_perf) are separate processes;');
  console.log(
    `load average at start: ${(await import('node:os'))
      .loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')}\n`,
  );

  const results: { median: E2eResult; all: E2eResult[] }[] = [];
  for (const w of WORKLOADS) {
    if (only !== undefined && !only.includes(w.name)) continue;
    const all: E2eResult[] = [];
    for (let run = 0; run < runs; run++) {
      const r = await runE2eWorkload(w, {
        scale,
        concurrency,
        storage,
        keepTmp,
        cpuProfileDir: profDir ? resolve(profDir) : undefined,
        phaseTimeoutMs: 300_000,
      });
      all.push(r);
      const ratio = r.threshold === null ? 'no published threshold' : `${fmt(r.podsPerSecond / r.threshold, 2)}x upstream's ${r.threshold} pods/s`;
      console.log(
        `${w.name}${runs > 1 ? ` (run ${run + 1}/${runs})` : ''}: ${fmt(r.podsPerSecond)} pods/s, ${ratio}; ${r.scheduled}/${r.measurePods} bound in ${fmt(r.seconds, 2)} s ` +
          `(created in ${fmt(r.createSeconds, 2)} s); CPU: API server ${pct(r.cpu.apiserver)} (${perPod(r, r.cpu.apiserver)} ms/pod), ` +
          `scheduler ${pct(r.cpu.scheduler)} (${perPod(r, r.cpu.scheduler)} ms/pod), ` +
          `loader ${pct(r.cpu.loader)}, other work ${pct(r.cpu.others)}; bound by ${bound(r, cores)}; calibration ${fmt(r.calibrationMs)} ms` +
          `${r.victimsDeleted > 0 ? `; ${r.victimsDeleted} victims deleted` : ''}` +
          `${r.failedAttempts > 0 ? `; ${r.failedAttempts} failed scheduling attempts` : ''}${r.timedOut ? `; ${r.timedOut}` : ''}`,
      );
    }
    const sorted = [...all].sort((a, b) => a.podsPerSecond - b.podsPerSecond);
    results.push({ median: sorted[Math.floor((sorted.length - 1) / 2)], all });
  }

  const rows = [
    [
      'workload',
      'nodes',
      'init pods',
      'measured',
      'pods/s',
      'threshold',
      'ratio',
      'API server CPU',
      'ms/pod',
      'scheduler CPU',
      'ms/pod',
      'other CPU',
      'bound by',
      'calibration',
      ...(runs > 1 ? ['runs (pods/s)'] : []),
    ],
  ];
  for (const { median: r, all } of results) {
    const range = all.map((x) => x.podsPerSecond);
    rows.push([
      r.name,
      fmt(r.nodes),
      fmt(r.initPods),
      fmt(r.measurePods),
      fmt(r.podsPerSecond),
      r.threshold === null ? '-' : String(r.threshold),
      r.threshold === null ? '-' : `${fmt(r.podsPerSecond / r.threshold, 2)}x`,
      pct(r.cpu.apiserver),
      perPod(r, r.cpu.apiserver),
      pct(r.cpu.scheduler),
      perPod(r, r.cpu.scheduler),
      pct(r.cpu.loader + r.cpu.others),
      bound(r, cores),
      `${fmt(r.calibrationMs)} ms`,
      ...(runs > 1 ? [`${fmt(Math.min(...range))}-${fmt(Math.max(...range))}`] : []),
    ]);
  }
  console.log(`\n${table(rows)}`);
  console.log(
    `(CPU over the measured phase, 100% = one core busy; ms/pod = CPU milliseconds per measured pod; other = this loader plus everything else on the machine; calibration = a fixed JavaScript workload's time just before the run, lower is a faster machine${runs > 1 ? `; the median of ${runs} runs is shown` : ''})\n`,
  );
  const json = { workloads: results.map(({ median: r }) => ({ name: r.name, podsPerSecond: Math.round(r.podsPerSecond), upstreamThreshold: r.threshold })) };
  console.log(JSON.stringify(json));
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
