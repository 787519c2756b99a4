/** Pod: a new pod starts Pending. */
import { core } from '../groups.js';
import { text, valueAt } from '../define.js';
import type { Obj } from '../../machinery/object.js';
import { isPlainObject } from '../../machinery/object.js';
import type { Strategy } from '../types.js';

/** The pod's first IP, as upstream's selectable field reads status.podIPs[0]. */
function podIP(obj: Obj): string {
  const ips = valueAt(obj, 'status.podIPs');
  const first = Array.isArray(ips) && isPlainObject(ips[0]) ? ips[0].ip : undefined;
  if (typeof first === 'string') return first;
  return text('status.podIP')(obj) ?? '';
}

const podStrategy: Strategy = {
  /** Sets status.phase Pending unless already set (the registry has reset status). */
  prepareForCreate(obj) {
    const status = isPlainObject(obj.status) ? obj.status : {};
    if (typeof status.phase !== 'string' || status.phase === '') status.phase = 'Pending';
    obj.status = status;
  },
};

export const pods = core({
  kind: 'Pod',
  plural: 'pods',
  shortNames: ['po'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
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
