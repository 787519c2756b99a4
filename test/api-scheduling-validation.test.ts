/**
 * scheduling/v1 PriorityClass defaulting and validation through HTTP, as upstream 1.25.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterClient, MERGE } from './helpers/cluster-client.js';
import { assertInvalidExactly, assertOk } from './helpers/invalid.js';

const PC = '/apis/scheduling.orch.io/v1/priorityclasses';

const call = clusterClient();

describe('PriorityClass', () => {
  it('defaults preemptionPolicy to PreemptLowerPriority', async () => {
    const pc = assertOk(await call('POST', PC, { metadata: { name: 'high' }, value: 1000 }), 201);
    assert.equal(pc.preemptionPolicy, 'PreemptLowerPriority');
  });

  it('caps user classes at one billion and reserves the system- prefix', async () => {
    assertOk(await call('POST', PC, { metadata: { name: 'max' }, value: 1_000_000_000 }), 201);
    assertInvalidExactly(await call('POST', PC, { metadata: { name: 'over' }, value: 1_000_000_001 }), 'PriorityClass', [
      ['value', 'Forbidden: maximum allowed value of a user defined priority is 1000000000'],
    ]);
    assertInvalidExactly(await call('POST', PC, { metadata: { name: 'system-mine' }, value: 5 }), 'PriorityClass', [
      [
        'metadata.name',
        "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
      ],
    ]);
    assertInvalidExactly(await call('POST', PC, { metadata: { name: 'system-node-critical' }, value: 5 }), 'PriorityClass', [
      [
        'metadata.name',
        "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000",
      ],
    ]);
  });

  it('accepts only the known preemption policies', async () => {
    assertInvalidExactly(await call('POST', PC, { metadata: { name: 'p' }, value: 1, preemptionPolicy: 'Always' }), 'PriorityClass', [
      ['preemptionPolicy', 'Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"'],
    ]);
    assertInvalidExactly(await call('POST', PC, { metadata: { name: 'p' }, value: 1, preemptionPolicy: '' }), 'PriorityClass', [
      ['preemptionPolicy', 'Required value'],
    ]);
  });

  it('keeps value and preemptionPolicy, while globalDefault and description may change', async () => {
    assertOk(await call('POST', PC, { metadata: { name: 'fixed' }, value: 10 }), 201);
    assertInvalidExactly(await call('PATCH', `${PC}/fixed`, { value: 11, preemptionPolicy: 'Never' }, MERGE), 'PriorityClass', [
      ['value', 'Forbidden: may not be changed in an update.'],
      ['preemptionPolicy', 'Invalid value: "Never": field is immutable'],
    ]);
    const pc = assertOk(await call('PATCH', `${PC}/fixed`, { globalDefault: true, description: 'd' }, MERGE));
    assert.equal(pc.globalDefault, true);
  });
});
