import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goZeroFieldsFor } from './go-zero-fields.js';

function fill(apiVersion: string, kind: string, obj: Record<string, unknown>): Record<string, unknown> {
  const fields = goZeroFieldsFor(apiVersion, kind);
  assert.ok(fields, `${apiVersion} ${kind} has a Go type`);
  return fields.fill(obj);
}

describe('the fields Go always writes', () => {
  it('value structs as their zero JSON, recursively and inside list items', () => {
    const pod = fill('v1', 'Pod', {
      metadata: { name: 'p', creationTimestamp: '2024-01-01T00:00:00Z' },
      spec: { containers: [{ name: 'c', image: 'i' }], initContainers: [{ name: 'i', image: 'i', resources: { limits: { cpu: '1' } } }] },
    });
    assert.deepEqual(pod, {
      metadata: { name: 'p', creationTimestamp: '2024-01-01T00:00:00Z' },
      spec: {
        containers: [{ name: 'c', image: 'i', resources: {} }],
        initContainers: [{ name: 'i', image: 'i', resources: { limits: { cpu: '1' } } }],
      },
      status: {},
    });
    // A pod template's ObjectMeta holds a zero Time, which Go writes as null.
    const template = fill('v1', 'PodTemplate', { metadata: { name: 't' } });
    assert.deepEqual(template.template, { metadata: { creationTimestamp: null }, spec: { containers: null } });
    // An EndpointSlice endpoint's conditions are a value struct; its ports a slice without omitempty.
    const slice = fill('discovery.k8s.io/v1', 'EndpointSlice', { metadata: { name: 's' }, addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }] });
    assert.deepEqual(slice.endpoints, [{ addresses: ['10.0.0.1'], conditions: {} }]);
    assert.equal(slice.ports, null);
  });

  it('fields without omitempty: zero scalars, nil slices as null; a null value struct as its zero', () => {
    const pdb = fill('policy/v1', 'PodDisruptionBudget', { metadata: { name: 'b' }, spec: {}, status: null });
    assert.deepEqual(pdb.status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    const role = fill('rbac.authorization.k8s.io/v1', 'Role', { metadata: { name: 'r' } });
    assert.equal(role.rules, null);
    // Pointers and omitempty fields stay absent; what is there is never changed or removed.
    const cm = { metadata: { name: 'c', labels: { a: 'b' } }, data: { k: 'v' }, binaryData: {}, unknown: 1 };
    assert.deepEqual(fill('v1', 'ConfigMap', structuredClone(cm)), { ...cm, metadata: { ...cm.metadata, creationTimestamp: null } });
  });

  it('embedded structs are filled in their enclosing object', () => {
    // Volume embeds VolumeSource; a configMap source's items stay as written.
    const pod = fill('v1', 'Pod', { metadata: { name: 'p' }, spec: { containers: [], volumes: [{ name: 'v', configMap: { name: 'c' } }] } });
    assert.deepEqual((pod.spec as { volumes: unknown }).volumes, [{ name: 'v', configMap: { name: 'c' } }]);
  });

  it('no Go type for custom kinds', () => {
    assert.equal(goZeroFieldsFor('example.com/v1', 'Widget'), undefined);
  });
});
