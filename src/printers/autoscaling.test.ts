import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KUBERNETES_BRAND } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { autoscalingPrinters } from './autoscaling.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const hpa = autoscalingPrinters(KUBERNETES_BRAND).HorizontalPodAutoscaler;
const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const CURRENT = 'autoscaling.alpha.kubernetes.io/current-metrics';

function obj(spec: Obj, status: Obj = {}, annotations?: Record<string, unknown[]>): Obj {
  const encoded = annotations === undefined ? undefined : Object.fromEntries(Object.entries(annotations).map(([k, v]) => [k, JSON.stringify(v)]));
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'some-hpa', annotations: encoded },
    spec: { scaleTargetRef: { kind: 'ReplicationController', name: 'some-rc' }, maxReplicas: 10, ...spec },
    status: { currentReplicas: 4, desiredReplicas: 5, ...status },
  };
}
const targets = (o: Obj) => hpa.rows(o, NOW)[0][2];

describe('autoscaling printers: HorizontalPodAutoscaler (v1)', () => {
  it('has upstream columns', () => {
    assert.deepEqual(
      hpa.columns.map((c) => c.name),
      ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    );
  });

  it('prints "<none>" without metrics and "<unset>" without minReplicas (TestPrintHPA)', () => {
    // Only a v2 object can lack metrics: v1's conversion states the implied 80% CPU target.
    const v2 = { ...obj({}), apiVersion: 'autoscaling/v2' };
    assert.deepEqual(hpa.rows(v2, NOW)[0], ['some-hpa', 'ReplicationController/some-rc', '<none>', '<unset>', 10, 4, '<unknown>']);
    assert.equal(targets(obj({})), '<unknown>/80%');
    assert.equal(hpa.rows(obj({ minReplicas: 2 }), NOW)[0][3], '2');
  });

  it('prints the CPU utilization target and its current value', () => {
    assert.equal(targets(obj({ targetCPUUtilizationPercentage: 80 })), '<unknown>/80%');
    assert.equal(targets(obj({ targetCPUUtilizationPercentage: 80 }, { currentCPUUtilizationPercentage: 50 })), '50%/80%');
  });

  it('prints annotation metrics before the CPU target, two at most', () => {
    const specs = [
      { type: 'Pods', pods: { metricName: 'some-pods-metric', targetAverageValue: '100m' } },
      { type: 'External', external: { metricName: 'q', targetAverageValue: '100m' } },
    ];
    const statuses = [{ type: 'Pods', pods: { metricName: 'some-pods-metric', currentAverageValue: '50m' } }];
    assert.equal(targets(obj({}, {}, { [METRICS]: specs.slice(0, 1), [CURRENT]: statuses })), '50m/100m');
    assert.equal(
      targets(obj({ targetCPUUtilizationPercentage: 80 }, {}, { [METRICS]: specs, [CURRENT]: statuses })),
      '50m/100m, <unknown>/100m (avg) + 1 more...',
    );
  });

  it('formats each source as upstream (external, object, resource values)', () => {
    const one = (spec: Obj, status?: Obj) => targets(obj({}, {}, { [METRICS]: [spec], ...(status === undefined ? {} : { [CURRENT]: [status] }) }));
    assert.equal(
      one({ type: 'External', external: { metricName: 'q', targetValue: '100m' } }, { type: 'External', external: { currentValue: '50m' } }),
      '50m/100m',
    );
    assert.equal(one({ type: 'Object', object: { metricName: 'q', targetValue: '0.5' } }), '<unknown>/500m');
    assert.equal(
      one({ type: 'Object', object: { targetValue: '1', averageValue: '2' } }, { type: 'Object', object: { currentValue: '1', averageValue: '3' } }),
      '3/2 (avg)',
    );
    assert.equal(
      one({ type: 'Resource', resource: { name: 'memory', targetAverageValue: '1Gi' } }, { type: 'Resource', resource: { currentAverageValue: '512Mi' } }),
      '512Mi/1Gi',
    );
    assert.equal(one({ type: 'Resource', resource: { name: 'cpu' } }), '<unknown>/<auto>');
    assert.equal(one({ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'c', targetAverageUtilization: 60 } }), '<unknown>/60%');
    assert.equal(one({ type: 'Weird' }), '<unknown type>');
  });
});
