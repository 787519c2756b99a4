/**
 * Pod validation as upstream's (1.25) ValidatePodSpec, ValidatePodTemplateSpec,
 * ValidatePodCreate, ValidatePodUpdate, ValidatePodStatusUpdate and ValidatePodBinding.
 * Object metadata is the registry's; these report everything under `spec`, `status` and the
 * pod-specific annotations.
 */
import type { Brand } from '../../machinery/brand.js';
import { validateAnnotations } from '../../machinery/object-meta-validation.js';
import type { Obj } from '../../machinery/object.js';
import { duplicate, type FieldError, forbiddenField, invalid, notSupported, PrintedValue, required } from '../../machinery/status.js';
import { goStringSlice, isQualifiedName, nameIsDNSSubdomain, validateLabels } from '../../machinery/validation.js';
import { validateContainers, validateContainersOnlyForPod, validateEphemeralContainers, validateInitContainers } from './container-validation.js';
import { isSet, list, num, numOrNil, type Rec, rec, records, str, strings, strMap } from '../../machinery/fields.js';
import { dns1123LabelErrors, dns1123SubdomainErrors } from './path-validation.js';
import { validateResourceRequirements } from './resource-validation.js';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './scheduling-validation.js';
import { validatePodSecurityContext } from './security-context-validation.js';
import { semanticEqual, specDiff } from './semantic.js';
import { inclusiveRangeError, isValidIP, parseIP } from './value-validation.js';
import { validateVolumes } from './volume-validation.js';

const MAX_INT32 = 2 ** 31 - 1;
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const MAX_DNS_NAMESERVERS = 3;
const MAX_DNS_SEARCH_PATHS = 6;
const MAX_DNS_SEARCH_LIST_CHARS = 256;

function validateEnum(value: string, valid: readonly string[], fldPath: string): FieldError[] {
  if (valid.includes(value)) return [];
  return value === '' ? [required(fldPath, '')] : [notSupported(fldPath, value, [...valid])];
}

