/**
 * The in-tree plugins, one line each. Adding a plugin: create plugins/<kebab-name>/ exporting a
 * `factory`, then add one line here (see README.md).
 */
import type { PluginFactory, Registry } from '../framework/registry.js';
import { factory as defaultBinder } from './default-binder/default-binder.js';
import { factory as defaultPreemption } from './default-preemption/default-preemption.js';
import { factory as nodeName } from './node-name/node-name.js';
import { factory as nodeResourcesFit } from './node-resources-fit/fit.js';
import { leastAllocatedFactory, mostAllocatedFactory, requestedToCapacityRatioFactory } from './node-resources-fit/score-plugins.js';
import { factory as nodeUnschedulable } from './node-unschedulable/node-unschedulable.js';
import { factory as prioritySort } from './priority-sort/priority-sort.js';
import { factory as imageLocality } from './image-locality/image-locality.js';
import { factory as nodeAffinity } from './node-affinity/node-affinity.js';
import { factory as nodeLabel } from './node-label/node-label.js';
import { factory as nodePorts } from './node-ports/node-ports.js';
import { factory as nodePreferAvoidPods } from './node-prefer-avoid-pods/node-prefer-avoid-pods.js';
import { factory as nodeResourcesBalancedAllocation } from './node-resources-balanced-allocation/balanced-allocation.js';
import { factory as taintToleration } from './taint-toleration/taint-toleration.js';
import { factory as azureDiskLimits } from './azure-disk-limits/azure-disk-limits.js';
import { factory as cinderLimits } from './cinder-limits/cinder-limits.js';
import { factory as ebsLimits } from './ebs-limits/ebs-limits.js';
import { factory as gcePDLimits } from './gce-pd-limits/gce-pd-limits.js';
import { factory as nodeVolumeLimits } from './node-volume-limits/node-volume-limits.js';
import { factory as volumeBinding } from './volume-binding/volume-binding.js';
import { factory as volumeRestrictions } from './volume-restrictions/volume-restrictions.js';
import { factory as volumeZone } from './volume-zone/volume-zone.js';
import { factory as interPodAffinity } from './inter-pod-affinity/inter-pod-affinity.js';
import { factory as podTopologySpread } from './pod-topology-spread/pod-topology-spread.js';
import { factory as serviceAffinity } from './service-affinity/service-affinity.js';

const entries: [string, PluginFactory][] = [
  ['PrioritySort', prioritySort],
  ['NodeName', nodeName],
  ['NodeUnschedulable', nodeUnschedulable],
  ['NodeResourcesFit', nodeResourcesFit],
  ['NodeResourcesLeastAllocated', leastAllocatedFactory],
  ['NodeResourcesMostAllocated', mostAllocatedFactory],
  ['RequestedToCapacityRatio', requestedToCapacityRatioFactory],
  ['DefaultPreemption', defaultPreemption],
  ['NodePorts', nodePorts],
  ['NodeResourcesBalancedAllocation', nodeResourcesBalancedAllocation],
  ['ImageLocality', imageLocality],
  ['NodePreferAvoidPods', nodePreferAvoidPods],
  ['TaintToleration', taintToleration],
  ['NodeAffinity', nodeAffinity],
  ['NodeLabel', nodeLabel],
  ['VolumeRestrictions', volumeRestrictions],
  ['VolumeZone', volumeZone],
  ['VolumeBinding', volumeBinding],
  ['NodeVolumeLimits', nodeVolumeLimits],
  ['EBSLimits', ebsLimits],
  ['GCEPDLimits', gcePDLimits],
  ['AzureDiskLimits', azureDiskLimits],
  ['CinderLimits', cinderLimits],
  ['InterPodAffinity', interPodAffinity],
  ['PodTopologySpread', podTopologySpread],
  ['ServiceAffinity', serviceAffinity],
  ['DefaultBinder', defaultBinder],
];

/** Every in-tree plugin by name. */
export const IN_TREE_REGISTRY: Registry = new Map(entries);
