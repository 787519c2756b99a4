/**
 * etcd benchmark (`npm run bench:etcd`, issue 17), all against one etcd member started here:
 *
 * - raw puts: 32 concurrent loops putting 1 KiB values through one etcd3 client (the baseline,
 *   run before and after orch, the better kept);
 * - orch CREATE of 1 KiB ConfigMaps over HTTPS from 32 clients (target: 0.8x the raw puts);
 * - orch GET of a 1 KiB ConfigMap from the watch cache (resourceVersion=0) against a trivial
 *   node:https server (target: 0.5x, as on SQLite);
 * - orch CREATE on SQLite (its own server), for what the etcd path costs the server beyond it;
 * - orch UPDATE (unconditional PUT) of those ConfigMaps: its etcd calls per write;
 * - watch fan-out across two replicas: 1,000 watchers split over both, 200 writes/s through
 *   the first, timed watchers on the second (target: p99 delivery under 100 ms).
 *
 * Beside each rate: CPU per operation of the server, of etcd and of the load generator (from
 * /proc), and the gRPC calls etcd served per operation (from its /metrics), because on two
 * cores the three processes compete and the rate alone does not say who bounds it.
 * Prints a table, the targets, and as its last line one JSON object.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { startEtcd } from '../test/helpers/etcd.js';
import { configMapBody, machineCpuSeconds, printTable, round1, round2, type Server, startServer, stopServer } from './cache-harness.js';
import { boundedRun, cpuSeconds, spawnNode, stopChild, waitForLine, waitQuiet } from './children.js';
import type { PutResult, PutSpec } from './etcd-put-worker.js';
import { requestOnce } from './http-client.js';
import { type LoadResult, type LoadSpec, runLoad } from './load.js';
import { ensureCertificates } from '../src/pki/certificates.js';
import { fanoutOn, type FanoutResult } from './watch-fanout.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const DURATION_MS = env('BENCH_DURATION_MS', 5000);
const WARMUP_MS = env('BENCH_WARMUP_MS', 1000);
const CONCURRENCY = 32;
const JIT_WARMUP_MS = env('BENCH_JIT_WARMUP_MS', 5000);
const GET_OBJECTS = 100;
const FANOUT = {
  watchers: env('BENCH_WATCHERS', 1000),
  sessions: 4,
  timedWatchers: 100,
  writesPerSecond: env('BENCH_WRITES_PER_SECOND', 200),
  warmupMs: env('BENCH_FANOUT_WARMUP_MS', 3000),
  durationMs: env('BENCH_FANOUT_DURATION_MS', 10_000),
};
const TARGETS = { create: 0.8, get: 0.5, fanoutP99Ms: 100 };
const DEADLINE_MS = 400_000;
/** Which parts run (BENCH_ONLY=raw,create: only those; for profiling one part). */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'raw,create,sqlite,get,update,fanout').split(','));

const { keepTmp, cleanup } = boundedRun(DEADLINE_MS);

interface Cost {
  /** CPU microseconds per operation, by process (warmup included: what each operation cost, whatever the rate). */
  serverUs?: number;
  etcdUs: number;
  clientUs?: number;
  /** gRPC calls etcd served per operation, by method (Txn, Range, Put, ...). */
  etcdCalls: Record<string, number>;
  /** Cores each used over the run (CPU seconds per second); other: every other process on the machine. */
  cores: { server?: number; etcd: number; client: number; other: number };
}

