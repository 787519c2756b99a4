import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureCertificates } from '../../pki/certificates.js';
import { AuditCounts } from './backend.js';
import type { AuditEvent } from './event.js';
import { WEBHOOK_PLUGIN, webhookBackend } from './webhook-backend.js';
import { KUBERNETES_BRAND } from '../../machinery/brand.js';
import { buildAuditing } from './options.js';

let dir: string;
let server: https.Server;
let caPem: string;
let url: string;
/** The EventLists received, in order. */
const lists: { kind: string; apiVersion: string; items: { auditID: string }[] }[] = [];
/** While set, the webhook holds its answers (a slow webhook). */
let hold: Promise<void> | undefined;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-audit-webhook-'));
  const pki = await ensureCertificates(join(dir, 'pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
  caPem = pki.caCertPem;
  server = https.createServer({ cert: pki.serverCertPem, key: pki.serverKeyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      lists.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      await hold;
      // Audit webhooks answer with no body: any 2xx is success.
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/audit`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

const ev = (id: string) => ({ auditID: id }) as AuditEvent;
const json = (id: string) => () => `{"auditID":"${id}"}`;

async function until(probe: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) assert.fail('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('audit webhook backend', () => {
  test('full batches go at once as EventLists; the rest after max-wait', async () => {
    lists.length = 0;
    const backend = webhookBackend({
      connection: { server: url, caPem, insecureSkipTlsVerify: false },
      apiVersion: 'audit.orch.io/v1',
      batch: { bufferSize: 100, maxBatchSize: 3, maxBatchWaitMs: 200, throttle: { qps: 100, burst: 10 } },
      initialBackoffMs: 10,
    });
    const started = Date.now();
    for (let i = 0; i < 7; i++) backend.process(ev(`e${i}`), json(`e${i}`));
    await until(() => lists.length === 2);
    assert.ok(Date.now() - started < 200, 'full batches do not wait');
    await until(() => lists.length === 3);
    assert.ok(Date.now() - started >= 190, 'a partial batch waits for max-wait');
    assert.deepEqual(
      lists.map((l) => l.items.map((i) => i.auditID)),
      [['e0', 'e1', 'e2'], ['e3', 'e4', 'e5'], ['e6']],
    );
    assert.equal(lists[0].kind, 'EventList');
    assert.equal(lists[0].apiVersion, 'audit.orch.io/v1');
    await backend.shutdown();
  });

  test('a slow webhook: the bounded buffer drops and counts, never blocks; shutdown sends what is left', async () => {
    lists.length = 0;
    let release = () => {};
    hold = new Promise((r) => {
      release = r;
    });
    const metrics = new AuditCounts();
    const backend = webhookBackend({
      connection: { server: url, caPem, insecureSkipTlsVerify: false },
      apiVersion: 'audit.orch.io/v1',
      batch: { bufferSize: 4, maxBatchSize: 2, maxBatchWaitMs: 60_000 },
      initialBackoffMs: 10,
      metrics,
    });
    const started = performance.now();
    for (let i = 0; i < 10; i++) backend.process(ev(`s${i}`), json(`s${i}`));
    assert.ok(performance.now() - started < 50, 'process() returns at once');
    // Two batches of two are in flight, held by the webhook: the other six events were dropped.
    assert.equal(metrics.errors.get(WEBHOOK_PLUGIN), 6);
    await until(() => lists.length === 2);
    release();
    hold = undefined;
    // Once the webhook answers, the sent events leave the buffer's count.
    await new Promise((r) => setTimeout(r, 200));
    backend.process(ev('late'), json('late'));
    await backend.shutdown();
    assert.deepEqual(
      lists.flatMap((l) => l.items.map((i) => i.auditID)),
      ['s0', 's1', 's2', 's3', 'late'],
    );
  });

  test('--audit-webhook-config-file: a kubeconfig names the server; the events are audit.k8s.io/v1 in compat mode', async () => {
    lists.length = 0;
    const kubeconfig = join(dir, 'audit-webhook.kubeconfig');
    const b64 = Buffer.from(caPem).toString('base64');
    await writeFile(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: audit\n  cluster:\n    server: ${url}\n    certificate-authority-data: ${b64}\nusers:\n- name: apiserver\n  user: {}\ncontexts:\n- name: c\n  context: {cluster: audit, user: apiserver}\ncurrent-context: c\n`,
    );
    const policyFile = join(dir, 'policy.yaml');
    await writeFile(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Metadata}]\n');
    const webhook = { configFile: kubeconfig, mode: 'blocking', initialBackoffMs: 10, batch: { bufferSize: 10, maxBatchSize: 400, maxBatchWaitMs: 30_000 } };
    const auditing = buildAuditing({ policyFile, webhook }, KUBERNETES_BRAND);
    assert.ok(auditing);
    // Blocking mode: each event goes alone, at once.
    auditing.backend.process(ev('one'), json('one'));
    await until(() => lists.length === 1);
    assert.equal(lists[0].apiVersion, 'audit.k8s.io/v1');
    assert.deepEqual(lists[0].items, [{ auditID: 'one' }]);
    await auditing.backend.shutdown();
    // Without a policy nothing is recorded, but the log file is made (upstream's ensureLogFile).
    const logPath = join(dir, 'logs', 'audit.log');
    const log = { path: logPath, maxAgeDays: 0, maxBackups: 0, maxSizeMB: 0, format: 'json', mode: 'blocking', bufferSize: 1 };
    assert.equal(buildAuditing({ log, webhook }, KUBERNETES_BRAND), undefined);
    assert.ok(existsSync(logPath));
  });
});
