import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { Code } from '../../framework/status.js';
import type { Volume } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';
import { defaultPlugins } from '../../config/defaults.js';
import { NonCSILimits } from '../node-volume-limits/non-csi.js';
import * as f from '../node-volume-limits/testing.js';
import { cinderFilter, DEFAULT_MAX_CINDER_VOLUMES, NAME } from './cinder-limits.js';

const KEY = 'attachable-volumes-cinder';
const cinder = (id: string): Volume => ({ name: id, cinder: { volumeID: id } });

test('CinderLimits counts Cinder volumes and bound PVCs; allocatable overrides 256', () => {
  const c = f.fakeCluster('Cinder', 'orch.io/cinder');
  c.addObject(c.persistentVolumes, { metadata: { name: 'cinder-pv' }, spec: { cinder: { volumeID: 'c1' } } }, false);
  c.addObject(c.persistentVolumeClaims, { metadata: { name: 'cinder-claim', namespace: 'default' }, spec: { volumeName: 'cinder-pv' } }, true);
  const pl = new NonCSILimits(NAME, cinderFilter(ORCH_NAMES), c, 'prefix', -1);
  const existing = [f.podWithVolumes(cinder('c1'))];
  const cases: [string, ReturnType<typeof f.podWithVolumes>, number, boolean][] = [
    ['the PVC bound to an attached volume is free', f.pvcPod('cinder-claim'), 1, true],
    ['a new volume over the limit', f.podWithVolumes(cinder('c2')), 1, false],
    ['unbound claim of a Cinder class counts', f.pvcPod('unboundPVC'), 1, false],
    ['within the limit', f.podWithVolumes(cinder('c2'), cinder('c3')), 3, true],
  ];
  for (const [name, pod, max, fits] of cases) {
    assert.equal(pl.filter(new CycleState(), pod, f.nodeWithLimit(KEY, max, existing)).isSuccess(), fits, name);
  }
  assert.equal(DEFAULT_MAX_CINDER_VOLUMES, 256);
});

test('CinderLimits is off by default, the other three on', () => {
  const filters = defaultPlugins().filter.map((e) => e.name);
  assert.ok(!filters.includes(NAME));
  for (const n of ['EBSLimits', 'GCEPDLimits', 'AzureDiskLimits', 'NodeVolumeLimits']) assert.ok(filters.includes(n), n);
  assert.equal(pl0().filter(new CycleState(), f.podWithVolumes(), f.nodeWithLimit(KEY, 0, [])).code, Code.Success);
});

const pl0 = () => new NonCSILimits(NAME, cinderFilter(ORCH_NAMES), f.fakeCluster('Cinder', ''), 'prefix', -1);
