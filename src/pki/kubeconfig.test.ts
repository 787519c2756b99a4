import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import { writeKubeconfig } from './kubeconfig.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-kubeconfig-'));
});
after(() => rm(dir, { recursive: true, force: true }));

test('writeKubeconfig embeds credentials and selects the context', async () => {
  const path = join(dir, 'nested', 'admin.kubeconfig');
  const caPem = '-----BEGIN CERTIFICATE-----\nQ0E=\n-----END CERTIFICATE-----\n';
  const clientCertPem = '-----BEGIN CERTIFICATE-----\nQ0VSVA==\n-----END CERTIFICATE-----\n';
  // Long enough that a YAML writer with a line width would fold it.
  const clientKeyPem = `-----BEGIN PRIVATE KEY-----\n${'A'.repeat(200)}\n-----END PRIVATE KEY-----\n`;
  await writeKubeconfig(path, {
    server: 'https://127.0.0.1:6443',
    caPem,
    clientCertPem,
    clientKeyPem,
    clusterName: 'orch',
    userName: 'admin',
    contextName: 'admin@orch',
  });
  assert.equal((await stat(path)).mode & 0o777, 0o600);
  const doc = parse(await readFile(path, 'utf8'));
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  assert.equal(doc.apiVersion, 'v1');
  assert.equal(doc.kind, 'Config');
  assert.equal(doc['current-context'], 'admin@orch');
  assert.deepEqual(doc.clusters, [{ name: 'orch', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': b64(caPem) } }]);
  assert.deepEqual(doc.users, [{ name: 'admin', user: { 'client-certificate-data': b64(clientCertPem), 'client-key-data': b64(clientKeyPem) } }]);
  assert.deepEqual(doc.contexts, [{ name: 'admin@orch', context: { cluster: 'orch', user: 'admin' } }]);
});