function validateDNSConfig(spec: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const hasConfig = isSet(spec.dnsConfig);
  const config = rec(spec.dnsConfig);
  const nameservers = strings(config.nameservers);
  if (str(spec.dnsPolicy) === 'None') {
    if (!hasConfig) return [required(fldPath, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (nameservers.length === 0) return [required(`${fldPath}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!hasConfig) return errs;
  if (nameservers.length > MAX_DNS_NAMESERVERS) {
    errs.push(invalid(`${fldPath}.nameservers`, new PrintedValue(goStringSlice(nameservers)), `must not have more than ${MAX_DNS_NAMESERVERS} nameservers`));
  }
  nameservers.forEach((ns, i) => {
    if (!parseIP(ns)) errs.push(invalid(`${fldPath}.nameservers[${i}]`, ns, 'must be valid IP address'));
  });
  const searches = strings(config.searches);
  if (searches.length > MAX_DNS_SEARCH_PATHS) {
    errs.push(invalid(`${fldPath}.searches`, new PrintedValue(goStringSlice(searches)), `must not have more than ${MAX_DNS_SEARCH_PATHS} search paths`));
  }
  if (searches.join(' ').length > MAX_DNS_SEARCH_LIST_CHARS) {
    errs.push(
      invalid(
        `${fldPath}.searches`,
        new PrintedValue(goStringSlice(searches)),
        `must not have more than ${MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list`,
      ),
    );
  }
  searches.forEach((s, i) => {
    errs.push(...dns1123SubdomainErrors(s.endsWith('.') ? s.slice(0, -1) : s, `${fldPath}.searches[${i}]`));
  });
  records(config.options).forEach((o, i) => {
    if (!str(o.name)) errs.push(required(`${fldPath}.options[${i}]`, 'must not be empty'));
  });
  return errs;
}

/** 1.25's validateHostNetwork (part of the pod security context rules): host ports equal container ports. */
function validateHostNetwork(spec: Rec, fldPath: string): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  records(spec.containers).forEach((c, i) => {
    records(c.ports).forEach((p, j) => {
      if (num(p.hostPort) !== num(p.containerPort)) {
        errs.push(invalid(`${fldPath}.containers[${i}].ports[${j}].containerPort`, num(p.containerPort), 'must match `hostPort` when `hostNetwork` is true'));
      }
    });
  });
  return errs;
}

function validateImagePullSecrets(secrets: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  records(secrets).forEach((s, i) => {
    if (Object.keys(s).some((k) => k !== 'name' && isSet(s[k]))) {
      errs.push(invalid(`${fldPath}[${i}]`, new PrintedValue(`core.LocalObjectReference{Name:${JSON.stringify(str(s.name))}}`), 'only name may be set'));
    }
  });
  return errs;
}

function validateHostAliases(aliases: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  records(aliases).forEach((a, i) => {
    if (!parseIP(str(a.ip))) errs.push(invalid(`${fldPath}[${i}].ip`, str(a.ip), 'must be valid IP address'));
    strings(a.hostnames).forEach((h, j) => {
      errs.push(...dns1123SubdomainErrors(h, `${fldPath}[${i}].hostnames[${j}]`));
    });
  });
  return errs;
}

function nameErrors(value: string, fldPath: string): FieldError[] {
  return nameIsDNSSubdomain(value, false).map((m) => invalid(fldPath, value, m));
}

/**
 * Upstream's ValidatePodSpec at fldPath (e.g. `spec`, `spec.template.spec`). podName is the
 * pod's own name when the spec belongs to a Pod (generic ephemeral volumes name their claims
 * after it); omit it for templates.
 */
export function validatePodSpec(spec: Rec, fldPath: string, podName = ''): FieldError[] {
  const { volumes, errors } = validateVolumes(spec.volumes, podName, `${fldPath}.volumes`);
  const errs = [...errors];
  errs.push(...validateContainers(spec.containers, volumes, `${fldPath}.containers`, false));
  errs.push(...validateInitContainers(spec.initContainers, spec.containers, volumes, `${fldPath}.initContainers`));
  errs.push(...validateEphemeralContainers(spec.ephemeralContainers, spec.containers, spec.initContainers, volumes, `${fldPath}.ephemeralContainers`));
  errs.push(...validateEnum(str(spec.restartPolicy), RESTART_POLICIES, `${fldPath}.restartPolicy`));
  errs.push(...validateEnum(str(spec.dnsPolicy), DNS_POLICIES, `${fldPath}.dnsPolicy`));
  errs.push(...validateLabels(strMap(spec.nodeSelector), `${fldPath}.nodeSelector`));
  if (isSet(spec.securityContext)) {
    errs.push(...validatePodSecurityContext(spec, `${fldPath}.securityContext`), ...validateHostNetwork(spec, fldPath));
  }
  errs.push(...validateImagePullSecrets(spec.imagePullSecrets, `${fldPath}.imagePullSecrets`));
  errs.push(...validateAffinity(spec.affinity, `${fldPath}.affinity`));
  errs.push(...validateDNSConfig(spec, `${fldPath}.dnsConfig`));
  records(spec.readinessGates).forEach((g, i) => {
    const path = `${fldPath}.readinessGates[${i}].conditionType`;
    errs.push(...isQualifiedName(str(g.conditionType)).map((m) => invalid(path, str(g.conditionType), m)));
  });
  errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, `${fldPath}.topologySpreadConstraints`));
  if (str(spec.serviceAccountName)) errs.push(...nameErrors(str(spec.serviceAccountName), `${fldPath}.serviceAccountName`));
  if (str(spec.nodeName)) errs.push(...nameErrors(str(spec.nodeName), `${fldPath}.nodeName`));
  const deadline = numOrNil(spec.activeDeadlineSeconds);
  if (deadline !== undefined && (deadline < 1 || deadline > MAX_INT32)) {
    errs.push(invalid(`${fldPath}.activeDeadlineSeconds`, deadline, inclusiveRangeError(1, MAX_INT32)));
  }
  if (str(spec.hostname)) errs.push(...dns1123LabelErrors(str(spec.hostname), `${fldPath}.hostname`));
  if (str(spec.subdomain)) errs.push(...dns1123LabelErrors(str(spec.subdomain), `${fldPath}.subdomain`));
  if (list(spec.tolerations).length > 0) errs.push(...validateTolerations(spec.tolerations, `${fldPath}.tolerations`));
  if (list(spec.hostAliases).length > 0) errs.push(...validateHostAliases(spec.hostAliases, `${fldPath}.hostAliases`));
  if (str(spec.priorityClassName)) errs.push(...nameErrors(str(spec.priorityClassName), `${fldPath}.priorityClassName`));
  if (isSet(spec.runtimeClassName)) errs.push(...nameErrors(str(spec.runtimeClassName), `${fldPath}.runtimeClassName`));
  if (isSet(spec.preemptionPolicy)) {
    errs.push(...validateEnum(str(spec.preemptionPolicy), ['PreemptLowerPriority', 'Never'], `${fldPath}.preemptionPolicy`));
  }
  if (isSet(spec.overhead)) errs.push(...validateResourceRequirements({ limits: spec.overhead }, `${fldPath}.overhead`));
  if (isSet(spec.os)) {
    const name = str(rec(spec.os).name);
    if (!name) errs.push(required(`${fldPath}.os.name`, 'cannot be empty'));
    else if (name !== 'linux' && name !== 'windows') errs.push(notSupported(`${fldPath}.os`, name, ['linux', 'windows']));
  }
  return errs;
}

/** Upstream's ValidatePodTemplateSpec at fldPath (e.g. `template`, `spec.template`). */
export function validatePodTemplateSpec(template: Rec, fldPath: string): FieldError[] {
  const meta = rec(template.metadata);
  const errs = [...validateLabels(strMap(meta.labels), `${fldPath}.labels`), ...validateAnnotations(strMap(meta.annotations), `${fldPath}.annotations`)];
  errs.push(...validatePodSpec(rec(template.spec), `${fldPath}.spec`));
  if (list(rec(template.spec).ephemeralContainers).length > 0) {
    errs.push(forbiddenField(`${fldPath}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/** The annotation that marks a kubelet's mirror of a static pod (kubernetes.io/config.mirror upstream). */
export function mirrorPodAnnotation(brand: Brand): string {
  return `${brand.labelDomain}/config.mirror`;
}

function validatePodSpecificAnnotations(pod: Obj, brand: Brand): FieldError[] {
  const key = mirrorPodAnnotation(brand);
  const annotations = strMap(pod.metadata?.annotations) ?? {};
  if (key in annotations && !str(rec(pod.spec).nodeName)) {
    return [invalid(`metadata.annotations[${key}]`, annotations[key], 'must set spec.nodeName if mirror pod annotation is set')];
  }
  return [];
}

function validatePodSpecificAnnotationUpdates(pod: Obj, old: Obj, brand: Brand): FieldError[] {
  const key = mirrorPodAnnotation(brand);
  const next = strMap(pod.metadata?.annotations) ?? {};
  const prev = strMap(old.metadata?.annotations) ?? {};
  const errs: FieldError[] = [];
  if (key in prev && next[key] !== prev[key]) errs.push(forbiddenField(`metadata.annotations[${key}]`, 'may not remove or update mirror pod annotation'));
  if (key in next && !(key in prev)) errs.push(forbiddenField(`metadata.annotations[${key}]`, 'may not add mirror pod annotation'));
  errs.push(...validatePodSpecificAnnotations(pod, brand));
  return errs;
}

/** Upstream's validatePodMetadataAndSpec (without ObjectMeta, which the registry validates). */
function validatePodMetadataAndSpec(pod: Obj, brand: Brand): FieldError[] {
  const spec = rec(pod.spec);
  const errs = [...validatePodSpecificAnnotations(pod, brand), ...validatePodSpec(spec, 'spec', str(pod.metadata?.name))];
  if (!str(spec.serviceAccountName)) {
    records(spec.volumes).forEach((v, vi) => {
      records(rec(v.projected).sources).forEach((s, si) => {
        if (isSet(s.serviceAccountToken)) {
          errs.push(
            forbiddenField(`spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`, 'must not be specified when serviceAccountName is not set'),
          );
        }
      });
    });
  }
  errs.push(...validateContainersOnlyForPod(spec.containers, 'spec.containers'));
  errs.push(...validateContainersOnlyForPod(spec.initContainers, 'spec.initContainers'));
  return errs;
}

/** Upstream's ValidatePodCreate. */
export function validatePodCreate(pod: Obj, brand: Brand): FieldError[] {
  const errs = validatePodMetadataAndSpec(pod, brand);
  if (list(rec(pod.spec).ephemeralContainers).length > 0) errs.push(forbiddenField('spec.ephemeralContainers', 'cannot be set on create'));
  return errs;
}

function validateContainerUpdates(next: unknown, prev: unknown, fldPath: string): { errs: FieldError[]; stop: boolean } {
  const a = records(next);
  if (a.length !== records(prev).length) return { errs: [forbiddenField(fldPath, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  a.forEach((c, i) => {
    const image = str(c.image);
    if (!image) errs.push(required(`${fldPath}[${i}].image`, ''));
    if (image.trim().length !== image.length) errs.push(invalid(`${fldPath}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** Upstream's validateOnlyAddedTolerations: existing tolerations stay (tolerationSeconds may change). */
function validateOnlyAddedTolerations(next: unknown, prev: unknown, fldPath: string): FieldError[] {
  const added = records(next);
  for (const old of records(prev)) {
    const found = added.some((t) => semanticEqual({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!found) return [forbiddenField(fldPath, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(next, fldPath);
}

const UPDATABLE_FIELDS_MESSAGE =
  'pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, ' +
  '`spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** Upstream's (1.25) ValidatePodUpdate. */
export function validatePodUpdate(pod: Obj, old: Obj, brand: Brand): FieldError[] {
  const errs = [...validatePodMetadataAndSpec(pod, brand), ...validatePodSpecificAnnotationUpdates(pod, old, brand)];
  const spec = rec(pod.spec);
  const oldSpec = rec(old.spec);
  for (const key of ['containers', 'initContainers']) {
    const { errs: containerErrs, stop } = validateContainerUpdates(spec[key], oldSpec[key], `spec.${key}`);
    errs.push(...containerErrs);
    if (stop) return errs;
  }
  const deadline = numOrNil(spec.activeDeadlineSeconds);
  const oldDeadline = numOrNil(oldSpec.activeDeadlineSeconds);
  if (deadline !== undefined) {
    if (deadline < 0 || deadline > MAX_INT32) {
      errs.push(invalid('spec.activeDeadlineSeconds', deadline, inclusiveRangeError(0, MAX_INT32)));
      return errs;
    }
    if (oldDeadline !== undefined && oldDeadline < deadline) {
      errs.push(invalid('spec.activeDeadlineSeconds', deadline, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (oldDeadline !== undefined) {
    errs.push(invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(spec.tolerations, oldSpec.tolerations, 'spec.tolerations'));
  // The fields an update may change take their old values; anything else that differs is refused.
  const munged: Rec = structuredClone(spec);
  for (const key of ['containers', 'initContainers']) {
    const prev = records(oldSpec[key]);
    munged[key] = records(munged[key]).map((c, i) => ({ ...c, image: prev[i]?.image }));
  }
  munged.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds;
  munged.tolerations = oldSpec.tolerations;
  const oldGrace = numOrNil(oldSpec.terminationGracePeriodSeconds);
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (!semanticEqual(munged, oldSpec)) errs.push(forbiddenField('spec', `${UPDATABLE_FIELDS_MESSAGE}\n${specDiff('core.PodSpec', oldSpec, munged)}`));
  return errs;
}

const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);

function validateContainerStateTransition(next: unknown, prev: unknown, fldPath: string, restartPolicy: string): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  const nextStatuses = records(next);
  records(prev).forEach((old, i) => {
    const terminated = rec(old.state).terminated;
    if (!isSet(terminated)) return;
    if (num(rec(terminated).exitCode) !== 0 && restartPolicy === 'OnFailure') return;
    for (const n of nextStatuses) {
      if (str(n.name) === str(old.name) && !isSet(rec(n.state).terminated)) {
        errs.push(forbiddenField(`${fldPath}[${i}].state`, 'may not be transitioned to non-terminated state'));
      }
    }
  });
  return errs;
}

function validatePodIPs(status: Rec): FieldError[] {
  const errs: FieldError[] = [];
  const ips = records(status.podIPs);
  ips.forEach((p, i) => {
    errs.push(...isValidIP(str(p.ip)).map((m) => invalid(`status.podIPs[${i}]`, str(p.ip), m)));
  });
  if (ips.length > 1) {
    const families = ips.map((p) => parseIP(str(p.ip))?.family);
    const dualStack = families.includes(4) && families.includes(6);
    if (!dualStack || ips.length > 2) {
      errs.push(
        invalid(
          'status.podIPs',
          new PrintedValue(`[]core.PodIP{${ips.map((p) => `core.PodIP{IP:${JSON.stringify(str(p.ip))}}`).join(', ')}}`),
          'may specify no more than one IP for each IP family',
        ),
      );
    }
    const seen = new Set<string>();
    ips.forEach((p, i) => {
      if (seen.has(str(p.ip))) errs.push(duplicate(`status.podIPs[${i}]`, new PrintedValue(`core.PodIP{IP:${JSON.stringify(str(p.ip))}}`)));
      seen.add(str(p.ip));
    });
  }
  return errs;
}

/** Upstream's (1.25) ValidatePodStatusUpdate. */
export function validatePodStatusUpdate(pod: Obj, old: Obj, brand: Brand): FieldError[] {
  const errs = validatePodSpecificAnnotationUpdates(pod, old, brand);
  const status = rec(pod.status);
  const oldStatus = rec(old.status);
  records(status.conditions).forEach((c, i) => {
    const type = str(c.type);
    // Upstream reports custom condition types under metadata (sic).
    if (!SYSTEM_CONDITIONS.has(type)) errs.push(...isQualifiedName(type).map((m) => invalid(`metadata.conditions[${i}].Type`, type, m)));
  });
  if (str(rec(pod.spec).nodeName) !== str(rec(old.spec).nodeName)) errs.push(forbiddenField('status.nodeName', 'may not be changed directly'));
  const nominated = str(status.nominatedNodeName);
  if (nominated && nominated !== str(oldStatus.nominatedNodeName)) errs.push(...nameErrors(nominated, 'status.nominatedNodeName'));
  const restartPolicy = str(rec(old.spec).restartPolicy);
  errs.push(...validateContainerStateTransition(status.containerStatuses, oldStatus.containerStatuses, 'status.containerStatuses', restartPolicy));
  errs.push(...validateContainerStateTransition(status.initContainerStatuses, oldStatus.initContainerStatuses, 'status.initContainerStatuses', restartPolicy));
  errs.push(
    ...validateContainerStateTransition(status.ephemeralContainerStatuses, oldStatus.ephemeralContainerStatuses, 'status.ephemeralContainerStatuses', 'Never'),
  );
  errs.push(...validatePodIPs(status));
  return errs;
}

/** Upstream's ValidatePodBinding: the target is a Node (or unspecified kind) with a name. */
export function validatePodBinding(binding: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const target = rec(binding.target);
  const kind = str(target.kind);
  if (kind !== '' && kind !== 'Node') errs.push(notSupported('target.kind', kind, ['Node', '<empty>']));
  if (!str(target.name)) errs.push(required('target.name', ''));
  return errs;
}
