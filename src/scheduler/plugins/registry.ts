/**
 * The in-tree plugins, one line each. Adding a plugin: create plugins/<kebab-name>/ exporting a
 * `factory`, then add one line here (see README.md).
 */
import type { PluginFactory, Registry } from '../framework/registry.js';
import { factory as defaultBinder } from './default-binder/default-binder.js';
import { factory as nodeName } from './node-name/node-name.js';
import { factory as nodeResourcesFit } from './node-resources-fit/fit.js';
import { leastAllocatedFactory, mostAllocatedFactory, requestedToCapacityRatioFactory } from './node-resources-fit/score-plugins.js';
import { factory as nodeUnschedulable } from './node-unschedulable/node-unschedulable.js';
import { factory as prioritySort } from './priority-sort/priority-sort.js';

const entries: [string, PluginFactory][] = [
  ['PrioritySort', prioritySort],
  ['NodeName', nodeName],
  ['NodeUnschedulable', nodeUnschedulable],
  ['NodeResourcesFit', nodeResourcesFit],
  ['NodeResourcesLeastAllocated', leastAllocatedFactory],
  ['NodeResourcesMostAllocated', mostAllocatedFactory],
  ['RequestedToCapacityRatio', requestedToCapacityRatioFactory],
  ['DefaultBinder', defaultBinder],
];

/** Every in-tree plugin by name. */
export const IN_TREE_REGISTRY: Registry = new Map(entries);
