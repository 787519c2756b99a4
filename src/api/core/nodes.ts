/** Node: the kubelet registers a node with its status, so create keeps it; validated as upstream's. */
import { core } from '../groups.js';
import { flag } from '../define.js';
import { decodingDefaults } from './decoding.js';
import { defaultNode, validateNode, validateNodeUpdate } from './node-validation.js';

export const nodes = core({
  kind: 'Node',
  plural: 'nodes',
  shortNames: ['no'],
  namespaced: false,
  subresources: { status: true, proxy: true },
  behaviour: { keepStatusOnCreate: true },
  strategy: {
    defaults: decodingDefaults(defaultNode),
    validate: (obj) => validateNode(obj),
    // A main-resource update runs the create rules too; a status update only the update rules.
    validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? validateNodeUpdate(obj, old) : [...validateNode(obj), ...validateNodeUpdate(obj, old)]),
  },
  fieldSelectors: { 'spec.unschedulable': flag('spec.unschedulable') },
});
