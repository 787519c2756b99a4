/**
 * Objects stored before a kind's storage version moved (autoscaling/v1 HorizontalPodAutoscalers
 * written by an older orch) stay readable: the storage version's owner converts them, and no
 * version serves their stored bytes as if they were its own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_BRAND } from '../machinery/brand.js';
import { horizontalPodAutoscalers, horizontalPodAutoscalersV1, horizontalPodAutoscalersV2beta2 } from '../api/autoscaling/horizontalpodautoscalers.js';
import { decodeFromStorage, encodeForStorage, servedJson } from './object-codec.js';
import { resolveResource } from './resource-info.js';

const v1Stored = {
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'old', namespace: 'default' },
  spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
  status: { currentReplicas: 2, desiredReplicas: 2 },
};
const kv = (obj: object) => ({
  key: '/registry/horizontalpodautoscalers/default/old',
  value: new TextEncoder().encode(JSON.stringify(obj)),
  createRevision: 4,
  modRevision: 7,
});

describe('objects stored at another version of their kind', () => {
  const v2 = resolveResource(horizontalPodAutoscalers, ORCH_BRAND);
  const v1 = resolveResource(horizontalPodAutoscalersV1, ORCH_BRAND);
  const beta = resolveResource(horizontalPodAutoscalersV2beta2, ORCH_BRAND);

  it('are converted by the storage version and by every view', () => {
    const asV2 = decodeFromStorage(v2, kv(v1Stored), ORCH_BRAND);
    assert.equal(asV2.apiVersion, 'autoscaling/v2');
    assert.deepEqual((asV2.spec as { metrics: unknown }).metrics, [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ]);
    assert.equal(asV2.metadata?.resourceVersion, '7');
    const asV1 = decodeFromStorage(v1, kv(v1Stored), ORCH_BRAND);
    assert.deepEqual(asV1.spec, v1Stored.spec);
    assert.equal(decodeFromStorage(beta, kv(v1Stored), ORCH_BRAND).apiVersion, 'autoscaling/v2beta2');
  });

  it('are never spliced as served bytes, while the storage version serves its own bytes directly', () => {
    assert.equal(servedJson(v2, kv(v1Stored).value, 7), undefined);
    const own = encodeForStorage(v2, decodeFromStorage(v2, kv(v1Stored), ORCH_BRAND), ORCH_BRAND);
    const served = servedJson(v2, own, 8);
    assert.ok(served);
    assert.equal(JSON.parse(served.toString()).metadata.resourceVersion, '8');
  });

  it('are written back at the storage version whichever version writes them', () => {
    const written = JSON.parse(new TextDecoder().decode(encodeForStorage(v1, decodeFromStorage(v1, kv(v1Stored), ORCH_BRAND), ORCH_BRAND)));
    assert.equal(written.apiVersion, 'autoscaling/v2');
    assert.equal(written.metadata.resourceVersion, undefined);
  });
});
