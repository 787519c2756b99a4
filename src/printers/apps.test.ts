import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Obj } from '../machinery/object.js';
import { appsPrinters } from './apps.js';
import type { TablePrinter } from './types.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const printers = appsPrinters();
const row = (printer: TablePrinter, obj: Obj) => printer.rows(obj, NOW)[0];
const names = (printer: TablePrinter) => printer.columns.map((c) => `${c.name}${c.priority ? '*' : ''}`);
const template = {
  spec: {
    containers: [
      { name: 'fake-container1', image: 'fake-image1' },
      { name: 'fake-container2', image: 'fake-image2' },
    ],
  },
};
const containers = ['fake-container1,fake-container2', 'fake-image1,fake-image2'];
const justNow = new Date(NOW.getTime() + 1900).toISOString();

describe('apps printers', () => {
  it('deployments: ready/desired, up-to-date, available, then wide containers and selector (TestPrintDeployment)', () => {
    const d = printers.Deployment;
    assert.deepEqual(names(d), ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers*', 'Images*', 'Selector*']);
    const obj = {
      metadata: { name: 'test1', creationTimestamp: justNow },
      spec: { replicas: 5, template, selector: { matchLabels: { foo: 'bar' } } },
      status: { replicas: 10, updatedReplicas: 2, availableReplicas: 1, unavailableReplicas: 4 },
    };
    assert.deepEqual(row(d, obj), ['test1', '0/5', 2, 1, '0s', ...containers, 'foo=bar']);
    assert.equal(row(d, { ...obj, spec: { ...obj.spec, selector: {} } })[7], '');
    assert.equal(row(d, { ...obj, spec: { ...obj.spec, selector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } } })[7], '<invalid>');
  });

  it('replica sets (TestPrintReplicaSet)', () => {
    const rs = printers.ReplicaSet;
    assert.deepEqual(names(rs), ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*']);
    const obj = {
      metadata: { name: 'test1', creationTimestamp: justNow },
      spec: { replicas: 5, template, selector: { matchLabels: { foo: 'bar' } } },
      status: { replicas: 5, readyReplicas: 2 },
    };
    assert.deepEqual(row(rs, obj), ['test1', 5, 5, 2, '0s', ...containers, 'foo=bar']);
    assert.equal(row(rs, { ...obj, spec: { replicas: 1 } })[7], '<none>');
  });

  it('daemon sets (TestPrintDaemonSet)', () => {
    const ds = printers.DaemonSet;
    assert.deepEqual(names(ds), [
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Up-to-date',
      'Available',
      'Node Selector',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    const obj = {
      metadata: { name: 'test1', creationTimestamp: justNow },
      spec: { template, selector: { matchLabels: { foo: 'bar' } } },
      status: { currentNumberScheduled: 2, desiredNumberScheduled: 3, numberReady: 1, updatedNumberScheduled: 2, numberAvailable: 0 },
    };
    assert.deepEqual(row(ds, obj), ['test1', 3, 2, 1, 2, 0, '<none>', '0s', ...containers, 'foo=bar']);
    const pinned = { ...obj, spec: { ...obj.spec, template: { spec: { ...template.spec, nodeSelector: { zone: 'a', disk: 'ssd' } } } } };
    assert.equal(row(ds, pinned)[6], 'disk=ssd,zone=a');
  });

  it('stateful sets (TestPrintStatefulSet)', () => {
    const ss = printers.StatefulSet;
    assert.deepEqual(names(ss), ['Name', 'Ready', 'Age', 'Containers*', 'Images*']);
    assert.deepEqual(
      row(ss, { metadata: { name: 'test1', creationTimestamp: justNow }, spec: { replicas: 5, template }, status: { replicas: 5, readyReplicas: 2 } }),
      ['test1', '2/5', '0s', ...containers],
    );
  });

  it('controller revisions name their controller by kind and group (TestPrintControllerRevision)', () => {
    const cr = printers.ControllerRevision;
    const rev = (ownerReferences: unknown[]): Obj => ({
      metadata: { name: 'test1', creationTimestamp: justNow, ownerReferences: ownerReferences as never },
      revision: 1,
    });
    const owner = (apiVersion: string, kind: string, controller?: boolean) => ({ apiVersion, kind, name: 'foo', uid: 'u', controller });
    assert.deepEqual(row(cr, rev([owner('apps/v1', 'DaemonSet', true)])), ['test1', 'daemonset.apps/foo', 1, '0s']);
    assert.equal(row(cr, rev([owner('apps/v1', 'DaemonSet', false)]))[1], '<none>');
    assert.equal(row(cr, rev([]))[1], '<none>');
    assert.equal(row(cr, rev([owner('v1', 'ReplicationController', true)]))[1], 'replicationcontroller/foo');
  });
});
