/**
 * A pod's QoS class as upstream's qos.GetPodQOS: BestEffort without cpu/memory requests or
 * limits, Guaranteed when every container limits both and requests equal limits, else Burstable.
 */
import { quantitySign, scaledValue } from '../../machinery/quantity.js';
import { quantityOf } from './decoding.js';
import { type Rec, rec, records } from '../../machinery/fields.js';

const QOS_RESOURCES = ['cpu', 'memory'];

function addPositive(total: Map<string, bigint>, list: Rec): string[] {
  const found: string[] = [];
  for (const name of QOS_RESOURCES) {
    if (!Object.hasOwn(list, name)) continue;
    const q = quantityOf(list[name]);
    if (quantitySign(q) <= 0) continue;
    found.push(name);
    total.set(name, (total.get(name) ?? 0n) + scaledValue(q, -9));
  }
  return found;
}

/** Upstream's GetPodQOS over a pod spec's containers and init containers. */
export function podQOSClass(spec: Rec): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  for (const c of [...records(spec.containers), ...records(spec.initContainers)]) {
    const resources = rec(c.resources);
    addPositive(requests, rec(resources.requests));
    const found = addPositive(limits, rec(resources.limits));
    if (!QOS_RESOURCES.every((r) => found.includes(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
