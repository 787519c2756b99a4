/**
 * Real watch clients: `kubectl get configmaps -w` sees adds, updates and deletes, and
 * @kubernetes/client-node's informer (ListWatch) ends with exactly the server's state after
 * 1,000 random writes during which its connections are dropped and its watch falls further
 * behind than the kept history (a forced 410 and re-list), through a TCP proxy the test controls.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';
import { delay, keepAliveClient, type Client } from './helpers/watch-client.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

/** A TCP proxy in front of the server (TLS passes through) that can stall and cut connections. */
class ControlledProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<{ client: net.Socket; upstream?: net.Socket }>();
  private readonly held: (() => void)[] = [];
  private paused = false;
  connections = 0;
  dropped = 0;

  constructor(private readonly targetPort: number) {
    this.server = net.createServer((client) => this.accept(client));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  private accept(client: net.Socket): void {
    this.connections++;
    const pair: { client: net.Socket; upstream?: net.Socket } = { client };
    this.pairs.add(pair);
    client.on('error', () => {});
    client.pause();
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      pair.upstream?.destroy();
    };
    client.on('close', end);
    const connect = () => {
      if (client.destroyed) return;
      const upstream = net.connect(this.targetPort, '127.0.0.1');
      pair.upstream = upstream;
      upstream.on('error', () => {});
      upstream.on('close', end);
      this.forward(client, upstream);
      this.forward(upstream, client);
      if (!this.paused) client.resume();
    };
    if (this.paused) this.held.push(connect);
    else connect();
  }

  private forward(from: net.Socket, to: net.Socket): void {
    from.on('data', (d: Buffer) => {
      if (!to.write(d)) {
        from.pause();
        to.once('drain', () => {
          if (!this.paused) from.resume();
        });
      }
    });
  }

  /** Stops moving bytes both ways and holds new connections (a stalled network). */
  pause(): void {
    this.paused = true;
    for (const p of this.pairs) {
      p.client.pause();
      p.upstream?.pause();
    }
  }

  resume(): void {
    this.paused = false;
    for (const p of this.pairs) {
      p.client.resume();
      p.upstream?.resume();
    }
    for (const connect of this.held.splice(0)) connect();
  }

  /** Cuts every open connection. */
  dropAll(): void {
    for (const p of [...this.pairs]) {
      this.dropped++;
      p.client.destroy();
      p.upstream?.destroy();
    }
  }

  async close(): Promise<void> {
    this.resume();
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A small deterministic PRNG, so a failing run can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('kubectl get configmaps -w', () => {
  let cluster: TestCluster;
  let api: Client;
  let cacheDir = '';
  before(async () => {
    cluster = await startTestCluster();
    api = keepAliveClient(cluster);
    cacheDir = await mkdtemp(join(tmpdir(), 'kubectl-cache-'));
    await api.ok('POST', '/api/v1/namespaces', { metadata: { name: 'kw' } });
    await api.ok('POST', '/api/v1/namespaces/kw/configmaps', { metadata: { name: 'before' }, data: { v: '1' } });
  });
  after(async () => {
    api?.close();
    await cluster?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  function runKubectl(args: string[]) {
    const child = spawn(KUBECTL, ['--kubeconfig', cluster.kubeconfigPath, '--cache-dir', cacheDir, ...args]);
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (d: Buffer) => {
      out.stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      out.stderr += d.toString('utf8');
    });
    const waitFor = async (cond: () => boolean, what: string) => {
      const deadline = Date.now() + 15_000;
      while (!cond()) {
        assert.ok(Date.now() < deadline, `kubectl never printed ${what}: ${out.stdout}\n${out.stderr}`);
        assert.equal(child.exitCode, null, `kubectl exited: ${out.stderr}`);
        await delay(25);
      }
    };
    return { child, out, waitFor };
  }

  it('sees the existing object, then adds, updates and deletes as they happen', async () => {
    const table = runKubectl(['get', 'configmaps', '-n', 'kw', '-w', '--output-watch-events']);
    const json = runKubectl(['get', 'configmaps', '-n', 'kw', '-w', '--output-watch-events', '-o', 'json']);
    try {
      await table.waitFor(() => /^ADDED\s+before\s/m.test(table.out.stdout), 'the initial ADDED');
      await json.waitFor(() => json.out.stdout.includes('"before"'), 'the initial ADDED');
      await api.ok('POST', '/api/v1/namespaces/kw/configmaps', { metadata: { name: 'live' }, data: { v: '1' } });
      await api.ok('PUT', '/api/v1/namespaces/kw/configmaps/live', { metadata: { name: 'live' }, data: { v: '2' } });
      await api.ok('PUT', '/api/v1/namespaces/kw/configmaps/before', { metadata: { name: 'before' }, data: { v: '2' } });
      await api.ok('DELETE', '/api/v1/namespaces/kw/configmaps/live');
      const rows = () =>
        table.out.stdout
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.split(/\s+/).slice(0, 2).join(' '));
      await table.waitFor(() => rows().length >= 5, 'five events');
      assert.deepEqual(rows(), ['ADDED before', 'ADDED live', 'MODIFIED live', 'MODIFIED before', 'DELETED live']);

      const events = () =>
        json.out.stdout
          .split(/\n(?=\{)/)
          .filter((s) => s.trim())
          .map((s) => JSON.parse(s) as { type: string; object: { metadata: { name: string }; data: Record<string, string> } });
      await json.waitFor(() => json.out.stdout.includes('"DELETED"'), 'the DELETED event');
      assert.deepEqual(
        events().map((e) => `${e.type} ${e.object.metadata.name} ${e.object.data.v}`),
        ['ADDED before 1', 'ADDED live 1', 'MODIFIED live 2', 'MODIFIED before 2', 'DELETED live 2'],
      );
    } finally {
      table.child.kill();
      json.child.kill();
    }
  });
});

describe('@kubernetes/client-node informer (ListWatch)', () => {
  let cluster: TestCluster;
  let proxy: ControlledProxy;
  let api: Client;
  const NS = 'inf';
  const PATH = `/api/v1/namespaces/${NS}/configmaps`;

  before(async () => {
    // The watch cache keeps 300 ms of events: a watch that falls 300 ms behind gets 410.
    cluster = await startTestCluster({ compactionIntervalMs: 300 });
    proxy = new ControlledProxy(cluster.port);
    api = keepAliveClient(cluster, 4);
    await api.ok('POST', '/api/v1/namespaces', { metadata: { name: NS } });
  });
  after(async () => {
    api?.close();
    await proxy?.close();
    await cluster?.close();
  });

  it("ends with the server's state after 1,000 random writes, dropped connections and a forced 410", async () => {
    const proxyPort = await proxy.listen();
    const kc = new k8s.KubeConfig();
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    kc.loadFromClusterAndUser(
      { name: 'via-proxy', server: `https://127.0.0.1:${proxyPort}`, caData: b64(cluster.caPem), skipTLSVerify: false },
      { name: 'admin', certData: b64(cluster.adminCertPem), keyData: b64(cluster.adminKeyPem) },
    );
    const core = kc.makeApiClient(k8s.CoreV1Api);
    let lists = 0;
    let expired = 0;
    class CountingWatch extends k8s.Watch {
      override watch(
        path: string,
        query: Record<string, string | number | boolean | undefined>,
        cb: (t: string, o: any, w?: any) => void,
        done: (e: any) => void,
      ) {
        return super.watch(
          path,
          query,
          (type, obj, raw) => {
            if (type === 'ERROR' && obj?.code === 410) expired++;
            cb(type, obj, raw);
          },
          done,
        );
      }
    }
    const informer = new k8s.ListWatch<k8s.V1ConfigMap>(
      PATH,
      new CountingWatch(kc),
      async () => {
        lists++;
        return core.listNamespacedConfigMap({ namespace: NS });
      },
      false,
    );
    // As client-node's examples do: after an error the informer stops; start it again.
    let errors = 0;
    let restarting = false;
    let finished = false;
    informer.on('error', () => {
      errors++;
      if (restarting || finished) return;
      restarting = true;
      setTimeout(() => {
        restarting = false;
        if (!finished) void informer.start().catch(() => {});
      }, 50);
    });
    try {
      await informer.start();

      // The writes: 4 writers over disjoint names, each knowing which of its names exist.
      const random = prng(20240601);
      const NAMES = 60;
      const exists = new Set<string>();
      let done = 0;
      const writeBatch = async (count: number) => {
        const target = done + count;
        await Promise.all(
          Array.from({ length: 4 }, async (_, w) => {
            while (done < target) {
              done++;
              const name = `o${w + 4 * Math.floor(random() * (NAMES / 4))}`;
              const data = { v: String(Math.floor(random() * 1e9)) };
              if (!exists.has(name)) {
                await api.ok('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name, labels: { w: String(w) } }, data });
                exists.add(name);
              } else if (random() < 0.7) {
                await api.ok('PUT', `/api/v1/namespaces/${NS}/configmaps/${name}`, { metadata: { name, labels: { w: String(w) } }, data });
              } else {
                await api.ok('DELETE', `/api/v1/namespaces/${NS}/configmaps/${name}`);
                exists.delete(name);
              }
            }
          }),
        );
      };

      await writeBatch(250);
      // Cut the connections: the informer resumes its watch from its last resourceVersion.
      proxy.dropAll();
      await writeBatch(250);
      // Stall the informer's network while writes go on for longer than the kept history, then
      // cut it: its resume is older than what the server keeps, so it gets 410 and lists again.
      proxy.pause();
      await writeBatch(200);
      await delay(700);
      await writeBatch(50);
      proxy.dropAll();
      proxy.resume();
      await writeBatch(200);
      proxy.dropAll();
      await writeBatch(50);
      assert.equal(done, 1000);

      const serverState = async () => {
        const l = await api.ok('GET', PATH);
        return new Map<string, string>(l.items.map((i: any) => [i.metadata.name, `${i.metadata.resourceVersion} ${i.data?.v}`]));
      };
      const informerState = () => new Map(informer.list(NS).map((i) => [i.metadata?.name as string, `${i.metadata?.resourceVersion} ${i.data?.v}`]));
      const want = await serverState();
      const deadline = Date.now() + 15_000;
      for (;;) {
        const got = informerState();
        if (got.size === want.size && [...want].every(([k, v]) => got.get(k) === v)) break;
        if (Date.now() > deadline) {
          assert.deepEqual(Object.fromEntries([...got].sort()), Object.fromEntries([...want].sort()), 'the informer cache never matched the server');
        }
        await delay(50);
      }
      console.log(
        `informer: ${want.size} objects match; ${lists} lists, ${expired} watch 410s, ${errors} errors, ${proxy.connections} connections, ${proxy.dropped} dropped`,
      );
      assert.equal(want.size, exists.size);
      assert.ok(proxy.dropped >= 3, `connections dropped: ${proxy.dropped}`);
      assert.ok(expired >= 1, `the informer's watch was never answered 410 (lists ${lists}, errors ${errors})`);
      assert.ok(lists >= 2, `the informer listed ${lists} times`);
    } finally {
      finished = true;
      await informer.stop();
    }
  });
});
