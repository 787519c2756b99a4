/**
 * The aggregator's view of a stored APIService: what routing, probing and discovery read,
 * parsed once per change of the object (never per request).
 */
import type { Obj } from '../../machinery/object.js';
import { metaOf } from '../../machinery/object.js';
import { bool, isSet, num, rec, records, str } from '../../machinery/fields.js';

export interface ServiceReference {
  namespace: string;
  name: string;
  port: number;
}

export interface APIServiceView {
  name: string;
  group: string;
  version: string;
  groupPriorityMinimum: number;
  versionPriority: number;
  /** Absent: served by this server (Local). */
  service?: ServiceReference;
  /** PEM decoded from spec.caBundle; absent: the system's roots. */
  caPem?: string;
  insecureSkipTLSVerify: boolean;
  /** The Available condition is True. */
  available: boolean;
  labels: Readonly<Record<string, string>>;
}

/** The Available condition of an APIService, if it has one. */
export function availableCondition(obj: Obj): Record<string, unknown> | undefined {
  return records(rec(obj.status).conditions).find((c) => c.type === 'Available');
}

export function viewOf(obj: Obj): APIServiceView {
  const spec = rec(obj.spec);
  const meta = metaOf(obj);
  const caBundle = str(spec.caBundle);
  const service = isSet(spec.service) ? rec(spec.service) : undefined;
  return {
    name: meta.name ?? '',
    group: str(spec.group),
    version: str(spec.version),
    groupPriorityMinimum: num(spec.groupPriorityMinimum),
    versionPriority: num(spec.versionPriority),
    service: service ? { namespace: str(service.namespace), name: str(service.name), port: isSet(service.port) ? num(service.port) : 443 } : undefined,
    caPem: caBundle === '' ? undefined : Buffer.from(caBundle, 'base64').toString('utf8'),
    insecureSkipTLSVerify: bool(spec.insecureSkipTLSVerify),
    available: availableCondition(obj)?.status === 'True',
    labels: meta.labels ?? {},
  };
}

/** The discovery path an APIService's server must answer (upstream's availability check URL path). */
export function discoveryPath(s: Pick<APIServiceView, 'name' | 'group' | 'version'>): string {
  return s.name === 'v1.' ? `/api/${s.version}` : `/apis/${s.group}/${s.version}`;
}
