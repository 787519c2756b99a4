/**
 * PersistentVolume and PersistentVolumeClaim defaults as upstream's SetDefaults_PersistentVolume,
 * _PersistentVolumeClaim and _PersistentVolumeClaimSpec, with their quantities canonical.
 */
import type { Obj } from '../../machinery/object.js';
import { canonicalResourceList } from './decoding.js';
import { child, type Rec, rec, str } from '../../machinery/fields.js';

/** SetDefaults_PersistentVolumeClaimSpec: volumeMode Filesystem; requests and limits canonical. */
export function defaultPersistentVolumeClaimSpec(spec: Rec): void {
  if (!str(spec.volumeMode)) spec.volumeMode = 'Filesystem';
  const resources = rec(spec.resources);
  canonicalResourceList(resources.requests);
  canonicalResourceList(resources.limits);
}

/** SetDefaults_PersistentVolumeClaim: phase Pending, and the spec's defaults. */
export function defaultPersistentVolumeClaim(pvc: Obj): void {
  defaultPersistentVolumeClaimSpec(child(pvc, 'spec'));
  const status = child(pvc, 'status');
  if (!str(status.phase)) status.phase = 'Pending';
  canonicalResourceList(status.capacity);
  canonicalResourceList(status.allocatedResources);
}

/** SetDefaults_PersistentVolume: phase Pending, reclaim policy Retain, volumeMode Filesystem. */
export function defaultPersistentVolume(pv: Obj): void {
  const spec = child(pv, 'spec');
  if (!str(spec.persistentVolumeReclaimPolicy)) spec.persistentVolumeReclaimPolicy = 'Retain';
  if (!str(spec.volumeMode)) spec.volumeMode = 'Filesystem';
  canonicalResourceList(spec.capacity);
  const status = child(pv, 'status');
  if (!str(status.phase)) status.phase = 'Pending';
}
