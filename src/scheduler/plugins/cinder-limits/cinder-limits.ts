/** CinderLimits (Filter, off by default): OpenStack Cinder volumes per node; 256 by default. */
import type { PluginFactory } from '../../framework/registry.js';
import type { WellKnownNames } from '../../framework/well-known.js';
import { NonCSILimits, type VolumeFilter } from '../node-volume-limits/non-csi.js';

export const NAME = 'CinderLimits';
export const DEFAULT_MAX_CINDER_VOLUMES = 256;

export function cinderFilter(names: WellKnownNames): VolumeFilter {
  const provisioner = `${names.labelDomain}/cinder`;
  return {
    filterVolume: (v) => v.cinder?.volumeID,
    filterPersistentVolume: (pv) => (pv.spec.cinder as { volumeID?: string } | undefined)?.volumeID,
    matchProvisioner: (sc) => sc.provisioner === provisioner,
    volumeLimitKey: 'attachable-volumes-cinder',
    maxVolumes: () => DEFAULT_MAX_CINDER_VOLUMES,
  };
}

export const factory: PluginFactory = (_args, handle) => new NonCSILimits(NAME, cinderFilter(handle.names), handle.listers);
