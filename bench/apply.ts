/**
 * Server-side apply benchmark (`npm run bench:apply`): apply of a Deployment with 50 containers
 * against PUT of the same object, measured in the same run against the same server (a child
 * process on SQLite). Every request changes every container's image, so each one is a real
 * write: the PUT records its Update ownership, the apply merges, prunes and checks conflicts.
 * Requests are sequential on one keep-alive connection and alternate apply and PUT, so drift in
 * the machine's load hits both alike. Target: apply costs at most 3x an update.
 * Prints a table, then as its last line one JSON object.
 */
import { mkdtemp } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boundedRun, spawnNode, stopChild, waitForLine } from './children.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const CONTAINERS = 50;
const WARMUP = Number(process.env.BENCH_APPLY_WARMUP ?? 30);
const ROUNDS = Number(process.env.BENCH_APPLY_ROUNDS ?? 200);
const TARGET_RATIO = 3;
const DEADLINE_MS = 170_000;

const { keepTmp } = boundedRun(DEADLINE_MS);

interface Server {
  url: string;
  agent: Agent;
}

function send(s: Server, method: string, path: string, contentType: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${s.url}${path}`,
      { method, agent: s.agent, headers: { 'content-type': contentType, accept: 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The Deployment both requests write: 50 containers with ports, env and resources. */
function deployment(name: string, tag: number): Record<string, unknown> {
  const containers = Array.from({ length: CONTAINERS }, (_, i) => ({
    name: `c${i}`,
    image: `registry.example/app-${i}:v${tag}`,
    ports: [{ containerPort: 8000 + i, protocol: 'TCP' }],
    env: [
      { name: 'INDEX', value: String(i) },
      { name: 'MODE', value: 'bench' },
    ],
    resources: { limits: { cpu: '100m', memory: '64Mi' }, requests: { cpu: '50m' } },
  }));
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers } },
    },
  };
}

const BASE = '/apis/apps/v1/namespaces/default/deployments';

async function timed(fn: () => Promise<{ status: number; text: string }>, expect: number): Promise<number> {
  const start = process.hrtime.bigint();
  const r = await fn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== expect) throw new Error(`expected ${expect}, got ${r.status}: ${r.text.slice(0, 300)}`);
  return ms;
}

const apply = (s: Server, tag: number) =>
  send(s, 'PATCH', `${BASE}/applied?fieldManager=bench`, 'application/apply-patch+yaml', JSON.stringify(deployment('applied', tag)));
const put = (s: Server, tag: number) => send(s, 'PUT', `${BASE}/updated?fieldManager=bench`, 'application/json', JSON.stringify(deployment('updated', tag)));

function stats(xs: number[]): { median: number; mean: number; p90: number } {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), mean: xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length), p90: at(0.9) };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'orch-bench-apply-'));
  keepTmp(work);
  const loadBefore = loadavg()[0] ?? 0;
  const child = spawnNode([join(HERE, 'orch-server.js'), join(work, 'data')], ROOT);
  let agent: Agent | undefined;
  try {
    const ready = JSON.parse((await waitForLine(child, (l) => l.startsWith('READY '), 20_000)).slice(6));
    agent = new Agent({ keepAlive: true, maxSockets: 1, ca: ready.caPem, cert: ready.certPem, key: ready.keyPem });
    const s: Server = { url: ready.url, agent };
    await timed(() => apply(s, 0), 201);
    await timed(() => send(s, 'POST', `${BASE}?fieldManager=bench`, 'application/json', JSON.stringify(deployment('updated', 0))), 201);
    for (let i = 1; i <= WARMUP; i++) {
      await timed(() => apply(s, i), 200);
      await timed(() => put(s, i), 200);
    }
    const applyMs: number[] = [];
    const putMs: number[] = [];
    for (let i = WARMUP + 1; i <= WARMUP + ROUNDS; i++) {
      applyMs.push(await timed(() => apply(s, i), 200));
      putMs.push(await timed(() => put(s, i), 200));
    }
    const a = stats(applyMs);
    const p = stats(putMs);
    const ratio = a.median / p.median;
    console.log(`\nDeployment with ${CONTAINERS} containers; ${ROUNDS} rounds after ${WARMUP} warm-up rounds, apply and PUT alternating`);
    console.log('on one keep-alive connection to orch (SQLite) in its own child process; every request changes every image.');
    if (loadBefore > 0.5) console.log(`warning: load average was ${loadBefore.toFixed(2)} at start; figures may be noisy`);
    const rows = [
      ['case', 'median ms', 'mean ms', 'p90 ms'],
      ['PUT (update, managedFields)', p.median.toFixed(2), p.mean.toFixed(2), p.p90.toFixed(2)],
      ['PATCH apply-patch+yaml', a.median.toFixed(2), a.mean.toFixed(2), a.p90.toFixed(2)],
    ];
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    console.log('');
    for (const [k, row] of rows.entries()) {
      console.log(row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
      if (k === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    }
    const ok = ratio <= TARGET_RATIO;
    console.log(`\napply / PUT (median): ${ratio.toFixed(2)}x, target <= ${TARGET_RATIO}x: ${ok ? 'ok' : 'MISSED'}`);
    console.log(
      JSON.stringify({
        bench: 'apply',
        containers: CONTAINERS,
        rounds: ROUNDS,
        putMs: { median: round2(p.median), mean: round2(p.mean), p90: round2(p.p90) },
        applyMs: { median: round2(a.median), mean: round2(a.mean), p90: round2(a.p90) },
        ratio: round2(ratio),
        target: TARGET_RATIO,
        ok,
      }),
    );
    if (!ok) process.exitCode = 1;
  } finally {
    agent?.destroy();
    await stopChild(child);
  }
}

await main();
