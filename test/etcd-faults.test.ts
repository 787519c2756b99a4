/**
 * Faults under write load: two API servers on a three-member etcd. One member is killed
 * (SIGKILL): writes go on within seconds through the other two. One replica stops and starts
 * again: it catches up. No write that was acknowledged is lost.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ControlPlaneOptions } from '../src/cmd/control-plane.js';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { type EtcdProcess, startEtcdCluster } from './helpers/etcd.js';

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('faults with two replicas on a three-member etcd', () => {
  let members: EtcdProcess[];
  let a: TestCluster;
  let b: TestCluster | undefined;
  let dirB: string;
  let shared: ControlPlaneOptions;

  before(async () => {
    members = await startEtcdCluster(3);
    shared = { storageBackend: 'etcd3', etcd: { servers: members.map((m) => m.endpoint) }, controllers: false };
    a = await startTestCluster(shared);
    dirB = await mkdtemp(join(tmpdir(), 'orch-replica-b-'));
    b = await startTestCluster({ ...shared, dataDir: dirB, certDir: join(a.dataDir, 'pki') });
  });

  after(async () => {
    await b?.close();
    await a?.close();
    await members?.[0]?.destroy();
    await rm(dirB, { recursive: true, force: true });
  });

  it('a killed etcd member and a restarted replica lose no acknowledged write', async () => {
    const acked: { name: string; at: number }[] = [];
    let failures = 0;
    let running = true;
    const writer = async (w: number) => {
      for (let i = 0; running; i++) {
        const via = i % 2 === 0 || !b ? a : b;
        const name = `w${w}-${i}`;
        const r = await request(via, 'POST', '/api/v1/namespaces/default/configmaps', {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } },
        }).catch(() => undefined);
        if (r?.status === 201) acked.push({ name, at: Date.now() });
        else failures++;
        if (r?.status !== 201) await delay(50);
      }
    };
    const writers = Array.from({ length: 4 }, (_, w) => writer(w));
    try {
      await delay(1000);
      const killedAt = Date.now();
      await members[0].kill();
      // Writes go on through the other two members within seconds.
      const deadline = killedAt + 10_000;
      while (!acked.some((x) => x.at > killedAt + 500) && Date.now() < deadline) await delay(100);
      assert.ok(
        acked.some((x) => x.at > killedAt + 500),
        `no write acknowledged in 10 s after the kill (${failures} failed)`,
      );

      // One replica goes away and comes back on the same data dir: it catches up.
      const stopping = b;
      b = undefined;
      await stopping?.close();
      await delay(500);
      b = await startTestCluster({ ...shared, dataDir: dirB, certDir: join(a.dataDir, 'pki') });
      await delay(1000);
    } finally {
      running = false;
      await Promise.all(writers);
    }
    assert.ok(acked.length > 20, `${acked.length} writes acknowledged, ${failures} failed`);
    for (const via of [a, b as TestCluster]) {
      const list = await request(via, 'GET', '/api/v1/namespaces/default/configmaps');
      assert.equal(list.status, 200, list.text);
      const names = new Set(list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name));
      const lost = acked.filter((x) => !names.has(x.name)).map((x) => x.name);
      assert.deepEqual(lost, [], 'acknowledged writes missing');
    }
  });
});
