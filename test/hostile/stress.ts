/**
 * `npm run stress`: the hostile-input suite at scale, then kill -9 durability passes.
 *
 *   node dist/test/hostile/stress.js [--cases 200000] [--duration 10m] [--seed N] [--lanes 6]
 *                                    [--only I] [--kill-passes 3] [--cap 20] [--families a,b]
 *                                    [--probe-threshold 200]
 *
 * --only I replays one case of a seed (printed by every failure). --probe-threshold lists (and
 * fails on) every /healthz probe slower than that many ms, with the case it is blamed on. The kill -9 pass reruns the
 * existing crash test (test/storage-crash.test.ts) rather than a copy of it.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FAMILIES } from './families.js';
import { describeFailure, formatReport } from './report.js';
import { runHostile } from './runner.js';

/** `90s`, `10m`, `1h` or plain seconds, in milliseconds. */
function parseDuration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(s);
  if (!m) throw new Error(`--duration: cannot parse ${JSON.stringify(s)} (use e.g. 90s, 10m, 1h)`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's'] ?? 1000;
  return Number(m[1]) * unit;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', default: '200000' },
      duration: { type: 'string' },
      seed: { type: 'string' },
      lanes: { type: 'string', default: '6' },
      only: { type: 'string' },
      'kill-passes': { type: 'string', default: '3' },
      cap: { type: 'string', default: '20' },
      families: { type: 'string' },
      'probe-threshold': { type: 'string', default: '200' },
    },
  });
  const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
  const count = values.duration ? Number.MAX_SAFE_INTEGER : Number(values.cases);
  console.log(`hostile stress: seed=${seed} ${values.duration ? `for ${values.duration}` : `${count} cases`} over ${values.lanes} lanes`);
  const report = await runHostile({
    seed,
    count,
    durationMs: values.duration ? parseDuration(values.duration) : undefined,
    lanes: Number(values.lanes),
    only: values.only !== undefined ? Number(values.only) : undefined,
    variantFailureCap: Number(values.cap),
    probeThresholdMs: Number(values['probe-threshold']),
    families: values.families ? FAMILIES.filter((f) => values.families?.split(',').includes(f.name)) : undefined,
    maxCrashes: 10,
    log: (line) => console.log(line),
    onFirstFailure: (f) => console.log(describeFailure(seed, f)),
  });
  if (values.duration) report.notRun = 0;
  console.log(formatReport(report));
  let failed = report.failures.length > 0 || report.crashes.length > 0 || report.pollution.length > 0 || report.probe.slow.length > 0;

  const passes = values.only !== undefined ? 0 : Number(values['kill-passes']);
  const crashTest = fileURLToPath(new URL('../storage-crash.test.js', import.meta.url));
  for (let i = 0; i < passes; i++) {
    const r = spawnSync(process.execPath, ['--test', '--test-reporter=dot', crashTest], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    console.log(`kill -9 durability pass ${i + 1}/${passes}: ${r.status === 0 ? 'ok' : `FAILED\n${r.stdout}${r.stderr}`}`);
    if (r.status !== 0) failed = true;
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
