/** Node: the kubelet registers a node with its status, so create keeps it. */
import { core } from '../groups.js';
import { flag } from '../define.js';

export const nodes = core({
  kind: 'Node',
  plural: 'nodes',
  shortNames: ['no'],
  namespaced: false,
  subresources: { status: true },
  behaviour: { keepStatusOnCreate: true },
  fieldSelectors: { 'spec.unschedulable': flag('spec.unschedulable') },
});
