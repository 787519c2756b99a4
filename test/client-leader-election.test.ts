/**
 * client/'s leader election against a real API server: of two candidates for one Lease only
 * one leads; when the leader stops renewing (a crash) the other takes over once the lease has
 * expired by its own clock; a release hands over at once; the Lease and the LeaderElection
 * events show it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LeaderElector, validateLeaderElection } from '../src/client/leader-election.js';
import { LeaseLock } from '../src/client/lease-lock.js';
import { newResourceLock, type ResourceLockType } from '../src/client/resource-lock.js';
import { ORCH_BRAND } from '../src/machinery/brand.js';
import { RestClient } from '../src/client/rest-client.js';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;
let client: RestClient;
const LEASES = '/apis/coordination.orch.io/v1/namespaces/orch-system/leases';

before(async () => {
  cluster = await startTestCluster({ storageBackend: 'memory' });
  client = new RestClient({ server: cluster.url, caPem: cluster.caPem, certPem: cluster.adminCertPem, keyPem: cluster.adminKeyPem });
});

after(async () => {
  client?.close();
  await cluster?.close();
});

async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Candidate {
  elector: LeaderElector;
  log: string[];
}

function candidate(name: string, identity: string, releaseOnCancel = false, type?: ResourceLockType): Candidate {
  const log: string[] = [];
  const elector = new LeaderElector({
    lock:
      type === undefined
        ? new LeaseLock({ client, coordinationGroup: 'coordination.orch.io', namespace: 'orch-system', name })
        : newResourceLock(type, client, ORCH_BRAND, 'orch-system', name, identity),
    identity,
    leaseDurationMs: 1000,
    renewDeadlineMs: 600,
    retryPeriodMs: 200,
    releaseOnCancel,
    recordEvent: (m) => log.push(`event ${m}`),
    callbacks: {
      onStartedLeading: () => log.push('started'),
      onStoppedLeading: () => log.push('stopped'),
    },
  });
  void elector.run();
  return { elector, log };
}

async function lease(name: string): Promise<any> {
  const r = await request(cluster, 'GET', `${LEASES}/${name}`);
  assert.equal(r.status, 200, r.text);
  return r.json;
}

describe('leader election', () => {
  it('validates durations as client-go does', () => {
    const ok = { identity: 'x', leaseDurationMs: 15000, renewDeadlineMs: 10000, retryPeriodMs: 2000 };
    assert.equal(validateLeaderElection(ok), undefined);
    assert.equal(validateLeaderElection({ ...ok, renewDeadlineMs: 15000 }), 'leaseDuration must be greater than renewDeadline');
    assert.equal(validateLeaderElection({ ...ok, retryPeriodMs: 9000 }), 'renewDeadline must be greater than retryPeriod*JitterFactor');
    assert.equal(validateLeaderElection({ ...ok, identity: '' }), 'Lock identity is empty');
  });

  it('lets one of two candidates lead; the other takes over after the lease expires when the leader stops renewing', async () => {
    const a = candidate('sched', 'host-a_1');
    const b = candidate('sched', 'host-b_2');
    await until('a leader', () => a.elector.isLeader() || b.elector.isLeader());
    // Several renewals later there is still exactly one leader.
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(Number(a.elector.isLeader()) + Number(b.elector.isLeader()), 1);
    const [leader, follower] = a.elector.isLeader() ? [a, b] : [b, a];
    const leaderId = a.elector.isLeader() ? 'host-a_1' : 'host-b_2';
    const followerId = leaderId === 'host-a_1' ? 'host-b_2' : 'host-a_1';
    const held = await lease('sched');
    assert.equal(held.spec.holderIdentity, leaderId);
    assert.equal(held.spec.leaseDurationSeconds, 1);
    assert.match(held.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.equal(follower.elector.getLeader(), leaderId);
    assert.deepEqual(leader.log, [`event ${leaderId} became leader`, 'started']);
    assert.deepEqual(follower.log, []);

    // The leader dies without releasing: the follower waits out the lease from when it last saw a change.
    const stoppedAt = Date.now();
    await leader.elector.stop();
    await until('takeover', () => follower.elector.isLeader(), 5000);
    const took = Date.now() - stoppedAt;
    assert.ok(took >= 900, `took over after ${took} ms, before the lease expired`);
    assert.ok(took < 1000 + 3 * 200 + 500, `took over after ${took} ms`);
    const taken = await lease('sched');
    assert.equal(taken.spec.holderIdentity, followerId);
    assert.equal(taken.spec.leaseTransitions, held.spec.leaseTransitions + 1);
    await follower.elector.stop();
  });

  it('hands over at once when the leader releases on stop', async () => {
    const a = candidate('released', 'host-a_3', true);
    await until('a leads', () => a.elector.isLeader());
    const b = candidate('released', 'host-b_4');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(b.elector.isLeader(), false);
    const stoppedAt = Date.now();
    await a.elector.stop();
    assert.deepEqual(a.log.at(-1), 'stopped');
    await until('b leads', () => b.elector.isLeader(), 5000);
    assert.ok(Date.now() - stoppedAt < 900, 'did not wait out the lease');
    await b.elector.stop();
  });

  for (const type of ['endpoints', 'configmaps', 'endpointsleases', 'configmapsleases'] as const) {
    it(`works with the ${type} lock`, async () => {
      const a = candidate(`lock-${type}`, 'host-a_5', false, type);
      await until('a leads', () => a.elector.isLeader());
      const b = candidate(`lock-${type}`, 'host-b_6', false, type);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(b.elector.isLeader(), false);
      const kind = type.startsWith('endpoints') ? 'endpoints' : 'configmaps';
      const obj = (await request(cluster, 'GET', `/api/v1/namespaces/orch-system/${kind}/lock-${type}`)).json;
      const record = JSON.parse(obj.metadata.annotations['control-plane.alpha.orch.io/leader']);
      assert.equal(record.holderIdentity, 'host-a_5');
      assert.equal(record.leaseDurationSeconds, 1);
      if (type.endsWith('leases')) assert.equal((await lease(`lock-${type}`)).spec.holderIdentity, 'host-a_5');
      await a.elector.stop();
      await until('b takes over', () => b.elector.isLeader(), 5000);
      if (type.endsWith('leases')) assert.equal((await lease(`lock-${type}`)).spec.holderIdentity, 'host-b_6');
      await b.elector.stop();
    });
  }
});
