/**
 * What API Priority and Fairness costs a GET: the same GET (a ConfigMap by name, 32 keep-alive
 * connections) against a server with APF and one started with --enable-priority-and-fairness=
 * false (the in-flight limits instead), as the admin (exempt level; the in-flight filter skips
 * masters) and as a token user RBAC lets read (global-default level: a queue set's seat),
 * interleaved (which server goes first alternating by round) so drift hits both. Figures: requests per second and the
 * server's CPU per GET (from /proc/<pid>/stat). Also the two filters' own cost in this process
 * (classification, seat and release, headers), in CPU time.
 * Target: on ≥ 0.95 × off.
 * Usage: npm run build && node dist/bench/apf-cost.js
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boundedRun, type Child, cpuSeconds, spawnNode, stopChild, waitForLine, waitQuiet } from './children.js';
import { requestOnce } from './http-client.js';
import { runLoad, type LoadSpec, type TlsMaterial } from './load.js';
import { ORCH_BRAND } from '../src/machinery/brand.js';
import type { Obj } from '../src/machinery/object.js';
import type { Registry } from '../src/registry/registry.js';
import type { RequestState } from '../src/server/filters/chain.js';
import { withMaxInFlight } from '../src/server/filters/max-in-flight.js';
import { withPriorityAndFairness } from '../src/server/filters/priority-and-fairness.js';
import { bootstrapConfiguration } from '../src/server/flowcontrol/bootstrap-objects.js';
import { FlowControl } from '../src/server/flowcontrol/controller.js';
import { registerFlowControlMetrics } from '../src/server/flowcontrol/metrics.js';
import { MetricsRegistry } from '../src/machinery/metrics.js';
import { requestInfo } from '../src/server/request-info.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 2000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OBJECTS = 100;
const TARGET = 0.95;

const { keepTmp } = boundedRun(240_000);

interface Server {
  child: Child;
  url: string;
  tls: TlsMaterial;
  readerToken: string;
}

async function startServer(work: string, name: string, args: string[]): Promise<Server> {
  const dataDir = join(work, name);
  await mkdir(dataDir);
  const child = spawnNode([join(HERE, 'orch-server.js'), dataDir, ...args], ROOT);
  const ready = JSON.parse((await waitForLine(child, (l) => l.startsWith('READY '), 20_000)).slice(6));
  const tls: TlsMaterial = { ca: ready.caPem, cert: ready.certPem, key: ready.keyPem };
  const base = `${ready.url}/api/v1/namespaces/default/configmaps`;
  for (let i = 0; i < OBJECTS; i++) {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `bench-${i}` }, data: { payload: 'x'.repeat(900) } });
    const reply = await requestOnce(base, { method: 'POST', body, tls });
    if (reply.status !== 201) throw new Error(`pre-creating bench-${i}: ${reply.status} ${reply.body.slice(0, 200)}`);
  }
  const binding = JSON.stringify({
    metadata: { name: 'bench-reader' },
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'bench-reader' }],
  });
  const bound = await requestOnce(`${ready.url}/apis/rbac.authorization.orch.io/v1/clusterrolebindings`, { method: 'POST', body: binding, tls });
  if (bound.status !== 201) throw new Error(`binding: ${bound.status} ${bound.body.slice(0, 200)}`);
  for (const deadline = Date.now() + 10_000; ; ) {
    const r = await requestOnce(`${base}/bench-0`, { tls: { ca: tls.ca }, authorization: `Bearer ${ready.readerToken}` });
    if (r.status === 200) break;
    if (Date.now() > deadline) throw new Error(`the reader is still refused: ${r.status}`);
    await new Promise((res) => setTimeout(res, 50));
  }
  await waitQuiet(child);
  return { child, url: ready.url, tls, readerToken: ready.readerToken };
}

interface Measured {
  rps: number;
  cpuUsPerGet: number;
}

async function get(server: Server, asReader: boolean): Promise<Measured> {
  const spec: LoadSpec = {
    baseUrl: server.url,
    tls: asReader ? { ca: server.tls.ca } : server.tls,
    ...(asReader ? { authorization: `Bearer ${server.readerToken}` } : {}),
    client: 'raw',
    concurrency: 32,
    warmupMs: WARMUP_MS,
    durationMs: DURATION_MS,
    method: 'GET',
    path: '/api/v1/namespaces/default/configmaps/bench-{n}',
    rotate: OBJECTS,
    expectStatus: 200,
  };
  const pid = server.child.proc.pid as number;
  const before = cpuSeconds(pid);
  const r = await runLoad(spec);
  if (r.errors > 0) throw new Error(`GET failed: ${r.firstError}`);
  // As bench/apiserver.ts: the CPU of warmup and window over the requests of both at the window's rate.
  return { rps: r.rps, cpuUsPerGet: ((cpuSeconds(pid) - before) * 1e6) / ((r.rps * (WARMUP_MS + DURATION_MS)) / 1000) };
}

/** Nanoseconds each filter adds to one request, in this process, for a user (median of 5 rounds). */
async function filterCostNs(): Promise<{ apfExempt: number; apfQueued: number; inFlightExempt: number; inFlightCounted: number }> {
  const boot = bootstrapConfiguration(ORCH_BRAND);
  let uid = 0;
  const withUid = (o: Obj): Obj => ({ ...o, metadata: { ...o.metadata, uid: `uid-${uid++}` } });
  const flowControl = new FlowControl({ brand: ORCH_BRAND } as unknown as Registry, {
    serverConcurrencyLimit: 600,
    requestWaitLimitMs: 15_000,
    metrics: registerFlowControlMetrics(new MetricsRegistry({ currentVersion: { major: 1, minor: 25 } })),
  });
  flowControl.configure(
    [...boot.mandatoryFlowSchemas, ...boot.suggestedFlowSchemas].map(withUid),
    [...boot.mandatoryPriorityLevels, ...boot.suggestedPriorityLevels].map(withUid),
  );
  const apf = withPriorityAndFairness(flowControl, ORCH_BRAND);
  const inFlight = withMaxInFlight({ maxRequestsInflight: 400, maxMutatingRequestsInflight: 200 });
  const info = requestInfo('GET', '/api/v1/namespaces/default/configmaps/bench-1', new URLSearchParams());
  const res = { setHeader: () => {} };
  const admin = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
  const reader = { name: 'bench-reader', groups: ['system:authenticated'] };
  const next = () => Promise.resolve();
  // CPU time, not wall time: other processes on the machine do not count.
  const cpuNs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) * 1000;
  };
  const time = async (filter: typeof apf | undefined, user: typeof admin, n: number) => {
    const state = { res, info, user } as unknown as RequestState;
    const started = cpuNs();
    for (let i = 0; i < n; i++) await (filter ? filter(state, next) : next());
    return (cpuNs() - started) / n;
  };
  const median = async (filter: typeof apf, user: typeof admin) => {
    const costs: number[] = [];
    for (let round = 0; round < 5; round++) costs.push((await time(filter, user, 100_000)) - (await time(undefined, user, 100_000)));
    return costs.sort((a, b) => a - b)[2];
  };
  return {
    apfExempt: await median(apf, admin),
    apfQueued: await median(apf, reader),
    inFlightExempt: await median(inFlight, admin),
    inFlightCounted: await median(inFlight, reader),
  };
}

