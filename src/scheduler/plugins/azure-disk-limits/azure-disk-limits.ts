/** AzureDiskLimits (Filter): Azure data disks per node; 16 by default. */
import type { PluginFactory } from '../../framework/registry.js';
import type { WellKnownNames } from '../../framework/well-known.js';
import { NonCSILimits, type VolumeFilter } from '../node-volume-limits/non-csi.js';

export const NAME = 'AzureDiskLimits';
export const DEFAULT_MAX_AZURE_DISK_VOLUMES = 16;

export function azureDiskFilter(names: WellKnownNames): VolumeFilter {
  const provisioner = `${names.labelDomain}/azure-disk`;
  return {
    filterVolume: (v) => v.azureDisk?.diskName,
    filterPersistentVolume: (pv) => (pv.spec.azureDisk as { diskName?: string } | undefined)?.diskName,
    matchProvisioner: (sc) => sc.provisioner === provisioner,
    volumeLimitKey: 'attachable-volumes-azure-disk',
    maxVolumes: () => DEFAULT_MAX_AZURE_DISK_VOLUMES,
  };
}

export const factory: PluginFactory = (_args, handle) => new NonCSILimits(NAME, azureDiskFilter(handle.names), handle.listers);
