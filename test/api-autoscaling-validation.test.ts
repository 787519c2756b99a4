/** autoscaling/v1 HorizontalPodAutoscaler defaulting and validation through HTTP, as upstream 1.25. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterClient } from './helpers/cluster-client.js';
import { assertInvalidExactly, assertOk } from './helpers/invalid.js';

const HPAS = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';

const call = clusterClient();

const TARGET = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

describe('HorizontalPodAutoscaler', () => {
  it('defaults minReplicas to 1 and starts with zero replica counts', async () => {
    const hpa = assertOk(await call('POST', HPAS, { metadata: { name: 'ok' }, spec: { scaleTargetRef: TARGET, maxReplicas: 3 } }), 201);
    assert.equal(hpa.spec.minReplicas, 1);
    assert.deepEqual(hpa.status, { currentReplicas: 0, desiredReplicas: 0 });
  });

  it('checks replica bounds, the target reference and the CPU target at its internal path', async () => {
    const r = await call('POST', HPAS, {
      metadata: { name: 'bad' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'a/b' }, minReplicas: 0, maxReplicas: 0, targetCPUUtilizationPercentage: 0 },
    });
    assertInvalidExactly(r, 'HorizontalPodAutoscaler', [
      ['spec.minReplicas', 'Invalid value: 0: must be greater than or equal to 1'],
      ['spec.maxReplicas', 'Invalid value: 0: must be greater than 0'],
      ['spec.scaleTargetRef.name', `Invalid value: "a/b": may not contain '/'`],
      ['spec.metrics[0].resource.target.averageUtilization', 'Invalid value: 0: must be greater than 0'],
      // minReplicas 0 is scale-to-zero, which needs an Object or External metric.
      ['spec.metrics', 'Forbidden: must specify at least one Object or External metric to support scaling to zero replicas'],
    ]);
    const order = await call('POST', HPAS, { metadata: { name: 'order' }, spec: { scaleTargetRef: { name: 'web' }, minReplicas: 5, maxReplicas: 2 } });
    assertInvalidExactly(order, 'HorizontalPodAutoscaler', [
      ['spec.maxReplicas', 'Invalid value: 2: must be greater than or equal to `minReplicas`'],
      ['spec.scaleTargetRef.kind', 'Required value'],
    ]);
  });
});
