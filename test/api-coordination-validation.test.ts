/** coordination/v1 Lease validation through HTTP, as upstream 1.25. */
import { after, before, describe, it } from 'node:test';
import { request, startTestCluster, type RawResponse, type TestCluster } from './helpers/cluster.js';
import { assertInvalidExactly, assertOk } from './helpers/invalid.js';

let cluster: TestCluster;
const LEASES = '/apis/coordination.orch.io/v1/namespaces/default/leases';
const MERGE = { 'content-type': 'application/merge-patch+json' };

before(async () => {
  cluster = await startTestCluster();
});

after(async () => {
  await cluster?.close();
});

function call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse> {
  return request(cluster, method, path, { body: body as object | undefined, headers });
}

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
