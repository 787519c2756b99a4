import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { endpointAddressSource, MASTER_LEASE_TTL_MS } from './master-leases.js';

test('without expiring keys the master-count reconciler lists this server alone', async () => {
  const source = endpointAddressSource(new MemoryStore(), '10.1.0.9');
  assert.equal(source.type, 'master-count');
  assert.deepEqual(await source.renew(), ['10.1.0.9']);
});

test('with expiring keys each server renews its lease and the endpoints list every live one', async () => {
  const store = new MemoryStore();
  const expiring: [string, number][] = [];
  const leased = Object.assign(store, { expireUnder: (prefix: string, ttl: number) => void expiring.push([prefix, ttl]) });
  const a = endpointAddressSource(leased, '10.1.0.2');
  const b = endpointAddressSource(leased, '10.1.0.1');
  assert.equal(a.type, 'lease');
  assert.deepEqual(expiring[0], ['/registry/masterleases/', MASTER_LEASE_TTL_MS]);
  assert.deepEqual(await a.renew(), ['10.1.0.2']);
  assert.deepEqual(await b.renew(), ['10.1.0.1', '10.1.0.2']);
  const rev = store.currentRevision();
  assert.deepEqual(await a.renew(), ['10.1.0.1', '10.1.0.2']);
  assert.ok(store.currentRevision() > rev, 'a renewal writes the key again, re-arming its TTL');
  assert.deepEqual(await a.release(), ['10.1.0.1']);
  assert.deepEqual(await a.release(), ['10.1.0.1']);
});
