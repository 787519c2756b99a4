import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admissionregistrationPrinters } from './admissionregistration.js';
import { apiregistrationPrinters } from './apiregistration.js';
import { coordinationPrinters } from './coordination.js';
import { eventsPrinters } from './events.js';
import { nodePrinters } from './node.js';
import { schedulingPrinters } from './scheduling.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const justNow = new Date(NOW.getTime() + 1900).toISOString();

describe('coordination, scheduling, node, admissionregistration, apiregistration and events printers', () => {
  it('leases print their holder (TestPrintLease)', () => {
    const lease = coordinationPrinters().Lease;
    assert.deepEqual(lease.rows({ metadata: { name: 'lease1', creationTimestamp: justNow }, spec: { holderIdentity: 'holder' } }, NOW)[0], [
      'lease1',
      'holder',
      '0s',
    ]);
    assert.deepEqual(lease.rows({ metadata: { name: 'lease2' }, spec: {} }, NOW)[0], ['lease2', '', '<unknown>']);
  });

  it('priority classes print value and global default (TestPrintPriorityClass)', () => {
    const pc = schedulingPrinters().PriorityClass;
    assert.deepEqual(
      pc.columns.map((c) => c.type),
      ['string', 'integer', 'boolean', 'string'],
    );
    assert.deepEqual(pc.rows({ metadata: { name: 'pc1', creationTimestamp: justNow }, value: 1 }, NOW)[0], ['pc1', 1, false, '0s']);
    assert.deepEqual(pc.rows({ metadata: { name: 'pc2' }, value: 1000000000, globalDefault: true }, NOW)[0], ['pc2', 1000000000, true, '<unknown>']);
  });

  it('runtime classes print their handler (TestPrintRuntimeClass)', () => {
    const rc = nodePrinters().RuntimeClass;
    assert.deepEqual(rc.columns[1], { name: 'Handler', type: 'string', format: '', description: '', priority: 0 });
    assert.deepEqual(rc.rows({ metadata: { name: 'rc1', creationTimestamp: justNow }, handler: 'h1' }, NOW)[0], ['rc1', 'h1', '0s']);
  });

  it('webhook configurations count their webhooks', () => {
    const { MutatingWebhookConfiguration: m, ValidatingWebhookConfiguration: v } = admissionregistrationPrinters();
    assert.deepEqual(m.rows({ metadata: { name: 'w' }, webhooks: [{ name: 'a' }, { name: 'b' }] }, NOW)[0], ['w', 2, '<unknown>']);
    assert.deepEqual(v.rows({ metadata: { name: 'w' } }, NOW)[0], ['w', 0, '<unknown>']);
  });

  it('API services print their service and availability as the aggregator does', () => {
    const api = apiregistrationPrinters().APIService;
    assert.deepEqual(
      api.columns.map((c) => c.name),
      ['Name', 'Service', 'Available', 'Age'],
    );
    assert.deepEqual(
      api.rows({ metadata: { name: 'v1.apps' }, spec: {}, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] } }, NOW)[0],
      ['v1.apps', 'Local', 'True', '<unknown>'],
    );
    const remote = {
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: { service: { namespace: 'kube-system', name: 'metrics-server' } },
      status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] },
    };
    assert.deepEqual(api.rows(remote, NOW)[0].slice(1, 3), ['kube-system/metrics-server', 'False (MissingEndpoints)']);
    assert.equal(api.rows({ metadata: { name: 'x' } }, NOW)[0][2], 'Unknown');
  });

  it('events/v1 Events print from their core form', () => {
    const event = eventsPrinters().Event;
    const obj = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e1' },
      regarding: { kind: 'Pod', name: 'web-0', fieldPath: 'spec.containers{web}' },
      note: 'Started container',
      reason: 'Started',
      type: 'Normal',
      reportingController: 'kubelet',
      reportingInstance: 'node-1',
      eventTime: '2024-05-01T11:59:00.000000Z',
      series: { count: 3, lastObservedTime: '2024-05-01T11:59:50.000000Z' },
    };
    assert.deepEqual(event.rows(obj, NOW)[0], [
      '10s',
      'Normal',
      'Started',
      'pod/web-0',
      'spec.containers{web}',
      'kubelet, node-1',
      'Started container',
      '60s',
      3,
      'e1',
    ]);
  });
});
