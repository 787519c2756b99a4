/**
 * Pod: defaulted and validated as upstream's v1 defaults and core validation; a new pod starts
 * Pending with its QoS class; `status` and `binding` writes follow their own rules.
 */
import { core } from '../groups.js';
import { text } from '../define.js';
import { pathReader } from '../../machinery/fields.js';
import type { Obj } from '../../machinery/object.js';
import { isPlainObject } from '../../machinery/object.js';
import type { Strategy } from '../types.js';
import { decodingDefaults } from './decoding.js';
import { rec } from '../../machinery/fields.js';
import { defaultPod } from './pod-defaults.js';
import { podQOSClass } from './pod-qos.js';
import { validatePodCreate, validatePodStatusUpdate, validatePodUpdate } from './pod-validation.js';

const podIPs = pathReader('status.podIPs');
const singlePodIP = text('status.podIP');

/** The pod's first IP, as upstream's selectable field reads status.podIPs[0]. */
function podIP(obj: Obj): string {
  const ips = podIPs(obj);
  const first = Array.isArray(ips) && isPlainObject(ips[0]) ? ips[0].ip : undefined;
  if (typeof first === 'string') return first;
  return singlePodIP(obj) ?? '';
}

const podStrategy: Strategy = {
  defaults: decodingDefaults(defaultPod),
  /** Upstream's PrepareForCreate: status is Pending with the pod's QoS class (the registry has reset it). */
  prepareForCreate(obj) {
    obj.status = { phase: 'Pending', qosClass: podQOSClass(rec(obj.spec)) };
  },
  validate: (obj, ctx) => validatePodCreate(obj, ctx.brand),
  validateUpdate(obj, old, ctx) {
    if (ctx.subresource === 'status') return validatePodStatusUpdate(obj, old, ctx.brand);
    return validatePodUpdate(obj, old, ctx.brand);
  },
};

export const pods = core({
  kind: 'Pod',
  plural: 'pods',
  shortNames: ['po'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true, binding: true, eviction: true, log: true, exec: true, attach: true, portforward: true, proxy: true },
  strategy: podStrategy,
  fieldSelectors: {
    'spec.nodeName': text('spec.nodeName'),
    // Old v1 clients send spec.host; upstream converts it to spec.nodeName.
    'spec.host': text('spec.nodeName'),
    'spec.restartPolicy': text('spec.restartPolicy'),
    'spec.schedulerName': text('spec.schedulerName'),
    'spec.serviceAccountName': text('spec.serviceAccountName'),
    'status.phase': text('status.phase'),
    'status.podIP': podIP,
    'status.nominatedNodeName': text('status.nominatedNodeName'),
  },
});
