/**
 * Service validation as upstream's (1.25) ValidateService, ValidateServiceUpdate and
 * ValidateServiceStatusUpdate: ports, type, session affinity, cluster IPs and IP families,
 * external IPs, load-balancer fields and traffic policies.
 */
import type { Obj } from '../../machinery/object.js';
import { duplicate, type FieldError, forbiddenField, invalid, notSupported, PrintedValue, required } from '../../machinery/status.js';
import { goStringSlice, isQualifiedName, isDNS1123Subdomain, validateLabels } from '../../machinery/validation.js';
import { validatePortNumOrName } from './container-validation.js';
import { isSet, num, numOrNil, type Rec, rec, records, str, strings, strMap } from '../../machinery/fields.js';
import { dns1123LabelErrors, dns1123SubdomainErrors } from './path-validation.js';
import { isHeadless } from './service-defaults.js';
import { isValidIP, isValidPortNum, parseCIDR, parseIP, validateNonSpecialIP } from './value-validation.js';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const INTERNAL_TRAFFIC_POLICIES = ['Cluster', 'Local'];
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;

const slice = (values: string[]): PrintedValue => new PrintedValue(goStringSlice(values, false));

function validateServicePort(port: Rec, requireName: boolean, names: Set<string>, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(port.name);
  if (requireName && !name) errs.push(required(`${fldPath}.name`, ''));
  else if (name) {
    errs.push(...dns1123LabelErrors(name, `${fldPath}.name`));
    if (names.has(name)) errs.push(duplicate(`${fldPath}.name`, name));
    else names.add(name);
  }
  errs.push(...isValidPortNum(num(port.port)).map((m) => invalid(`${fldPath}.port`, num(port.port), m)));
  const protocol = str(port.protocol);
  if (!protocol) errs.push(required(`${fldPath}.protocol`, ''));
  else if (!PROTOCOLS.includes(protocol)) errs.push(notSupported(`${fldPath}.protocol`, protocol, PROTOCOLS));
  errs.push(...validatePortNumOrName(port.targetPort, `${fldPath}.targetPort`));
  if (isSet(port.appProtocol)) errs.push(...isQualifiedName(str(port.appProtocol)).map((m) => invalid(`${fldPath}.appProtocol`, str(port.appProtocol), m)));
  return errs;
}