/** etcd's served gRPC calls by method, from its Prometheus metrics. */
async function etcdCalls(endpoint: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${endpoint}/metrics`)).text();
  const calls = new Map<string, number>();
  for (const m of text.matchAll(/^grpc_server_handled_total\{[^}]*grpc_method="(\w+)"[^}]*\} (\S+)$/gm)) {
    const [, method = '', n = '0'] = m;
    calls.set(method, (calls.get(method) ?? 0) + Number(n));
  }
  return calls;
}

/** Measures `run`'s cost per operation: CPU of each process, and etcd's calls. */
async function measured<T extends { rps: number; clientCpuSeconds?: number }>(
  endpoint: string,
  pids: { etcd: number; server?: number },
  run: () => Promise<T>,
): Promise<T & { cost: Cost }> {
  const calls0 = await etcdCalls(endpoint);
  const etcd0 = cpuSeconds(pids.etcd);
  const server0 = pids.server === undefined ? 0 : cpuSeconds(pids.server);
  const own0 = process.cpuUsage();
  const machine0 = machineCpuSeconds();
  const t0 = performance.now();
  const r = await run();
  const seconds = (performance.now() - t0) / 1000;
  const machineCpu = machineCpuSeconds() - machine0;
  const etcdCpu = cpuSeconds(pids.etcd) - etcd0;
  const serverCpu = pids.server === undefined ? undefined : cpuSeconds(pids.server) - server0;
  const own = process.cpuUsage(own0);
  const calls1 = await etcdCalls(endpoint);
  const n = Math.max(1, opsOverRun(r));
  const perOp = (s: number) => Math.round((s * 1e6) / n);
  const clientCpu = r.clientCpuSeconds ?? (own.user + own.system) / 1e6;
  const core = (s: number) => round2(s / seconds);
  const etcdCallsPerOp: Record<string, number> = {};
  for (const [method, count] of calls1) {
    const d = count - (calls0.get(method) ?? 0);
    if (d > 0) etcdCallsPerOp[method] = round2(d / n);
  }
  return {
    ...r,
    cost: {
      etcdUs: perOp(etcdCpu),
      ...(serverCpu === undefined ? {} : { serverUs: perOp(serverCpu) }),
      // The load generator runs in a worker of this process, which otherwise idles.
      clientUs: perOp(clientCpu),
      etcdCalls: etcdCallsPerOp,
      cores: {
        ...(serverCpu === undefined ? {} : { server: core(serverCpu) }),
        etcd: core(etcdCpu),
        client: core(clientCpu),
        other: core(Math.max(0, machineCpu - etcdCpu - (serverCpu ?? 0) - clientCpu)),
      },
    },
  };
}

/** Operations completed over warmup + window (the rate times the whole run): what the CPU paid for. */
const opsOverRun = (r: { rps: number }) => (r.rps * (WARMUP_MS + DURATION_MS)) / 1000;

function rawPuts(endpoint: string): Promise<PutResult> {
  const spec: PutSpec = { endpoint, concurrency: CONCURRENCY, size: 1024, warmupMs: WARMUP_MS, durationMs: DURATION_MS };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./etcd-put-worker.js', import.meta.url), { workerData: spec });
    worker.once('message', (r: PutResult) => {
      resolve(r);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`put worker exited with code ${code}`)));
  });
}

function loadSpec(server: Server, rest: Pick<LoadSpec, 'method' | 'path' | 'rotate' | 'body' | 'expectStatus'>): LoadSpec {
  return { baseUrl: server.url, tls: server.tls, client: 'raw', concurrency: CONCURRENCY, warmupMs: WARMUP_MS, durationMs: DURATION_MS, ...rest };
}

async function trivialGet(work: string): Promise<LoadResult> {
  const certDir = join(work, 'trivial-pki');
  const pki = await ensureCertificates(certDir, { hosts: ['localhost'], ips: ['127.0.0.1'] });
  const child = spawnNode([join(HERE, 'trivial-server.js'), certDir], ROOT);
  try {
    const ready = JSON.parse((await waitForLine(child, (l) => l.startsWith('READY '), 10_000)).slice(6));
    const tls = { ca: pki.caCertPem, cert: pki.adminCertPem, key: pki.adminKeyPem };
    return await runLoad({
      baseUrl: ready.url,
      tls,
      client: 'raw',
      concurrency: CONCURRENCY,
      warmupMs: WARMUP_MS,
      durationMs: DURATION_MS,
      method: 'GET',
      path: '/',
      expectStatus: 200,
    });
  } finally {
    await stopChild(child);
  }
}

type Measured<T> = T & { cost: Cost };

/**
 * Creates for JIT_WARMUP_MS, unmeasured: the create path's code (gRPC and HTTP/2 on etcd) is
 * still being compiled after the case's own warmup at etcd's lower rate, and a fifth of the
 * server's CPU then goes to the optimizing compiler (seen with perf), not to creates.
 */
async function warmCreates(server: Server): Promise<void> {
  await runLoad({ ...createSpec(server), body: configMapBody('warm-{n}', 1024), warmupMs: 0, durationMs: JIT_WARMUP_MS });
  await waitQuiet(server.child);
}

/** The ConfigMaps bench-0 ... bench-99 the GET case reads, eight at a time. */
async function precreate(server: Server): Promise<void> {
  for (let i = 0; i < GET_OBJECTS; i += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, GET_OBJECTS - i) }, async (_, j) => {
        const body = configMapBody(`bench-${i + j}`, 1024);
        const reply = await requestOnce(`${server.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', body, tls: server.tls });
        if (reply.status !== 201 && reply.status !== 409) throw new Error(`pre-creating bench-${i + j}: ${reply.status} ${reply.body.slice(0, 300)}`);
      }),
    );
  }
}

