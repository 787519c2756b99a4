/** GCEPDLimits (Filter): GCE persistent disks per node; 16 by default. */
import type { PluginFactory } from '../../framework/registry.js';
import type { WellKnownNames } from '../../framework/well-known.js';
import { NonCSILimits, type VolumeFilter } from '../node-volume-limits/non-csi.js';

export const NAME = 'GCEPDLimits';
export const DEFAULT_MAX_GCE_PD_VOLUMES = 16;

export function gcePDFilter(names: WellKnownNames): VolumeFilter {
  const provisioner = `${names.labelDomain}/gce-pd`;
  return {
    filterVolume: (v) => v.gcePersistentDisk?.pdName,
    filterPersistentVolume: (pv) => (pv.spec.gcePersistentDisk as { pdName?: string } | undefined)?.pdName,
    matchProvisioner: (sc) => sc.provisioner === provisioner,
    volumeLimitKey: 'attachable-volumes-gce-pd',
    maxVolumes: () => DEFAULT_MAX_GCE_PD_VOLUMES,
  };
}

export const factory: PluginFactory = (_args, handle) => new NonCSILimits(NAME, gcePDFilter(handle.names), handle.listers);
