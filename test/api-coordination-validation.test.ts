/** coordination/v1 Lease validation through HTTP, as upstream 1.25. */
import { describe, it } from 'node:test';
import { clusterClient, MERGE } from './helpers/cluster-client.js';
import { assertInvalidExactly, assertOk } from './helpers/invalid.js';

const LEASES = '/apis/coordination.orch.io/v1/namespaces/default/leases';

const call = clusterClient();

describe('Lease', () => {
  it('needs a positive duration and non-negative transitions', async () => {
    assertInvalidExactly(await call('POST', LEASES, { metadata: { name: 'l' }, spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } }), 'Lease', [
      ['spec.leaseDurationSeconds', 'Invalid value: 0: must be greater than 0'],
      ['spec.leaseTransitions', 'Invalid value: -1: must be greater than or equal to 0'],
    ]);
    assertOk(await call('POST', LEASES, { metadata: { name: 'l' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } }), 201);
    assertInvalidExactly(await call('PATCH', `${LEASES}/l`, { spec: { leaseDurationSeconds: -5 } }, MERGE), 'Lease', [
      ['spec.leaseDurationSeconds', 'Invalid value: -5: must be greater than 0'],
    ]);
  });
});
