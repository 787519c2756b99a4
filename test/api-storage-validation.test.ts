/**
 * storage/v1 defaulting and validation through HTTP, as upstream 1.25: StorageClass, CSIDriver,
 * CSINode and VolumeAttachment.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterClient, MERGE } from './helpers/cluster-client.js';
import { assertInvalid, assertInvalidExactly, assertOk } from './helpers/invalid.js';

const STORAGE = '/apis/storage.orch.io/v1';

const call = clusterClient();

describe('StorageClass', () => {
  it('defaults reclaimPolicy to Delete and volumeBindingMode to Immediate', async () => {
    const sc = assertOk(
      await call('POST', `${STORAGE}/storageclasses`, { metadata: { name: 'fast' }, provisioner: 'example.com/fast', parameters: { type: 'ssd' } }),
      201,
    );
    assert.equal(sc.reclaimPolicy, 'Delete');
    assert.equal(sc.volumeBindingMode, 'Immediate');
  });

  it('requires a provisioner and supported policies', async () => {
    const r = await call('POST', `${STORAGE}/storageclasses`, { metadata: { name: 'bad' }, reclaimPolicy: 'Recycle', volumeBindingMode: 'Later' });
    assertInvalidExactly(r, 'StorageClass', [
      ['provisioner', 'Required value'],
      ['reclaimPolicy', 'Unsupported value: "Recycle": supported values: "Delete", "Retain"'],
      ['volumeBindingMode', 'Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"'],
    ]);
    const name = await call('POST', `${STORAGE}/storageclasses`, { metadata: { name: 'bad2' }, provisioner: 'a/b/c' });
    assertInvalid(name, 'StorageClass', [
      [
        'provisioner',
        `Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    ]);
  });

  it('checks allowed topologies', async () => {
    const r = await call('POST', `${STORAGE}/storageclasses`, {
      metadata: { name: 'topo' },
      provisioner: 'example.com/x',
      allowedTopologies: [
        {
          matchLabelExpressions: [
            { key: 'zone', values: ['a', 'a'] },
            { key: 'zone', values: [] },
          ],
        },
      ],
    });
    assertInvalidExactly(r, 'StorageClass', [
      ['allowedTopologies[0].matchLabelExpressions[0].values[1]', 'Duplicate value: "a"'],
      ['allowedTopologies[0].matchLabelExpressions[1].values', 'Required value'],
      ['allowedTopologies[0].matchLabelExpressions[1].key', 'Duplicate value: "zone"'],
    ]);
  });

  it('keeps provisioner, parameters, reclaim policy and binding mode', async () => {
    assertOk(await call('POST', `${STORAGE}/storageclasses`, { metadata: { name: 'fixed' }, provisioner: 'example.com/x' }), 201);
    const r = await call(
      'PATCH',
      `${STORAGE}/storageclasses/fixed`,
      { provisioner: 'example.com/y', parameters: { a: 'b' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' },
      MERGE,
    );
    assertInvalidExactly(r, 'StorageClass', [
      ['parameters', 'Forbidden: updates to parameters are forbidden.'],
      ['provisioner', 'Forbidden: updates to provisioner are forbidden.'],
      ['reclaimPolicy', 'Forbidden: updates to reclaimPolicy are forbidden.'],
      ['volumeBindingMode', 'Invalid value: "WaitForFirstConsumer": field is immutable'],
    ]);
    assertOk(await call('PATCH', `${STORAGE}/storageclasses/fixed`, { allowVolumeExpansion: true }, MERGE));
  });
});

describe('CSIDriver', () => {
  it('is defaulted as storage/v1', async () => {
    const d = assertOk(await call('POST', `${STORAGE}/csidrivers`, { metadata: { name: 'csi.example.com' }, spec: {} }), 201);
    assert.deepEqual(d.spec, {
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
    });
  });

  it('checks the driver name, policies, modes and token requests', async () => {
    const r = await call('POST', `${STORAGE}/csidrivers`, {
      metadata: { name: 'x'.repeat(64) },
      spec: { fsGroupPolicy: 'Sometimes', volumeLifecycleModes: ['Forever'], tokenRequests: [{ audience: 'a', expirationSeconds: 60 }, { audience: 'a' }] },
    });
    assertInvalidExactly(r, 'CSIDriver', [
      ['name', 'Too long: must have at most 63 bytes'],
      ['spec.fsGroupPolicy', 'Unsupported value: "Sometimes": supported values: "File", "None", "ReadWriteOnceWithFSType"'],
      ['spec.tokenRequests[0].expirationSeconds', 'Invalid value: 60: may not specify a duration less than 10 minutes'],
      ['spec.tokenRequests[1].audience', 'Duplicate value: "a"'],
      ['spec.volumeLifecycleModes', 'Unsupported value: "Forever": supported values: "Persistent", "Ephemeral"'],
    ]);
  });

  it('keeps attachRequired, fsGroupPolicy, podInfoOnMount and lifecycle modes', async () => {
    assertOk(await call('POST', `${STORAGE}/csidrivers`, { metadata: { name: 'fixed.example.com' } }), 201);
    const r = await call('PATCH', `${STORAGE}/csidrivers/fixed.example.com`, { spec: { attachRequired: false, podInfoOnMount: true } }, MERGE);
    assertInvalidExactly(r, 'CSIDriver', [
      ['spec.attachedRequired', 'Invalid value: false: field is immutable'],
      ['spec.podInfoOnMount', 'Invalid value: true: field is immutable'],
    ]);
    assertOk(await call('PATCH', `${STORAGE}/csidrivers/fixed.example.com`, { spec: { storageCapacity: true, requiresRepublish: true } }, MERGE));
  });
});

describe('CSINode', () => {
  it('checks drivers and keeps existing entries', async () => {
    const r = await call('POST', `${STORAGE}/csinodes`, {
      metadata: { name: 'node-1' },
      spec: {
        drivers: [
          { name: 'a.example.com', nodeID: '', allocatable: { count: -1 } },
          { name: 'a.example.com', nodeID: 'n', topologyKeys: ['zone', 'zone'] },
        ],
      },
    });
    assertInvalidExactly(r, 'CSINode', [
      ['spec.drivers[0].nodeID', 'Required value'],
      ['spec.drivers[0].allocatable.count', 'Invalid value: -1: must be greater than or equal to 0'],
      ['spec.drivers[1].name', 'Duplicate value: "a.example.com"'],
      ['spec.drivers[1]', 'Duplicate value: "zone"'],
    ]);
    assertOk(await call('POST', `${STORAGE}/csinodes`, { metadata: { name: 'node-1' }, spec: { drivers: [{ name: 'a.example.com', nodeID: 'n1' }] } }), 201);
    const up = await call('PATCH', `${STORAGE}/csinodes/node-1`, { spec: { drivers: [{ name: 'a.example.com', nodeID: 'n2' }] } }, MERGE);
    assertInvalid(up, 'CSINode', []);
    assert.equal(up.json.details.causes[0].field, 'CSINodeDriver');
  });
});

describe('VolumeAttachment', () => {
  it('needs an attacher, exactly one source and a node; its spec never changes', async () => {
    const r = await call('POST', `${STORAGE}/volumeattachments`, { metadata: { name: 'va' }, spec: { source: {}, nodeName: '' } });
    assertInvalid(r, 'VolumeAttachment', [
      ['spec.attacher', 'Required value'],
      ['spec.source', 'Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName'],
    ]);
    const spec = { attacher: 'csi.example.com', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' };
    assertOk(await call('POST', `${STORAGE}/volumeattachments`, { metadata: { name: 'va' }, spec }), 201);
    const up = await call('PATCH', `${STORAGE}/volumeattachments/va`, { spec: { nodeName: 'node-2' } }, MERGE);
    assertInvalid(up, 'VolumeAttachment', []);
    assert.equal(up.json.details.causes[0].field, 'spec');
    assertOk(await call('PATCH', `${STORAGE}/volumeattachments/va/status`, { status: { attached: true } }, MERGE));
  });
});
