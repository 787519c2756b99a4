/** EBSLimits (Filter): AWS EBS volumes per node; 39 by default, 25 on Nitro instance types. */
import type { PluginFactory } from '../../framework/registry.js';
import type { WellKnownNames } from '../../framework/well-known.js';
import { NonCSILimits, nodeInstanceType, type VolumeFilter } from '../node-volume-limits/non-csi.js';

export const NAME = 'EBSLimits';
export const DEFAULT_MAX_EBS_VOLUMES = 39;
export const DEFAULT_MAX_EBS_NITRO_VOLUMES = 25;
/** volumeutil.EBSNitroLimitRegex: instance families on the Nitro system share attachments with NICs. */
const NITRO = /^[cmr]5.*|t3|z1d/;

export function ebsFilter(names: WellKnownNames): VolumeFilter {
  const provisioner = `${names.labelDomain}/aws-ebs`;
  return {
    filterVolume: (v) => v.awsElasticBlockStore?.volumeID,
    filterPersistentVolume: (pv) => (pv.spec.awsElasticBlockStore as { volumeID?: string } | undefined)?.volumeID,
    matchProvisioner: (sc) => sc.provisioner === provisioner,
    volumeLimitKey: 'attachable-volumes-aws-ebs',
    maxVolumes: (node) => (NITRO.test(nodeInstanceType(node, names)) ? DEFAULT_MAX_EBS_NITRO_VOLUMES : DEFAULT_MAX_EBS_VOLUMES),
  };
}

export const factory: PluginFactory = (_args, handle) => new NonCSILimits(NAME, ebsFilter(handle.names), handle.listers);
