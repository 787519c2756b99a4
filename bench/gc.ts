/**
 * Garbage-collector benchmark: N ConfigMaps owned by one Secret (default 10,000, or
 * BENCH_GC_DEPENDENTS), the owner deleted in the background, timed until the last dependent is
 * gone; beside it, the same number of DELETEs sent straight from a client with the same
 * concurrency, so the collector's own overhead shows. The all-in-one runs in this process
 * (memory storage), as `bin/orch` does. Prints a table and, last, one JSON line.
 */
import https from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ControlPlane, startControlPlane } from '../src/cmd/control-plane.js';

const N = Number(process.env.BENCH_GC_DEPENDENTS ?? 10_000);
const LANES = 8;
const TARGET_MS = 10_000;
const NS = '/api/v1/namespaces/default';

function send(cp: ControlPlane, agent: https.Agent, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const url = new URL(cp.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs `n` calls of `fn` over LANES concurrent lanes. */
async function inLanes(n: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

async function createDependents(cp: ControlPlane, agent: https.Agent, prefix: string, owner: any): Promise<void> {
  const ref = owner && { apiVersion: 'v1', kind: 'Secret', name: owner.metadata.name, uid: owner.metadata.uid };
  await inLanes(N, async (i) => {
    const r = await send(cp, agent, 'POST', `${NS}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${prefix}-${i}`, labels: { bench: prefix }, ...(ref ? { ownerReferences: [ref] } : {}) },
    });
    if (r.status !== 201) throw new Error(`create: HTTP ${r.status}`);
  });
}

async function remaining(cp: ControlPlane, agent: https.Agent, prefix: string): Promise<number> {
  const r = await send(cp, agent, 'GET', `${NS}/configmaps?labelSelector=bench%3D${prefix}&limit=1`);
  return (r.json.items as unknown[]).length;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'orch-bench-gc-'));
  const cp = await startControlPlane({ securePort: 0, dataDir, storageBackend: 'memory', kubernetesCompat: true, scheduler: false });
  const agent = new https.Agent({ keepAlive: true, maxSockets: LANES, ca: cp.caPem, cert: cp.adminCertPem, key: cp.adminKeyPem });
  try {
    // Baseline: the client deletes the objects itself.
    await createDependents(cp, agent, 'direct', undefined);
    let t = Date.now();
    await inLanes(N, async (i) => {
      const r = await send(cp, agent, 'DELETE', `${NS}/configmaps/direct-${i}`);
      if (r.status !== 200) throw new Error(`delete: HTTP ${r.status}`);
    });
    const directMs = Date.now() - t;

    const owner = (await send(cp, agent, 'POST', `${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'owner' } })).json;
    t = Date.now();
    await createDependents(cp, agent, 'owned', owner);
    const createMs = Date.now() - t;
    t = Date.now();
    await send(cp, agent, 'DELETE', `${NS}/secrets/owner`);
    while ((await remaining(cp, agent, 'owned')) > 0) await new Promise((r) => setTimeout(r, 20));
    const gcMs = Date.now() - t;

    const rows = [
      ['create N owned ConfigMaps', createMs],
      ['N DELETEs from a client', directMs],
      ['garbage collection (background)', gcMs],
    ] as const;
    console.log(`dependents: ${N}, load average: ${loadavg()[0]?.toFixed(2)}`);
    console.log(`${'case'.padEnd(34)}${'ms'.padStart(8)}${'objects/s'.padStart(12)}`);
    for (const [name, ms] of rows) console.log(`${name.padEnd(34)}${String(ms).padStart(8)}${String(Math.round((N * 1000) / ms)).padStart(12)}`);
    console.log(`target: garbage collection under ${TARGET_MS} ms: ${gcMs < TARGET_MS ? 'met' : 'missed'}`);
    console.log(JSON.stringify({ dependents: N, createMs, directDeleteMs: directMs, gcMs, targetMs: TARGET_MS, met: gcMs < TARGET_MS, loadavg: loadavg()[0] }));
  } finally {
    agent.destroy();
    await cp.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