const filters = await filterCostNs();
console.log(
  `filters in-process, ns per request: APF exempt ${filters.apfExempt.toFixed(0)}, APF global-default ${filters.apfQueued.toFixed(0)}; in-flight master ${filters.inFlightExempt.toFixed(0)}, counted ${filters.inFlightCounted.toFixed(0)}`,
);
const work = keepTmp(await mkdtemp(join(tmpdir(), 'orch-apf-cost-')));
const on = await startServer(work, 'on', []);
const off = await startServer(work, 'off', ['--no-apf']);
const results = { adminOn: [] as Measured[], adminOff: [] as Measured[], readerOn: [] as Measured[], readerOff: [] as Measured[] };
try {
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternating which server goes first, so drift within a round falls on both alike.
    const pair = async (asReader: boolean): Promise<[Measured, Measured]> => {
      if (round % 2) {
        const o = await get(off, asReader);
        return [o, await get(on, asReader)];
      }
      const n = await get(on, asReader);
      return [await get(off, asReader), n];
    };
    const [adminOff, adminOn] = await pair(false);
    results.adminOff.push(adminOff);
    results.adminOn.push(adminOn);
    const [readerOff, readerOn] = await pair(true);
    results.readerOff.push(readerOff);
    results.readerOn.push(readerOn);
    const line = (k: keyof typeof results) =>
      `${(results[k].at(-1) as Measured).rps.toFixed(0)} req/s ${(results[k].at(-1) as Measured).cpuUsPerGet.toFixed(0)} µs`;
    console.log(`round ${round}: admin off ${line('adminOff')}, on ${line('adminOn')}; reader off ${line('readerOff')}, on ${line('readerOn')}`);
  }
} finally {
  await Promise.all([stopChild(on.child), stopChild(off.child)]);
}
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const summary = Object.fromEntries(
  Object.entries(results).map(([k, v]) => [k, { rps: median(v.map((m) => m.rps)), cpuUsPerGet: median(v.map((m) => m.cpuUsPerGet)) }]),
) as Record<keyof typeof results, Measured>;
const ratios = {
  adminRps: summary.adminOn.rps / summary.adminOff.rps,
  adminCpu: summary.adminOff.cpuUsPerGet / summary.adminOn.cpuUsPerGet,
  readerRps: summary.readerOn.rps / summary.readerOff.rps,
  readerCpu: summary.readerOff.cpuUsPerGet / summary.readerOn.cpuUsPerGet,
};
console.log(
  `APF on / off (higher is better, target ≥ ${TARGET}): admin ${ratios.adminRps.toFixed(3)} by req/s, ${ratios.adminCpu.toFixed(3)} by CPU per GET; reader ${ratios.readerRps.toFixed(3)} by req/s, ${ratios.readerCpu.toFixed(3)} by CPU per GET`,
);
console.log(JSON.stringify({ summary, ratios, filtersNs: filters, target: TARGET }));
