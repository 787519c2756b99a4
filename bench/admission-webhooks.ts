/**
 * Admission-webhook benchmark (`node dist/bench/admission-webhooks.js`): a ConfigMap create
 * through one mutating and one validating webhook (HTTPS on loopback, the mutating one
 * answering a JSONPatch) against the same create without them, in the same run against the
 * same in-memory server. The hooks select their namespace by label, so the two kinds of
 * create differ only in the webhook calls. Requests are sequential on one keep-alive
 * connection and alternate, so drift in the machine's load hits both alike. The webhook
 * server runs on a worker thread (admission-webhooks-server.ts), its own event loop.
 * Target: the hooked create runs at least 0.5x as fast. Last line: one JSON object.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { startControlPlane } from '../src/cmd/control-plane.js';
import { ensureCertificates } from '../src/pki/certificates.js';

const WARMUP = Number(process.env.BENCH_WEBHOOK_WARMUP ?? 50);
const ROUNDS = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 300);
const TARGET_RATIO = 0.5;

const dir = await mkdtemp(join(tmpdir(), 'orch-bench-webhooks-'));
const pki = await ensureCertificates(join(dir, 'pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
// The webhooks run on a thread of their own, as a webhook server is a process of its own.
const hooks = new Worker(new URL('./admission-webhooks-server.js', import.meta.url), { workerData: { cert: pki.serverCertPem, key: pki.serverKeyPem } });
const hookPort = await new Promise<number>((resolve, reject) => {
  hooks.once('message', (m: { port: number }) => resolve(m.port));
  hooks.once('error', reject);
});
const hookBase = `https://127.0.0.1:${hookPort}`;

const cp = await startControlPlane({ securePort: 0, scheduler: false, storageBackend: 'memory', dataDir: join(dir, 'data') });
const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: cp.caPem, cert: cp.adminCertPem, key: cp.adminKeyPem });

function send(method: string, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const text = body === undefined ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${cp.url}${path}`,
      { method, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

async function must(method: string, path: string, body: unknown): Promise<void> {
  const r = await send(method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
}

const caBundle = Buffer.from(pki.caCertPem).toString('base64');
const hook = (name: string, path: string) => ({
  name,
  clientConfig: { url: `${hookBase}${path}`, caBundle },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  namespaceSelector: { matchLabels: { hooked: 'yes' } },
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
});
const group = '/apis/admissionregistration.orch.io/v1';
await must('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hooked', labels: { hooked: 'yes' } } });
await must('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'plain' } });
await must('POST', `${group}/mutatingwebhookconfigurations`, { metadata: { name: 'bench' }, webhooks: [hook('mutate.bench.orch.io', '/mutate')] });
await must('POST', `${group}/validatingwebhookconfigurations`, { metadata: { name: 'bench' }, webhooks: [hook('validate.bench.orch.io', '/validate')] });

const configMap = (i: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { key: `value-${i}` } });
const times = { hooked: [] as number[], plain: [] as number[] };
for (let i = 0; i < WARMUP + ROUNDS; i++) {
  for (const ns of ['hooked', 'plain'] as const) {
    const start = performance.now();
    await must('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(i));
    if (i >= WARMUP) times[ns].push(performance.now() - start);
  }
}
const check = await send('GET', '/api/v1/namespaces/hooked/configmaps/cm-0', undefined);
if (!check.text.includes('"hooked":"yes"')) throw new Error('the mutating webhook was not applied');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (xs: number[]) => (xs.length * 1000) / xs.reduce((a, b) => a + b, 0);
const ratio = rate(times.hooked) / rate(times.plain);
console.log(`create without webhooks: ${rate(times.plain).toFixed(0)}/s (median ${median(times.plain).toFixed(2)} ms)`);
console.log(`create through 1 mutating + 1 validating webhook: ${rate(times.hooked).toFixed(0)}/s (median ${median(times.hooked).toFixed(2)} ms)`);
console.log(JSON.stringify({ ratio: Number(ratio.toFixed(3)), target: TARGET_RATIO, pass: ratio >= TARGET_RATIO }));

agent.destroy();
await cp.stop();
await hooks.terminate();
await rm(dir, { recursive: true, force: true });
