/**
 * `npm run bench:scheduler`: upstream's scheduler_perf workloads on the in-memory simulator.
 * Prints pods/s per workload with the ratio to upstream's published threshold, memory per node
 * and per pod, a table, and as the last line one JSON object.
 *
 * Options: `--scale=<f>` multiplies node and pod counts (default 1); `--only=<a,b>` picks workloads.
 */
import { IN_TREE_REGISTRY } from '../src/scheduler/plugins/registry.js';
import { benchProfile } from './scheduler/profile.js';
import { runWorkload, type WorkloadResult } from './scheduler/runner.js';
import { WORKLOADS } from './scheduler/workloads.js';

function arg(name: string): string | undefined {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a?.slice(name.length + 3);
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const kib = (b: number) => `${fmt(b / 1024, 1)} KiB`;

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const scale = Number(arg('scale') ?? '1');
  const only = arg('only')?.split(',');
  const { config, missing } = benchProfile(IN_TREE_REGISTRY);
  console.log('orch scheduler benchmark: upstream scheduler_perf workloads (5000Nodes variants) on the in-memory simulator');
  console.log(`node ${process.version}, ${process.platform}/${process.arch}${scale !== 1 ? `, counts scaled by ${scale}` : ''}`);
  if (missing.length === 0) console.log('profile: the default profile (every default plugin registered)');
  else console.log(`profile: default plugins that are registered; MISSING (not yet written): ${missing.join(', ')}`);
  console.log('note: upstream thresholds are measured with an API server (and etcd) in the loop; here binding is in memory.\n');

  const results: WorkloadResult[] = [];
  for (const w of WORKLOADS) {
    if (only !== undefined && !only.includes(w.name)) continue;
    const r = await runWorkload(w, IN_TREE_REGISTRY, config, scale);
    results.push(r);
    const ratio =
      r.threshold === null
        ? 'no published threshold'
        : `${fmt(r.podsPerSecond / r.threshold, 2)}x upstream's ${r.threshold} pods/s (API server in the loop upstream)`;
    const lacking = w.needs.filter((n) => missing.includes(n));
    console.log(
      `${w.name}: ${fmt(r.podsPerSecond)} pods/s, ${ratio}; ${r.scheduled}/${r.measurePods} bound in ${fmt(r.seconds, 2)} s` +
        `${r.preempted > 0 ? `, ${r.preempted} victims preempted` : ''}${r.pending > 0 ? `, ${r.pending} still pending` : ''}` +
        `${lacking.length > 0 ? ` [without ${lacking.join(', ')}]` : ''}`,
    );
  }

  const rows = [['workload', 'nodes', 'init pods', 'measured', 'pods/s', 'threshold', 'ratio', 'mem/node', 'mem/pod']];
  for (const r of results) {
    rows.push([
      r.name,
      fmt(r.nodes),
      fmt(r.initPods),
      fmt(r.measurePods),
      fmt(r.podsPerSecond),
      r.threshold === null ? '-' : String(r.threshold),
      r.threshold === null ? '-' : `${fmt(r.podsPerSecond / r.threshold, 2)}x`,
      kib(r.bytesPerNode),
      kib(r.bytesPerPod),
    ]);
  }
  console.log(`\n${table(rows)}`);
  console.log('(thresholds: upstream scheduler_perf, API server in the loop; memory: heap used delta after GC / count)\n');
  const json = { workloads: results.map((r) => ({ name: r.name, podsPerSecond: Math.round(r.podsPerSecond), upstreamThreshold: r.threshold })) };
  console.log(JSON.stringify(json));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
