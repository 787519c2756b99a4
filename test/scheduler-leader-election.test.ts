/**
 * Two scheduler components on one cluster, as two `orch-scheduler` processes would run: both
 * list and watch, only the leader binds; when the leader stops renewing, the other takes the
 * Lease and binds the next pods. Also the reflector across an API server restart: the
 * informer's store ends equal to the server's state.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SharedInformer } from '../src/client/informer.js';
import { RestClient } from '../src/client/rest-client.js';
import { ORCH_BRAND } from '../src/machinery/brand.js';
import { startScheduler, type RunningScheduler } from '../src/scheduler/process/start-scheduler.js';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function clientFor(cluster: TestCluster): RestClient {
  return new RestClient({ server: cluster.url, caPem: cluster.caPem, certPem: cluster.adminCertPem, keyPem: cluster.adminKeyPem });
}

const nodeBody = (name: string) => ({
  metadata: { name },
  status: {
    allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
    capacity: { cpu: '4', memory: '8Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True' }],
  },
});
const podBody = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

describe('two schedulers with leader election', () => {
  let cluster: TestCluster;
  const clients: RestClient[] = [];
  const schedulers: RunningScheduler[] = [];
  const lost: string[] = [];

  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory' });
    assert.equal((await request(cluster, 'POST', '/api/v1/nodes', { body: nodeBody('n1') })).status, 201);
    for (const host of ['host-a', 'host-b']) {
      const client = clientFor(cluster);
      clients.push(client);
      schedulers.push(
        startScheduler({
          client,
          brand: ORCH_BRAND,
          hostname: host,
          leaderElection: { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 200 },
          onLeadershipLost: () => lost.push(host),
        }),
      );
    }
  });

  after(async () => {
    await Promise.all(schedulers.map((s) => s.stop()));
    for (const c of clients) c.close();
    await cluster?.close();
  });

  async function boundTo(name: string): Promise<string> {
    let node = '';
    await until(`${name} bound`, async () => {
      node = (await request(cluster, 'GET', `/api/v1/namespaces/default/pods/${name}`)).json?.spec?.nodeName ?? '';
      return node !== '';
    });
    return node;
  }

  async function scheduledBy(name: string): Promise<string> {
    let instance = '';
    await until(`Scheduled event of ${name}`, async () => {
      const evs = (await request(cluster, 'GET', '/apis/events.orch.io/v1/namespaces/default/events')).json.items;
      instance = evs.find((e: any) => e.regarding?.name === name && e.reason === 'Scheduled')?.reportingInstance ?? '';
      return instance !== '';
    });
    return instance;
  }

  it('only the leader binds; the other takes over when the leader stops', async () => {
    await until('a leader', () => schedulers.some((s) => s.isLeader()));
    const leaderIndex = schedulers.findIndex((s) => s.isLeader());
    const leaderHost = leaderIndex === 0 ? 'host-a' : 'host-b';
    const otherHost = leaderIndex === 0 ? 'host-b' : 'host-a';
    assert.equal(schedulers.filter((s) => s.isLeader()).length, 1);
    const lease = (await request(cluster, 'GET', '/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-scheduler')).json;
    assert.equal(lease.spec.holderIdentity, schedulers[leaderIndex].identity);
    assert.match(lease.spec.holderIdentity, new RegExp(`^${leaderHost}_[0-9a-f-]{36}$`));
    await until('LeaderElection event', async () => {
      const evs = (await request(cluster, 'GET', '/api/v1/namespaces/orch-system/events')).json.items;
      return evs.some(
        (e: any) => e.reason === 'LeaderElection' && e.message === `${lease.spec.holderIdentity} became leader` && e.source?.component === 'default-scheduler',
      );
    });

    for (const p of ['p1', 'p2']) assert.equal((await request(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: podBody(p) })).status, 201);
    for (const p of ['p1', 'p2']) {
      assert.equal(await boundTo(p), 'n1');
      assert.equal(await scheduledBy(p), `default-scheduler-${leaderHost}`);
    }

    await schedulers[leaderIndex].stop();
    await until('takeover', () => schedulers[1 - leaderIndex].isLeader(), 5000);
    assert.equal((await request(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: podBody('p3') })).status, 201);
    assert.equal(await boundTo('p3'), 'n1');
    assert.equal(await scheduledBy('p3'), `default-scheduler-${otherHost}`);
    assert.deepEqual(lost, []);

    // Another holder takes the Lease over: the leader cannot renew within its deadline and gives up.
    const path = '/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-scheduler';
    // The leader renews meanwhile: a conflicting write is read and tried again.
    await until('Lease taken', async () => {
      const current = (await request(cluster, 'GET', path)).json;
      const taken = { ...current, spec: { ...current.spec, holderIdentity: 'intruder', leaseDurationSeconds: 3600 } };
      return (await request(cluster, 'PUT', path, { body: taken })).status === 200;
    });
    await until('leadership lost', () => lost.length > 0, 5000);
    assert.deepEqual(lost, [otherHost]);
    assert.equal(schedulers[1 - leaderIndex].isLeader(), false);
  });
});

describe('scheduler start-up checks', () => {
  it('refuses invalid leader election durations and configurations before starting anything', () => {
    const client = new RestClient({ server: 'https://127.0.0.1:1', caPem: '', certPem: '', keyPem: '' });
    assert.throws(
      () => startScheduler({ client, brand: ORCH_BRAND, leaderElection: { leaseDurationMs: 10_000, renewDeadlineMs: 10_000 } }),
      /^Error: invalid leader election configuration: leaseDuration must be greater than renewDeadline$/,
    );
    assert.throws(
      () => startScheduler({ client, brand: ORCH_BRAND, config: { profiles: [{ schedulerName: 'a' }, { schedulerName: 'a' }] } }),
      /invalid scheduler configuration/,
    );
    client.close();
  });
});

describe('informer across an API server restart', () => {
  it('ends with the store equal to the server state, changes made while it was down included', async () => {
    let cluster = await startTestCluster({});
    const port = cluster.port;
    const dataDir = cluster.dataDir;
    const client = clientFor(cluster);
    const informer = new SharedInformer<any>({ client, path: '/api/v1/namespaces/default/configmaps' });
    const post = (name: string) => request(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name }, data: { v: name } } });
    try {
      assert.equal((await post('before')).status, 201);
      informer.start();
      await informer.waitForSync();
      assert.equal((await post('live')).status, 201);
      await until('live seen', () => informer.store.get('live', 'default') !== undefined);
      await cluster.stop();
      cluster = await startTestCluster({ dataDir, securePort: port });
      assert.equal((await post('after-restart')).status, 201);
      assert.equal((await request(cluster, 'DELETE', '/api/v1/namespaces/default/configmaps/before')).status, 200);
      await until(
        'store equal to the server',
        async () => {
          const server = (await request(cluster, 'GET', '/api/v1/namespaces/default/configmaps')).json.items.map((c: any) => c.metadata.name).sort();
          const local = informer.store
            .list()
            .map((c) => c.metadata.name)
            .sort();
          return JSON.stringify(server) === JSON.stringify(local);
        },
        20_000,
      );
      assert.deepEqual(
        informer.store
          .list()
          .map((c) => c.metadata.name)
          .sort(),
        ['after-restart', 'live'],
      );
    } finally {
      await informer.stop();
      client.close();
      await cluster.close();
    }
  });
});
