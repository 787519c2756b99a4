/**
 * Service defaulting: upstream's SetDefaults_Service (type, session affinity, port protocol and
 * target port, traffic policies), and the strategy's bookkeeping of clusterIP/clusterIPs and
 * the IP-family fields the service REST fills before validation (normalizeClusterIPs,
 * patchAllocatedValues, initIPFamilyFields on this single-stack IPv4 cluster).
 */
import type { Obj } from '../../machinery/object.js';
import { child, childRecords, isSet, list, type Rec, rec, str, strings } from '../../machinery/fields.js';
import { parseIP } from './value-validation.js';

/** Upstream's DefaultClientIPServiceAffinitySeconds (3 hours). */
const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;

/** Upstream's SetDefaults_Service. */
export function defaultService(svc: Obj): void {
  const spec = child(svc, 'spec');
  if (!str(spec.sessionAffinity)) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const timeout = rec(rec(spec.sessionAffinityConfig).clientIP).timeoutSeconds;
    if (!isSet(timeout)) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_AFFINITY_SECONDS } };
  }
  if (!str(spec.type)) spec.type = 'ClusterIP';
  for (const port of childRecords(spec, 'ports')) {
    if (!str(port.protocol)) port.protocol = 'TCP';
    if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }
  const type = spec.type;
  if ((type === 'NodePort' || type === 'LoadBalancer') && !str(spec.externalTrafficPolicy)) spec.externalTrafficPolicy = 'Cluster';
  if (!isSet(spec.internalTrafficPolicy) && (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP')) spec.internalTrafficPolicy = 'Cluster';
  if (type === 'LoadBalancer' && !isSet(spec.allocateLoadBalancerNodePorts)) spec.allocateLoadBalancerNodePorts = true;
}

function sameClusterIPs(a: Rec, b: Rec): boolean {
  return JSON.stringify(strings(a.clusterIPs)) === JSON.stringify(strings(b.clusterIPs));
}

/** Upstream's normalizeClusterIPs: an old client's singular clusterIP and the list agree. */
export function normalizeClusterIPs(spec: Rec, oldSpec: Rec | undefined): void {
  if (oldSpec === undefined) {
    if (str(spec.clusterIP) && list(spec.clusterIPs).length === 0) spec.clusterIPs = [spec.clusterIP];
    return;
  }
  if (list(oldSpec.clusterIPs).length > 0 && list(spec.clusterIPs).length === 0 && str(oldSpec.clusterIP) === str(spec.clusterIP)) {
    spec.clusterIPs = oldSpec.clusterIPs;
  }
  if (str(oldSpec.clusterIP) !== str(spec.clusterIP)) {
    if (str(oldSpec.clusterIP) && !str(spec.clusterIP)) {
      if (sameClusterIPs(oldSpec, spec)) delete spec.clusterIPs;
    } else if (sameClusterIPs(oldSpec, spec)) {
      spec.clusterIPs = [spec.clusterIP];
    }
  }
}

const needsNodePort = (spec: Rec): boolean => spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);

/** Upstream's patchAllocatedValues: an update that omits allocated values keeps them. */
export function patchAllocatedValues(spec: Rec, oldSpec: Rec): void {
  if (spec.type !== 'ExternalName' && oldSpec.type !== 'ExternalName') {
    if (!str(spec.clusterIP) && str(oldSpec.clusterIP)) spec.clusterIP = oldSpec.clusterIP;
    if (list(spec.clusterIPs).length === 0 && list(oldSpec.clusterIPs).length > 0) spec.clusterIPs = oldSpec.clusterIPs;
  }
  if (needsNodePort(oldSpec) && needsNodePort(spec)) {
    const portsOf = (s: Rec) => new Set(childRecords(s, 'ports').map((p) => p.nodePort));
    const newUsed = portsOf(spec);
    const used = new Set([...portsOf(oldSpec)].filter((p) => newUsed.has(p)));
    const byName = new Map(childRecords(oldSpec, 'ports').map((p) => [str(p.name), p.nodePort]));
    for (const p of childRecords(spec, 'ports')) {
      if (p.nodePort) continue;
      const oldValue = byName.get(str(p.name));
      if (oldValue && !used.has(oldValue)) p.nodePort = oldValue;
    }
  }
  const needsHealthCheck = (s: Rec) => s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';
  if (needsHealthCheck(oldSpec) && needsHealthCheck(spec) && !spec.healthCheckNodePort) spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
}

/** True for a service whose only cluster IP is None. */
export function isHeadless(spec: Rec): boolean {
  const ips = strings(spec.clusterIPs);
  return ips.length === 1 && ips[0] === 'None';
}

/** Upstream's initIPFamilyFields on a single-stack IPv4 cluster: policy and families default. */
export function defaultIPFamilies(spec: Rec): void {
  if (spec.type === 'ExternalName') return;
  const selectorless = Object.keys(rec(spec.selector)).length === 0;
  if (!isSet(spec.ipFamilyPolicy)) spec.ipFamilyPolicy = isHeadless(spec) && selectorless ? 'RequireDualStack' : 'SingleStack';
  if (list(spec.ipFamilies).length === 0) {
    const families = strings(spec.clusterIPs)
      .filter((ip) => ip !== 'None')
      .map((ip) => (parseIP(ip)?.family === 6 ? 'IPv6' : 'IPv4'));
    spec.ipFamilies = families.length > 0 ? families : ['IPv4'];
  }
}
