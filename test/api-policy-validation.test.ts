/** policy/v1 PodDisruptionBudget validation through HTTP, as upstream 1.25. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterClient, MERGE } from './helpers/cluster-client.js';
import { assertInvalid, assertInvalidExactly, assertOk } from './helpers/invalid.js';

const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

const call = clusterClient();

describe('PodDisruptionBudget', () => {
  it('starts with a zero status', async () => {
    const pdb = assertOk(await call('POST', PDBS, { metadata: { name: 'ok' }, spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } } }), 201);
    assert.deepEqual(pdb.status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  });

  it('takes minAvailable or maxUnavailable, not both', async () => {
    const r = await call('POST', PDBS, { metadata: { name: 'both' }, spec: { minAvailable: 1, maxUnavailable: 1 } });
    const body = assertInvalid(r, 'PodDisruptionBudget', []);
    assert.deepEqual(
      body.details.causes.map((c: { field: string }) => c.field),
      ['spec'],
    );
    assert.ok(body.details.causes[0].message.endsWith(': minAvailable and maxUnavailable cannot be both set'));
  });

  it('checks counts, percentages and the selector', async () => {
    const r = await call('POST', PDBS, { metadata: { name: 'bad' }, spec: { maxUnavailable: '120%', selector: { matchLabels: { 'a b': 'c' } } } });
    assertInvalid(r, 'PodDisruptionBudget', [
      ['spec.maxUnavailable', 'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%'],
    ]);
    assert.ok(r.json.details.causes.some((c: { field: string }) => c.field === 'spec.selector.matchLabels'));
    const neg = await call('POST', PDBS, { metadata: { name: 'neg' }, spec: { minAvailable: -1 } });
    assertInvalidExactly(neg, 'PodDisruptionBudget', [['spec.minAvailable', 'Invalid value: -1: must be greater than or equal to 0']]);
  });

  it('validates status writes', async () => {
    const r = await call(
      'PATCH',
      `${PDBS}/ok/status`,
      { status: { disruptionsAllowed: -1, conditions: [{ type: 'DisruptionAllowed', status: 'Yes' }] } },
      MERGE,
    );
    assertInvalid(r, 'PodDisruptionBudget', [
      ['status.conditions[0].status', 'Unsupported value: "Yes": supported values: "False", "True", "Unknown"'],
      ['status.disruptionsAllowed', 'Invalid value: -1: must be greater than or equal to 0'],
    ]);
  });
});
