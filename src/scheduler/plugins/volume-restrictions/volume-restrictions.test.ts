import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { PodInfo } from '../../framework/pod-info.js';
import { Code } from '../../framework/status.js';
import type { Pod, Volume } from '../../framework/types.js';
import { ERR_REASON_DISK_CONFLICT, VolumeRestrictions } from './volume-restrictions.js';

const pod = (volumes?: Volume[], name = 'p'): Pod => ({ metadata: { name, namespace: 'default' }, spec: { containers: [], volumes } });
const nodeWith = (...pods: Pod[]): NodeInfo => {
  const ni = new NodeInfo({ metadata: { name: 'n' } });
  for (const [i, p] of pods.entries()) ni.addPod(new PodInfo({ ...p, metadata: { ...p.metadata, uid: `u${i}` } }));
  return ni;
};

/** Upstream's four tables share one shape: nothing, one state, same state, different state. */
function runTable(kind: string, volState: Volume[], volState2: Volume[]): void {
  test(`VolumeRestrictions ${kind} conflicts`, () => {
    const pl = new VolumeRestrictions();
    const cases: [string, Pod, NodeInfo, boolean][] = [
      ['nothing', pod(), nodeWith(), true],
      ['one state', pod(), nodeWith(pod(volState)), true],
      ['same state', pod(volState), nodeWith(pod(volState)), false],
      ['different state', pod(volState2), nodeWith(pod(volState)), true],
    ];
    for (const [name, p, ni, ok] of cases) {
      const s = pl.filter(new CycleState(), p, ni);
      assert.equal(s.code, ok ? Code.Success : Code.Unschedulable, name);
      assert.deepEqual(s.reasons, ok ? [] : [ERR_REASON_DISK_CONFLICT], name);
    }
  });
}

runTable('GCE PD', [{ name: 'v', gcePersistentDisk: { pdName: 'foo' } }], [{ name: 'v', gcePersistentDisk: { pdName: 'bar' } }]);
runTable('AWS EBS', [{ name: 'v', awsElasticBlockStore: { volumeID: 'foo' } }], [{ name: 'v', awsElasticBlockStore: { volumeID: 'bar' } }]);
runTable(
  'RBD',
  [{ name: 'v', rbd: { monitors: ['a', 'b'], pool: 'foo', image: 'bar' } }],
  [{ name: 'v', rbd: { monitors: ['c', 'd'], pool: 'foo', image: 'bar' } }],
);
runTable(
  'ISCSI',
  [{ name: 'v', iscsi: { targetPortal: '127.0.0.1:3260', iqn: 'iqn.2016-12.server:storage.target01', lun: 0 } }],
  [{ name: 'v', iscsi: { targetPortal: '127.0.0.1:3260', iqn: 'iqn.2017-12.server:storage.target01', lun: 0 } }],
);

test('VolumeRestrictions read-only sharing', () => {
  const pl = new VolumeRestrictions();
  const gce = (readOnly: boolean): Volume[] => [{ name: 'v', gcePersistentDisk: { pdName: 'foo', readOnly } }];
  const ebs = (readOnly: boolean): Volume[] => [{ name: 'v', awsElasticBlockStore: { volumeID: 'foo', readOnly } }];
  const rbd = (readOnly: boolean, pool?: string): Volume[] => [{ name: 'v', rbd: { monitors: ['a'], image: 'i', pool, readOnly } }];
  const cases: [string, Volume[], Volume[], boolean][] = [
    ['GCE PD both read-only', gce(true), gce(true), true],
    ['GCE PD one writer', gce(true), gce(false), false],
    ['EBS conflicts even read-only', ebs(true), ebs(true), false],
    ['RBD both read-only', rbd(true), rbd(true), true],
    ['RBD default pool equals rbd', rbd(false), rbd(false, 'rbd'), false],
    ['RBD different pool', rbd(false, 'x'), rbd(false, 'y'), true],
  ];
  for (const [name, a, b, ok] of cases) assert.equal(pl.filter(new CycleState(), pod(a), nodeWith(pod(b))).isSuccess(), ok, name);
});