function validateClientIPAffinityConfig(config: unknown, fldPath: string): FieldError[] {
  const detail = 'when session affinity type is ClientIP';
  if (!isSet(config)) return [required(fldPath, detail)];
  const clientIP = rec(config).clientIP;
  if (!isSet(clientIP)) return [required(`${fldPath}.clientIP`, detail)];
  const timeout = numOrNil(rec(clientIP).timeoutSeconds);
  if (timeout === undefined) return [required(`${fldPath}.clientIP.timeoutSeconds`, detail)];
  if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS) {
    return [invalid(`${fldPath}.clientIP.timeoutSeconds`, timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`)];
  }
  return [];
}

/** Upstream's ValidateServiceClusterIPsRelatedFields. */
function validateClusterIPsRelatedFields(spec: Rec): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const clusterIP = str(spec.clusterIP);
  const clusterIPs = strings(spec.clusterIPs);
  if (clusterIP) {
    if (clusterIPs.length === 0) errs.push(required('spec.clusterIPs', ''));
    else if (clusterIPs[0] !== clusterIP) errs.push(invalid('spec.clusterIPs', slice(clusterIPs), 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) {
    errs.push(invalid('spec.clusterIPs', slice(clusterIPs), 'must be empty when `clusterIP` is not specified'));
  }
  const families = strings(spec.ipFamilies);
  const seen = new Set<string>();
  families.forEach((f, i) => {
    if (!IP_FAMILIES.includes(f)) errs.push(notSupported(`spec.ipFamilies[${i}]`, f, IP_FAMILIES));
    if (seen.has(f)) errs.push(duplicate(`spec.ipFamilies[${i}]`, f));
    seen.add(f);
  });
  if (isSet(spec.ipFamilyPolicy) && !IP_FAMILY_POLICIES.includes(str(spec.ipFamilyPolicy))) {
    errs.push(notSupported('spec.ipFamilyPolicy', str(spec.ipFamilyPolicy), IP_FAMILY_POLICIES));
  }
  let hasInvalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        hasInvalidIPs = true;
        errs.push(invalid('spec.clusterIPs', slice(clusterIPs), "'None' must be the first and only value"));
      }
      return;
    }
    const msgs = isValidIP(ip);
    if (msgs.length > 0) hasInvalidIPs = true;
    errs.push(...msgs.map((m) => invalid(`spec.clusterIPs[${i}]`, ip, m)));
  });
  if (clusterIPs.length > 2) errs.push(invalid('spec.clusterIPs', slice(clusterIPs), 'may only hold up to 2 values'));
  if (hasInvalidIPs) return errs;
  if (clusterIPs.length > 1) {
    const f = clusterIPs.map((ip) => parseIP(ip)?.family);
    if (!(f.includes(4) && f.includes(6))) errs.push(invalid('spec.clusterIPs', slice(clusterIPs), 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(spec) && clusterIPs.length > 0 && families.length > 0) {
    clusterIPs.forEach((ip, i) => {
      if (i > families.length - 1) return;
      const v6 = parseIP(ip)?.family === 6;
      if (families[i] === 'IPv4' && v6) errs.push(invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !v6) errs.push(invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** What this single-stack IPv4 cluster can allocate (upstream's alloc errors, as 422s). */
function validateClusterFamilies(spec: Rec): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const selectorless = Object.keys(rec(spec.selector)).length === 0;
  if (str(spec.ipFamilyPolicy) === 'RequireDualStack' && !(isHeadless(spec) && selectorless)) {
    errs.push(invalid('spec.ipFamilyPolicy', 'RequireDualStack', 'this cluster is not configured for dual-stack services'));
  }
  strings(spec.ipFamilies).forEach((f, i) => {
    if (f === 'IPv6' && !isHeadless(spec)) errs.push(invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'));
  });
  return errs;
}

function servicePortKey(protocol: string, port: number): PrintedValue {
  return new PrintedValue(
    `core.ServicePort{Name:"", Protocol:${JSON.stringify(protocol)}, AppProtocol:(*string)(nil), Port:${port}, ` +
      'TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
  );
}

function validateLoadBalancerFields(svc: Obj, spec: Rec, brandAnnotation: string): FieldError[] {
  const errs: FieldError[] = [];
  const ranges = strings(spec.loadBalancerSourceRanges);
  const annotations = strMap(svc.metadata?.annotations) ?? {};
  if (ranges.length > 0 || brandAnnotation in annotations) {
    const fieldPath = ranges.length > 0 ? 'spec.LoadBalancerSourceRanges' : `metadata.annotations[${brandAnnotation}]`;
    const shown = ranges.length > 0 ? `[${ranges.join(' ')}]` : annotations[brandAnnotation];
    if (spec.type !== 'LoadBalancer') errs.push(forbiddenField(fieldPath, "may only be used when `type` is 'LoadBalancer'"));
    const cidrs = ranges.length > 0 ? ranges : annotations[brandAnnotation].split(',');
    if (cidrs.some((c) => !parseCIDR(c.trim()))) errs.push(invalid(fieldPath, shown, 'must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 '));
  }
  if (isSet(spec.allocateLoadBalancerNodePorts) && spec.type !== 'LoadBalancer') {
    errs.push(forbiddenField('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  if (spec.type === 'LoadBalancer' && !isSet(spec.allocateLoadBalancerNodePorts)) errs.push(required('allocateLoadBalancerNodePorts', ''));
  if (spec.type === 'LoadBalancer') {
    if (isSet(spec.loadBalancerClass)) {
      const cls = str(spec.loadBalancerClass);
      errs.push(...isQualifiedName(cls).map((m) => invalid('spec.loadBalancerClass', cls, m)));
    }
  } else if (isSet(spec.loadBalancerClass)) {
    errs.push(forbiddenField('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

/** Upstream's (1.25) ValidateService (object metadata is the registry's). */
export function validateService(svc: Obj, sourceRangesAnnotation: string): FieldError[] {
  const spec = rec(svc.spec);
  const errs: FieldError[] = [];
  const type = str(spec.type);
  const ports = records(spec.ports);
  if (ports.length === 0 && !isHeadless(spec) && type !== 'ExternalName') errs.push(required('spec.ports', ''));
  const clusterIPs = strings(spec.clusterIPs);
  if (type === 'LoadBalancer' && isHeadless(spec))
    errs.push(invalid('spec.clusterIPs[0]', clusterIPs[0], "may not be set to 'None' for LoadBalancer services"));
  if (type === 'NodePort' && isHeadless(spec)) errs.push(invalid('spec.clusterIPs[0]', clusterIPs[0], "may not be set to 'None' for NodePort services"));
  if (type === 'ExternalName') {
    if (clusterIPs.length > 0) errs.push(forbiddenField('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (strings(spec.ipFamilies).length > 0) errs.push(forbiddenField('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (isSet(spec.ipFamilyPolicy)) errs.push(forbiddenField('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const cname = str(spec.externalName).replace(/\.$/, '');
    if (cname) errs.push(...dns1123SubdomainErrors(cname, 'spec.externalName'));
    else errs.push(required('spec.externalName', ''));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => {
    errs.push(...validateServicePort(p, ports.length > 1, names, `spec.ports[${i}]`));
  });
  if (isSet(spec.selector)) errs.push(...validateLabels(strMap(spec.selector), 'spec.selector'));
  const affinity = str(spec.sessionAffinity);
  if (!affinity) errs.push(required('spec.sessionAffinity', ''));
  else if (!SESSION_AFFINITIES.includes(affinity)) errs.push(notSupported('spec.sessionAffinity', affinity, SESSION_AFFINITIES));
  if (affinity === 'ClientIP') errs.push(...validateClientIPAffinityConfig(spec.sessionAffinityConfig, 'spec.sessionAffinityConfig'));
  else if (affinity === 'None' && isSet(spec.sessionAffinityConfig)) {
    errs.push(forbiddenField('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPsRelatedFields(spec), ...validateClusterFamilies(spec));
  strings(spec.externalIPs).forEach((ip, i) => {
    const msgs = isValidIP(ip);
    if (msgs.length > 0) errs.push(...msgs.map((m) => invalid(`spec.externalIPs[${i}]`, ip, m)));
    else errs.push(...validateNonSpecialIP(ip, `spec.externalIPs[${i}]`));
  });
  if (!type) errs.push(required('spec.type', ''));
  else if (!SERVICE_TYPES.includes(type)) errs.push(notSupported('spec.type', type, SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (num(p.nodePort) !== 0) errs.push(forbiddenField(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (num(p.nodePort) === 0) return;
    const key = `${str(p.protocol)}/${num(p.nodePort)}`;
    if (nodePorts.has(key)) errs.push(duplicate(`spec.ports[${i}].nodePort`, num(p.nodePort)));
    nodePorts.add(key);
  });
  const seenPorts = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${str(p.protocol)}/${num(p.port)}`;
    if (seenPorts.has(key)) errs.push(duplicate(`spec.ports[${i}]`, servicePortKey(str(p.protocol), num(p.port))));
    seenPorts.add(key);
  });
  errs.push(...validateLoadBalancerFields(svc, spec, sourceRangesAnnotation));
  const etp = str(spec.externalTrafficPolicy);
  if (etp && etp !== 'Cluster' && etp !== 'Local')
    errs.push(invalid('spec.externalTrafficPolicy', etp, 'ExternalTrafficPolicy must be empty, Cluster or Local'));
  if (num(spec.healthCheckNodePort) < 0)
    errs.push(invalid('spec.healthCheckNodePort', num(spec.healthCheckNodePort), 'HealthCheckNodePort must be not less than 0'));
  if (!isSet(spec.internalTrafficPolicy) && (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP')) {
    errs.push(required('spec.internalTrafficPolicy', ''));
  }
  if (isSet(spec.internalTrafficPolicy) && !INTERNAL_TRAFFIC_POLICIES.includes(str(spec.internalTrafficPolicy))) {
    errs.push(notSupported('spec.internalTrafficPolicy', str(spec.internalTrafficPolicy), INTERNAL_TRAFFIC_POLICIES));
  }
  return errs;
}

/** A service giving up its secondary cluster IP or family must say SingleStack. */
function singleStackWhenReleasing(spec: Rec, secondary: 'clusterIP' | 'ipFamily'): FieldError[] {
  if (str(spec.ipFamilyPolicy) === 'SingleStack') return [];
  const policy = isSet(spec.ipFamilyPolicy) ? str(spec.ipFamilyPolicy) : null;
  return [invalid('spec.ipFamilyPolicy', policy, `must be set to 'SingleStack' when releasing the secondary ${secondary}`)];
}

/** Upstream's validateUpgradeDowngradeClusterIPs: cluster IPs may not change once set. */
function validateClusterIPsUpdate(spec: Rec, oldSpec: Rec): FieldError[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  if (isHeadless(spec) && isHeadless(oldSpec)) return [];
  const next = strings(spec.clusterIPs);
  const prev = strings(oldSpec.clusterIPs);
  const errs: FieldError[] = [];
  if (prev.length === next.length) {
    prev.forEach((ip, i) => {
      if (ip !== next[i]) errs.push(invalid(`spec.clusterIPs[${i}]`, slice(next), 'may not change once set'));
    });
  } else if (prev.length > next.length) {
    if (next.length === 0) errs.push(invalid('spec.clusterIPs[0]', slice(next), 'primary clusterIP can not be unset'));
    if (prev.length > 0 && next.length > 0 && next[0] !== prev[0]) errs.push(invalid('spec.clusterIPs[0]', slice(next), 'may not change once set'));
    if (next.length === 1) errs.push(...singleStackWhenReleasing(spec, 'clusterIP'));
  } else if (prev.length > 0 && next[0] !== prev[0]) {
    errs.push(invalid('spec.clusterIPs[0]', slice(next), 'may not change once set'));
  }
  return errs;
}

/** Upstream's validateUpgradeDowngradeIPFamilies: families may not change once set. */
function validateIPFamiliesUpdate(spec: Rec, oldSpec: Rec): FieldError[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  if (isHeadless(spec) !== isHeadless(oldSpec) || isHeadless(spec)) return [];
  const next = strings(spec.ipFamilies);
  const prev = strings(oldSpec.ipFamilies);
  const errs: FieldError[] = [];
  if (prev.length === next.length) {
    if (prev.some((f, i) => f !== next[i])) errs.push(invalid('spec.ipFamilies[0]', slice(next), 'may not change once set'));
  } else if (prev.length > next.length) {
    if (strings(spec.clusterIPs).length === 0) errs.push(invalid('spec.ipFamilies[0]', slice(next), 'primary ipFamily can not be unset'));
    if (next.length > 0 && next[0] !== prev[0]) errs.push(invalid('spec.ipFamilies[0]', slice(strings(spec.clusterIPs)), 'may not change once set'));
    if (next.length === 1) errs.push(...singleStackWhenReleasing(spec, 'ipFamily'));
  } else if (prev.length > 0 && next.length > 0 && next[0] !== prev[0]) {
    errs.push(invalid('spec.ipFamilies[0]', slice(strings(spec.clusterIPs)), 'may not change once set'));
  }
  return errs;
}

/** Upstream's (1.25) ValidateServiceUpdate (object metadata is the registry's). */
export function validateServiceUpdate(svc: Obj, old: Obj, sourceRangesAnnotation: string): FieldError[] {
  const spec = rec(svc.spec);
  const oldSpec = rec(old.spec);
  const errs = [...validateClusterIPsUpdate(spec, oldSpec), ...validateIPFamiliesUpdate(spec, oldSpec)];
  if (oldSpec.type === 'LoadBalancer' && spec.type === 'LoadBalancer' && str(oldSpec.loadBalancerClass) !== str(spec.loadBalancerClass)) {
    errs.push(invalid('spec.loadBalancerClass', isSet(spec.loadBalancerClass) ? str(spec.loadBalancerClass) : null, 'may not change once set'));
  }
  errs.push(...validateService(svc, sourceRangesAnnotation));
  return errs;
}

/** Upstream's ValidateLoadBalancerStatus under status.loadBalancer. */
export function validateServiceStatus(svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  records(rec(rec(svc.status).loadBalancer).ingress).forEach((ing, i) => {
    const p = `status.loadBalancer.ingress[${i}]`;
    const ip = str(ing.ip);
    if (ip) errs.push(...isValidIP(ip).map((m) => invalid(`${p}.ip`, ip, m)));
    const hostname = str(ing.hostname);
    if (hostname) {
      errs.push(...isDNS1123Subdomain(hostname).map((m) => invalid(`${p}.hostname`, hostname, m)));
      if (parseIP(hostname)) errs.push(invalid(`${p}.hostname`, hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
