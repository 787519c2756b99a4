/**
 * What recording metrics costs the API server: the same GET (a ConfigMap by name, client
 * certificate, 32 keep-alive connections) against a server with metrics on and one started
 * with --no-metrics, measured alternately in one run (off, on, off, on) so drift hits both.
 * Target: on ≥ 0.95 × off. On a busy machine the end-to-end figures swing more than the
 * difference, so the run also times the metrics filter itself in-process (a GET's recording,
 * children already resolved) and states it as a share of the GET's time on the server.
 * Usage: npm run build && node dist/bench/metrics-cost.js
 * Prints one line per round and, last, one JSON object with the figures.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boundedRun, spawnNode, stopChild, waitForLine } from './children.js';
import { requestOnce } from './http-client.js';
import { runLoad, type TlsMaterial } from './load.js';
import { withRequestMetrics } from '../src/server/filters/metrics.js';
import type { RequestState } from '../src/server/filters/chain.js';
import { createApiServerMetrics } from '../src/server/metrics.js';
import type { Registry } from '../src/registry/registry.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const OBJECTS = 100;
const TARGET = 0.95;

const { keepTmp } = boundedRun(120_000);

interface Server {
  url: string;
  tls: TlsMaterial;
  stop: () => Promise<void>;
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
  return { url: ready.url, tls, stop: () => stopChild(child) };
}

async function get(server: Server): Promise<number> {
  const r = await runLoad({
    baseUrl: server.url,
    tls: server.tls,
    client: 'raw',
    concurrency: 32,
    warmupMs: WARMUP_MS,
    durationMs: DURATION_MS,
    method: 'GET',
    path: '/api/v1/namespaces/default/configmaps/bench-{n}',
    rotate: OBJECTS,
    expectStatus: 200,
  });
  if (r.errors > 0) throw new Error(`GET failed: ${r.firstError}`);
  return r.rps;
}

/** Nanoseconds the metrics filter adds to one GET (median of rounds), measured in this process. */
async function filterCostNs(): Promise<number> {
  const metrics = createApiServerMetrics({ currentVersion: { major: 1, minor: 25 } });
  const registry = { served: () => ({ info: { kind: 'ConfigMap' }, subresources: new Map() }) } as unknown as Registry;
  const filter = withRequestMetrics(metrics, registry, true);
  const info = {
    isResourceRequest: true,
    verb: 'get',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'configmaps',
    subresource: '',
    name: 'x',
    namespace: 'default',
  };
  const res = { statusCode: 200, headersSent: true };
  const req = { method: 'GET', headers: {} };
  const query = new URLSearchParams();
  const next = () => Promise.resolve();
  const time = async (withMetrics: boolean, n: number) => {
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      const state = { req, res, info, query, received: performance.now() } as unknown as RequestState;
      await (withMetrics ? filter(state, next) : next());
    }
    return ((performance.now() - started) / n) * 1e6;
  };
  const costs: number[] = [];
  for (let round = 0; round < 5; round++) costs.push((await time(true, 200_000)) - (await time(false, 200_000)));
  return costs.sort((a, b) => a - b)[2];
}

const filterNs = await filterCostNs();
console.log(`metrics filter: ${filterNs.toFixed(0)} ns per GET`);
const work = keepTmp(await mkdtemp(join(tmpdir(), 'orch-metrics-cost-')));
const on = await startServer(work, 'on', []);
const off = await startServer(work, 'off', ['--no-metrics']);
const rps = { on: [] as number[], off: [] as number[] };
try {
  for (let round = 1; round <= ROUNDS; round++) {
    rps.off.push(await get(off));
    rps.on.push(await get(on));
    console.log(`round ${round}: metrics off ${rps.off.at(-1)?.toFixed(0)} req/s, on ${rps.on.at(-1)?.toFixed(0)} req/s`);
  }
} finally {
  await Promise.all([on.stop(), off.stop()]);
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ratio = mean(rps.on) / mean(rps.off);
// The server spends 1/rps seconds of its core per GET; the filter's share of that bounds what it can cost.
const perGetNs = 1e9 / mean(rps.off);
const filterRatio = perGetNs / (perGetNs + filterNs);
console.log(`GET with metrics on / off: ${ratio.toFixed(3)} measured end to end, ${filterRatio.toFixed(4)} from the filter's own cost (target ≥ ${TARGET})`);
console.log(JSON.stringify({ onRps: mean(rps.on), offRps: mean(rps.off), ratio, filterNs, filterRatio, target: TARGET }));
