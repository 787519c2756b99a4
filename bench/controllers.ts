/**
 * Controller benchmark (`npm run bench:controllers`), the all-in-one in this process (memory
 * storage), as `bin/orch` runs it:
 * - garbage collection: N ConfigMaps owned by one Secret (default 10,000, or BENCH_OBJECTS),
 *   the owner deleted in the background, timed until the last dependent is gone;
 * - namespace deletion: a namespace holding N objects of five kinds, timed from its DELETE until
 *   it is gone.
 * Baselines in the same run: the same objects deleted by a client, one DELETE each with the
 * same concurrency, and (for the namespace) one DELETE collection per kind. Prints a table and,
 * last, one JSON line.
 */
import https from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ControlPlane, startControlPlane } from '../src/cmd/control-plane.js';

const N = Number(process.env.BENCH_OBJECTS ?? 10_000);
const LANES = 8;
const TARGET_MS = 10_000;
const NS = '/api/v1/namespaces/default';

/** The namespace case's kinds: collection path under the namespace, and a body maker. */
const KINDS: readonly { collection: string; body: (name: string) => Record<string, unknown> }[] = [
  { collection: '/api/v1/namespaces/%/configmaps', body: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }) },
  {
    collection: '/api/v1/namespaces/%/secrets',
    body: (name) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, type: 'Opaque', data: { k: 'dg==' } }),
  },
  {
    collection: '/api/v1/namespaces/%/endpoints',
    body: (name) => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80 }] }] }),
  },
  {
    collection: '/api/v1/namespaces/%/podtemplates',
    body: (name) => ({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name }, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } }),
  },
  {
    collection: '/apis/coordination.k8s.io/v1/namespaces/%/leases',
    body: (name) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: 'bench' } }),
  },
];

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

async function expect(cp: ControlPlane, agent: https.Agent, method: string, path: string, status: number, body?: unknown): Promise<any> {
  const r = await send(cp, agent, method, path, body);
  if (r.status !== status) throw new Error(`${method} ${path}: HTTP ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

/** The i-th object of the namespace case: kinds in turn. */
const mixed = (ns: string, i: number) => {
  const kind = KINDS[i % KINDS.length];
  return { path: kind.collection.replace('%', ns), body: kind.body(`o-${i}`), name: `o-${i}` };
};

async function fillNamespace(cp: ControlPlane, agent: https.Agent, ns: string): Promise<void> {
  await expect(cp, agent, 'POST', '/api/v1/namespaces', 201, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await inLanes(N, async (i) => {
    const o = mixed(ns, i);
    await expect(cp, agent, 'POST', o.path, 201, o.body);
  });
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
  const dataDir = await mkdtemp(join(tmpdir(), 'orch-bench-controllers-'));
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

    // Namespace: baselines first (a client deleting each object, then one collection per kind).
    await fillNamespace(cp, agent, 'direct-ns');
    t = Date.now();
    await inLanes(N, async (i) => {
      const o = mixed('direct-ns', i);
      await expect(cp, agent, 'DELETE', `${o.path}/${o.name}`, 200);
    });
    const nsDirectMs = Date.now() - t;
    await fillNamespace(cp, agent, 'collection-ns');
    t = Date.now();
    for (const kind of KINDS) await expect(cp, agent, 'DELETE', kind.collection.replace('%', 'collection-ns'), 200);
    const nsCollectionMs = Date.now() - t;
    t = Date.now();
    await fillNamespace(cp, agent, 'doomed-ns');
    const nsCreateMs = Date.now() - t;
    t = Date.now();
    await expect(cp, agent, 'DELETE', '/api/v1/namespaces/doomed-ns', 200);
    while ((await send(cp, agent, 'GET', '/api/v1/namespaces/doomed-ns')).status !== 404) await new Promise((r) => setTimeout(r, 20));
    const nsMs = Date.now() - t;

    const rows = [
      ['create N owned ConfigMaps', createMs],
      ['N DELETEs from a client', directMs],
      ['garbage collection (background)', gcMs],
      ['create N mixed objects', nsCreateMs],
      ['N mixed DELETEs from a client', nsDirectMs],
      ['5 DELETE collections from a client', nsCollectionMs],
      ['namespace deletion', nsMs],
    ] as const;
    console.log(`objects: ${N}, load average: ${loadavg()[0]?.toFixed(2)}`);
    console.log(`${'case'.padEnd(38)}${'ms'.padStart(8)}${'objects/s'.padStart(12)}`);
    for (const [name, ms] of rows) console.log(`${name.padEnd(38)}${String(ms).padStart(8)}${String(Math.round((N * 1000) / ms)).padStart(12)}`);
    console.log(`target: garbage collection under ${TARGET_MS} ms: ${gcMs < TARGET_MS ? 'met' : 'missed'}`);
    console.log(`target: namespace deletion under ${TARGET_MS} ms: ${nsMs < TARGET_MS ? 'met' : 'missed'}`);
    console.log(
      JSON.stringify({
        objects: N,
        gc: { createMs, directDeleteMs: directMs, gcMs, met: gcMs < TARGET_MS },
        namespace: { createMs: nsCreateMs, directDeleteMs: nsDirectMs, collectionDeleteMs: nsCollectionMs, namespaceDeletionMs: nsMs, met: nsMs < TARGET_MS },
        targetMs: TARGET_MS,
        loadavg: loadavg()[0],
      }),
    );
  } finally {
    agent.destroy();
    await cp.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
