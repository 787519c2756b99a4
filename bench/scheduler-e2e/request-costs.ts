/**
 * The API server's CPU per request kind of a scheduled pod in `bench:scheduler-e2e`, each kind
 * measured alone (no scheduler): the pod's create, its `POST pods/<name>/binding`, the
 * scheduler's `Scheduled` event (events.<group>/v1), and what the watches of pods add to a pod's
 * create and binding (the scheduler's informer, field selector on status.phase, and the
 * benchmark's watch of bound pods), against a 1 KiB ConfigMap create measured first as the
 * baseline. CPU from /proc, in microseconds per request; the last line is one JSON object.
 * Usage: node dist/bench/scheduler-e2e/request-costs.js [--count=<n>] [--concurrency=<n>] [--storage=sqlite|memory]
 *   [--only=create,binding,event,watched] [--cpu-prof=<dir>] (a V8 profile of the API server, of
 *   the phases picked by --only after a warm-up of every kind).
 */
import { mkdtempSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ORCH_BRAND } from '../../src/machinery/brand.js';
import { boundedRun, spawnNode, stopChild, waitForLine } from '../children.js';
import { type ApiTarget, BoundPods, type Create, createAll } from './api.js';
import { APISERVER_FLAGS } from './cluster.js';
import { processCpuSeconds } from './cpu.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const APISERVER = fileURLToPath(new URL('./apiserver.js', import.meta.url));

function arg(name: string, fallback: string): string {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a === undefined ? fallback : a.slice(name.length + 3);
}

/** pod-default.yaml of scheduler_perf, as the benchmark creates it. */
function pod(name: string): Create {
  return {
    path: '/api/v1/namespaces/default/pods',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: {
        containers: [
          {
            name: 'pause',
            image: 'registry.k8s.io/pause:3.5',
            ports: [{ containerPort: 80 }],
            resources: { limits: { cpu: '100m', memory: '500Mi' }, requests: { cpu: '100m', memory: '500Mi' } },
          },
        ],
      },
    },
  };
}

/** The scheduler's binding of a pod (DefaultBinder). */
/** The baseline: a 1 KiB ConfigMap, the request path's cheapest write (no defaults, no admission of its own). */
function configMap(name: string): Create {
  return {
    path: '/api/v1/namespaces/default/configmaps',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { payload: 'x'.repeat(1024) } },
  };
}

function binding(name: string, i: number): Create {
  return {
    path: `/api/v1/namespaces/default/pods/${name}/binding`,
    body: { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace: 'default' }, target: { kind: 'Node', name: `node-${i % 5000}` } },
  };
}

/** The scheduler's `Scheduled` event, as client/event-recorder.ts writes it. */
function scheduledEvent(name: string, i: number): Create {
  const group = ORCH_BRAND.group('events', true);
  const now = new Date(Date.UTC(2026, 0, 1) + i);
  return {
    path: `/apis/${group}/v1/namespaces/default/events`,
    body: {
      apiVersion: `${group}/v1`,
      kind: 'Event',
      metadata: { name: `${name}.${(BigInt(now.getTime()) * 1_000_000n).toString(16)}`, namespace: 'default' },
      eventTime: now.toISOString().replace('Z', '000Z'),
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-host',
      action: 'Binding',
      reason: 'Scheduled',
      regarding: { kind: 'Pod', namespace: 'default', name, uid: '00000000-0000-0000-0000-000000000000', apiVersion: 'v1', resourceVersion: '1' },
      note: `Successfully assigned default/${name} to node-${i % 5000}`,
      type: 'Normal',
    },
  };
}

