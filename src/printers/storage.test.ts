import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { storagePrinters } from './storage.js';
import type { TablePrinter } from './types.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const printers = storagePrinters(KUBERNETES_BRAND);
const row = (printer: TablePrinter, obj: Obj) => printer.rows(obj, NOW)[0];
const names = (printer: TablePrinter) => printer.columns.map((c) => c.name);

describe('storage printers', () => {
  it('storage classes mark the default class and default their policies (TestPrintStorageClass)', () => {
    const sc = printers.StorageClass;
    assert.deepEqual(names(sc), ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
    const obj = { metadata: { name: 'sc1' }, provisioner: 'kubernetes.io/glusterfs' };
    assert.deepEqual(row(sc, obj), ['sc1', 'kubernetes.io/glusterfs', 'Delete', 'Immediate', false, '<unknown>']);
    const full = {
      metadata: { name: 'sc2', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'p',
      reclaimPolicy: 'Retain',
      volumeBindingMode: 'WaitForFirstConsumer',
      allowVolumeExpansion: true,
    };
    assert.deepEqual(row(sc, full).slice(0, 5), ['sc2 (default)', 'p', 'Retain', 'WaitForFirstConsumer', true]);
    const beta = { metadata: { name: 'sc3', annotations: { 'storageclass.beta.orch.io/is-default-class': 'true' } } };
    assert.equal(row(storagePrinters(ORCH_BRAND).StorageClass, beta)[0], 'sc3 (default)');
    assert.equal(row(sc, beta)[0], 'sc3');
  });

  it('volume attachments (TestPrintVolumeAttachment)', () => {
    const va = printers.VolumeAttachment;
    assert.deepEqual(names(va), ['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age']);
    assert.equal(va.columns[1].format, 'name');
    const obj = {
      metadata: { name: 'attachment' },
      spec: { attacher: 'provisioner', source: { persistentVolumeName: 'pv' }, nodeName: 'node' },
      status: { attached: true },
    };
    assert.deepEqual(row(va, obj), ['attachment', 'provisioner', 'pv', 'node', true, '<unknown>']);
    assert.deepEqual(row(va, { metadata: { name: 'a' }, spec: { attacher: 'p', source: {}, nodeName: 'n' } }).slice(2, 5), ['', 'n', false]);
  });

  it('CSI nodes count their drivers (TestPrintCSINode)', () => {
    assert.deepEqual(row(printers.CSINode, { metadata: { name: 'csinode1' }, spec: { drivers: [{ name: 'a' }, { name: 'b' }] } }), [
      'csinode1',
      2,
      '<unknown>',
    ]);
    assert.deepEqual(row(printers.CSINode, { metadata: { name: 'csinode2' }, spec: {} }), ['csinode2', 0, '<unknown>']);
  });

  it('CSI drivers default attachRequired to true (TestPrintCSIDriver)', () => {
    const d = printers.CSIDriver;
    assert.deepEqual(names(d), ['Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age']);
    assert.deepEqual(row(d, { metadata: { name: 'driver1' }, spec: {} }), ['driver1', true, false, false, '<unset>', false, '<none>', '<unknown>']);
    const full = {
      metadata: { name: 'driver2' },
      spec: {
        attachRequired: false,
        podInfoOnMount: true,
        storageCapacity: true,
        tokenRequests: [{ audience: 'a' }, { audience: 'b' }],
        requiresRepublish: true,
        volumeLifecycleModes: ['Persistent', 'Ephemeral'],
      },
    };
    assert.deepEqual(row(d, full), ['driver2', false, true, true, 'a,b', true, 'Persistent,Ephemeral', '<unknown>']);
  });
});