const createSpec = (server: Server) =>
  loadSpec(server, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: configMapBody('bench-c-{n}', 1024), expectStatus: 201 });

async function createOnSqlite(work: string, endpoint: string, etcdPid: number): Promise<Measured<LoadResult>> {
  const dir = join(work, 'sqlite');
  await mkdir(dir);
  const server = await startServer(dir);
  try {
    await warmCreates(server);
    return await measured(endpoint, { etcd: etcdPid, server: server.pid }, () => runLoad(createSpec(server)));
  } finally {
    await stopServer(server);
  }
}

async function main(): Promise<void> {
  const work = keepTmp(await mkdtemp(join(tmpdir(), 'orch-bench-etcd-')));
  const loadBefore = loadavg()[0] ?? 0;
  const etcd = await startEtcd();
  const failures: Record<string, string> = {};
  const attempt = async <T>(name: string, fn: () => Promise<T>): Promise<T | undefined> => {
    console.error(`# ${name}...`);
    try {
      return await fn();
    } catch (err) {
      failures[name] = (err as Error).message.slice(0, 600);
      console.error(`# ${name} failed: ${(err as Error).message}`);
      return undefined;
    }
  };
  const replicas: Server[] = [];
  try {
    const etcdPid = etcd.pid();
    if (etcdPid === undefined) throw new Error('etcd has no pid');
    const raw = async () => measured(etcd.endpoint, { etcd: etcdPid }, () => rawPuts(etcd.endpoint));
    const rawBefore = ONLY.has('raw') ? await attempt('raw puts (before)', raw) : undefined;

    const dirA = join(work, 'a');
    await mkdir(dirA);
    const a = await startServer(dirA, 60_000, [`--etcd=${etcd.endpoint}`]);
    replicas.push(a);
    let create: Measured<LoadResult> | undefined;
    let get: Measured<LoadResult> | undefined;
    if (ONLY.has('get') || ONLY.has('update')) {
      await precreate(a);
    }
    await waitQuiet(a.child);
    const pids = { etcd: etcdPid, server: a.pid };
    if (ONLY.has('create')) {
      create = await attempt('orch create', async () => {
        await warmCreates(a);
        return measured(etcd.endpoint, pids, () => runLoad(createSpec(a)));
      });
    }
    if (ONLY.has('get')) {
      await waitQuiet(a.child);
      // resourceVersion=0: served from the watch cache, as the informers' reads are (without it a
      // GET reads etcd, as upstream's).
      get = await attempt('orch get', () =>
        measured(etcd.endpoint, pids, () =>
          runLoad(
            loadSpec(a, { method: 'GET', path: '/api/v1/namespaces/default/configmaps/bench-{n}?resourceVersion=0', rotate: GET_OBJECTS, expectStatus: 200 }),
          ),
        ),
      );
    }
    // The same CREATE on SQLite (a server of its own): what the etcd path costs the server beyond it.
    const sqlite = ONLY.has('sqlite') ? await attempt('orch create on sqlite', () => createOnSqlite(work, etcd.endpoint, etcdPid)) : undefined;
    // Unconditional updates of the GET case's objects (each body differs, so each one writes).
    const update = ONLY.has('update')
      ? await attempt('orch update', () =>
          measured(etcd.endpoint, pids, () =>
            runLoad(
              loadSpec(a, {
                method: 'PUT',
                path: '/api/v1/namespaces/default/configmaps/bench-{n}',
                rotate: GET_OBJECTS,
                body: configMapBody('bench-{n}', 1024, '{seq}-'),
                expectStatus: 200,
              }),
            ),
          ),
        )
      : undefined;
    const trivial = ONLY.has('get') ? await attempt('trivial https', () => trivialGet(work)) : undefined;
    const rawAfter = ONLY.has('raw') ? await attempt('raw puts (after)', raw) : undefined;

    let fanout: FanoutResult | undefined;
    if (ONLY.has('fanout')) {
      fanout = await attempt('watch fan-out, two replicas', async () => {
        const dirB = join(work, 'b');
        await mkdir(dirB);
        const b = await startServer(dirB, 60_000, [`--etcd=${etcd.endpoint}`, `--cert-dir=${join(dirA, 'pki')}`]);
        replicas.push(b);
        return fanoutOn([a, b], FANOUT);
      });
    }

    const best = [rawBefore, rawAfter].reduce<Measured<PutResult> | undefined>((x, r) => (r && (!x || r.rps > x.rps) ? r : x), undefined);
    const ratio = (r: { rps: number } | undefined, base: { rps: number } | undefined) => (r && base && base.rps > 0 ? r.rps / base.rps : undefined);
    const createRatio = ratio(create, best);
    const getRatio = ratio(get, trivial);
    const fmt = (x: number | undefined, digits = 0) => (x === undefined ? '' : x.toFixed(digits));
    const calls = (c: Cost | undefined) =>
      c
        ? Object.entries(c.etcdCalls)
            .map(([m, n]) => `${m} ${n}`)
            .join(', ')
        : '';
    const cores = (c: Cost | undefined) =>
      c ? [c.cores.server, c.cores.etcd, c.cores.client, c.cores.other].map((x) => (x === undefined ? '-' : x.toFixed(2))).join('/') : '';
    const row = (name: string, r: (LoadResult | PutResult) & { cost?: Cost }, vs?: number) => [
      name,
      fmt(r.rps),
      fmt(r.p50, 2),
      fmt(r.p99, 2),
      vs === undefined ? '' : vs.toFixed(3),
      fmt(r.cost?.serverUs),
      fmt(r.cost?.etcdUs),
      fmt(r.cost?.clientUs),
      cores(r.cost),
      calls(r.cost),
    ];
    const rows: string[][] = [];
    if (rawBefore) rows.push(row('raw etcd3 put, 1 KiB (before)', rawBefore));
    if (rawAfter) rows.push(row('raw etcd3 put, 1 KiB (after)', rawAfter));
    if (create) rows.push(row('orch CREATE 1 KiB ConfigMap', create, createRatio));
    if (sqlite) rows.push(row('orch CREATE on SQLite (for comparison)', sqlite, ratio(sqlite, best)));
    if (trivial) rows.push(row('trivial HTTPS server', trivial));
    if (get) rows.push(row('orch GET 1 KiB ConfigMap (watch cache)', get, getRatio));
    if (update) rows.push(row('orch UPDATE 1 KiB ConfigMap (PUT)', update, ratio(update, best)));
    console.log(
      `\n${CONCURRENCY} concurrent clients, ${WARMUP_MS} ms warmup + ${DURATION_MS} ms measured; one etcd member, one orch replica in its own process,`,
    );
    console.log(
      'load generators in worker threads of this process. CPU per operation includes the warmup. ratio: to the raw puts (CREATE), to the trivial server (GET).',
    );
    if (loadBefore > 0.5) console.log(`warning: load average was ${loadBefore.toFixed(2)} at start; figures may be noisy`);
    console.log('');
    printTable(
      ['case', 'ops/s', 'p50 ms', 'p99 ms', 'ratio', 'server µs/op', 'etcd µs/op', 'client µs/op', 'cores server/etcd/client/other', 'etcd calls/op'],
      rows,
    );
    if (fanout) {
      console.log(
        `\nwatch fan-out across two replicas: ${fanout.watchers} watchers, ${FANOUT.writesPerSecond} writes/s through the first, ${fanout.timedWatchers} timed on the second:` +
          ` p50 ${round1(fanout.p50Ms)} ms, p99 ${round1(fanout.p99Ms)} ms, max ${round1(fanout.maxMs)} ms, delivered ${round2(fanout.deliveredRatio)},` +
          ` ${Math.round(fanout.ackedWritesPerSecond)} writes/s acknowledged, write p99 ${round1(fanout.writeP99Ms)} ms;` +
          ` first replica ${round2(fanout.serverCpuLoad)} cores, other processes ${round2(fanout.otherCpuLoad)} cores`,
      );
    }
    const met = {
      create: createRatio === undefined ? undefined : createRatio >= TARGETS.create && create?.errors === 0,
      get: getRatio === undefined ? undefined : getRatio >= TARGETS.get && get?.errors === 0,
      fanout: fanout === undefined ? undefined : fanout.p99Ms < TARGETS.fanoutP99Ms && fanout.deliveredRatio > 0.99,
    };
    const verdict = (ok: boolean | undefined) => (ok === undefined ? 'n/a' : ok ? 'ok' : 'MISSED');
    console.log('\ntargets:');
    console.log(`  CREATE >= ${TARGETS.create}x raw puts (${fmt(createRatio, 3)}): ${verdict(met.create)}`);
    console.log(`  GET    >= ${TARGETS.get}x trivial (${fmt(getRatio, 3)}): ${verdict(met.get)}`);
    console.log(`  fan-out p99 < ${TARGETS.fanoutP99Ms} ms (${fmt(fanout?.p99Ms, 1)}): ${verdict(met.fanout)}`);
    for (const [name, r] of [
      ['create', create],
      ['get', get],
      ['update', update],
    ] as const) {
      if (r?.firstError) console.log(`  note: ${name} had unexpected answers, first: ${r.firstError}`);
    }
    if (fanout?.firstWriteError) console.log(`  note: fan-out writes failed, first: ${fanout.firstWriteError}`);
    console.log(
      JSON.stringify({
        rawPuts: [rawBefore, rawAfter].map((r) => r && { rps: Math.round(r.rps), p99: round2(r.p99), cost: r.cost }),
        create: create && { rps: Math.round(create.rps), p99: round2(create.p99), errors: create.errors, cost: create.cost, ratio: createRatio },
        createOnSqlite: sqlite && { rps: Math.round(sqlite.rps), p99: round2(sqlite.p99), errors: sqlite.errors, cost: sqlite.cost },
        update: update && { rps: Math.round(update.rps), p99: round2(update.p99), errors: update.errors, cost: update.cost },
        trivial: trivial && { rps: Math.round(trivial.rps) },
        get: get && { rps: Math.round(get.rps), p99: round2(get.p99), errors: get.errors, cost: get.cost, ratio: getRatio },
        fanout,
        targetsMet: met,
        loadAverageAtStart: round2(loadBefore),
        ...(Object.keys(failures).length ? { failures } : {}),
      }),
    );
    process.exitCode = Object.keys(failures).length ? 1 : 0;
  } finally {
    for (const r of replicas.reverse()) await stopServer(r);
    await etcd.destroy();
  }
}

await main();
cleanup();