/** A watch whose events are read and dropped (the server's cost does not depend on the reader). */
function drainingWatch(target: ApiTarget, path: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, target.url), { ca: target.ca, cert: target.cert, key: target.key, headers: { accept: 'application/json' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch ${path} -> ${res.statusCode}`));
        return;
      }
      res.resume();
      resolve(() => res.destroy());
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const count = Number(arg('count', '3000'));
  const concurrency = Number(arg('concurrency', '16'));
  const storage = arg('storage', 'sqlite');
  const only = new Set(arg('only', 'create,binding,event,watched').split(','));
  const profDir = process.argv.find((x) => x.startsWith('--cpu-prof='))?.slice('--cpu-prof='.length);
  const profile = profDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=apiserver-${Date.now()}.cpuprofile`];
  const { keepTmp } = boundedRun(30 * 60 * 1000);
  const dataDir = keepTmp(mkdtempSync(join(tmpdir(), 'orch-request-costs-')));
  const apiserver = spawnNode([...APISERVER_FLAGS, ...profile, APISERVER, dataDir, storage], ROOT);
  const ready = await waitForLine(apiserver, (l) => l.startsWith('READY '), 60_000);
  const info = JSON.parse(ready.slice('READY '.length)) as { url: string; caPem: string; certPem: string; keyPem: string };
  const u = new URL(info.url);
  const target: ApiTarget = { url: info.url, host: u.hostname, port: Number(u.port), ca: info.caPem, cert: info.certPem, key: info.keyPem };
  const pid = apiserver.proc.pid ?? 0;

  const rows: [string, number][] = [];
  /** CPU microseconds of the API server per object of `objects`, created at `concurrency`. */
  const measure = async (what: string, objects: Create[]): Promise<number> => {
    // Settle first: the previous phase's commits and watch deliveries are not this phase's.
    await new Promise((r) => setTimeout(r, 300));
    const before = processCpuSeconds(pid);
    await createAll(target, objects, concurrency);
    await new Promise((r) => setTimeout(r, 300));
    const us = ((processCpuSeconds(pid) - before) * 1e6) / objects.length;
    rows.push([what, us]);
    return us;
  };

  try {
    // Warm up (JIT, caches) on objects of every kind.
    const warm = Array.from({ length: Math.min(1000, count) }, (_, i) => `warm-${i}`);
    await createAll(target, warm.map(pod), concurrency);
    await createAll(
      target,
      warm.map((n, i) => binding(n, i)),
      concurrency,
    );
    await createAll(
      target,
      warm.map((n, i) => scheduledEvent(n, i)),
      concurrency,
    );

    await createAll(
      target,
      warm.map((n) => configMap(n)),
      concurrency,
    );
    const alone = Array.from({ length: count }, (_, i) => `alone-${i}`);
    await measure(
      'baseline: ConfigMap create (1 KiB), no watchers',
      alone.map((n) => configMap(n)),
    );
    // Bindings and events need their pods.
    if (only.has('create')) await measure('pod create, no watchers', alone.map(pod));
    else if (only.has('binding') || only.has('event')) await createAll(target, alone.map(pod), concurrency);
    if (only.has('binding')) {
      await measure(
        'binding, no watchers',
        alone.map((n, i) => binding(n, i)),
      );
    }
    if (only.has('event')) {
      await measure(
        'Scheduled event create',
        alone.map((n, i) => scheduledEvent(n, i)),
      );
    }
    if (only.has('watched')) {
      const schedulerWatch = await drainingWatch(
        target,
        `/api/v1/pods?watch=true&fieldSelector=${encodeURIComponent('status.phase!=Succeeded,status.phase!=Failed')}`,
      );
      const boundWatch = await BoundPods.open(target);
      try {
        const watched = Array.from({ length: count }, (_, i) => `watched-${i}`);
        await measure('pod create, 2 watchers', watched.map(pod));
        await measure(
          'binding, 2 watchers',
          watched.map((n, i) => binding(n, i)),
        );
      } finally {
        schedulerWatch();
        boundWatch.close();
      }
    }
  } finally {
    await stopChild(apiserver, 10_000);
  }
  const width = Math.max(...rows.map(([w]) => w.length));
  console.log(`API server CPU per request (${count} each, ${concurrency} connections, store ${storage}):`);
  for (const [what, us] of rows) console.log(`${what.padEnd(width)}  ${us.toFixed(0).padStart(5)} us`);
  const get = (w: string) => rows.find(([x]) => x === w)?.[1] ?? 0;
  const perPod = get('pod create, 2 watchers') + get('binding, 2 watchers') + get('Scheduled event create');
  const complete = rows.length === 6;
  if (complete) console.log(`${'per scheduled pod (create + binding with watchers + event)'.padEnd(width)}  ${perPod.toFixed(0).padStart(5)} us`);
  console.log(
    JSON.stringify({
      count,
      concurrency,
      storage,
      cpuUsPerRequest: Object.fromEntries(rows.map(([w, us]) => [w, Math.round(us)])),
      ...(complete ? { cpuUsPerScheduledPod: Math.round(perPod) } : {}),
    }),
  );
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
