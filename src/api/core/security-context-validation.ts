/**
 * Pod and container security contexts as upstream's (1.25) validatePodSpecSecurityContext and
 * ValidateSecurityContext: user and group IDs, sysctls, fsGroupChangePolicy, seccomp profiles,
 * procMount, and the privilege-escalation combinations.
 */
import { duplicate, type FieldError, invalid, notSupported, required } from '../../machinery/status.js';
import { isSet, list, numOrNil, type Rec, rec, records, str, strings } from '../../machinery/fields.js';
import { validateLocalDescendingPath } from './path-validation.js';
import { isValidUnixID } from './value-validation.js';

const SYSCTL_SEGMENT_FMT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_FMT = `(${SYSCTL_SEGMENT_FMT}[\\./])*${SYSCTL_SEGMENT_FMT}`;
const SYSCTL_RE = new RegExp(`^${SYSCTL_FMT}$`);
const SYSCTL_MAX_LENGTH = 253;
const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

function idErrors(value: unknown, fldPath: string): FieldError[] {
  const id = numOrNil(value);
  return id === undefined ? [] : isValidUnixID(id).map((m) => invalid(fldPath, id, m));
}

/** Upstream's validateSeccompProfileField. */
function validateSeccompProfile(profile: unknown, fldPath: string): FieldError[] {
  if (!isSet(profile)) return [];
  const sp = rec(profile);
  const type = str(sp.type);
  const errs: FieldError[] = [];
  if (type === '') errs.push(required(`${fldPath}.type`, 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(type)) errs.push(notSupported(`${fldPath}.type`, type, SECCOMP_TYPES));
  if (type === 'Localhost') {
    if (!isSet(sp.localhostProfile)) errs.push(required(`${fldPath}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else errs.push(...validateLocalDescendingPath(str(sp.localhostProfile), `${fldPath}.localhostProfile`));
  } else if (isSet(sp.localhostProfile)) {
    errs.push(invalid(`${fldPath}.localhostProfile`, sp, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

function validateSysctls(sysctls: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  records(sysctls).forEach((s, i) => {
    const name = str(s.name);
    const path = `${fldPath}[${i}].name`;
    if (!name) errs.push(required(path, ''));
    else if (name.length > SYSCTL_MAX_LENGTH || !SYSCTL_RE.test(name)) {
      errs.push(invalid(path, name, `must have at most ${SYSCTL_MAX_LENGTH} characters and match regex ${SYSCTL_FMT}`));
    } else if (names.has(name)) errs.push(duplicate(path, name));
    names.add(name);
  });
  return errs;
}

/** Upstream's validatePodSpecSecurityContext (hostPID and shareProcessNamespace live on the v1 spec). */
export function validatePodSecurityContext(spec: Rec, fldPath: string): FieldError[] {
  if (!isSet(spec.securityContext)) return [];
  const sc = rec(spec.securityContext);
  const errs = [
    ...idErrors(sc.fsGroup, `${fldPath}.fsGroup`),
    ...idErrors(sc.runAsUser, `${fldPath}.runAsUser`),
    ...idErrors(sc.runAsGroup, `${fldPath}.runAsGroup`),
  ];
  list(sc.supplementalGroups).forEach((gid, g) => {
    errs.push(...idErrors(gid, `${fldPath}.supplementalGroups[${g}]`));
  });
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(invalid(`${fldPath}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (records(sc.sysctls).length > 0) errs.push(...validateSysctls(sc.sysctls, `${fldPath}.sysctls`));
  if (isSet(sc.fsGroupChangePolicy)) {
    const policy = str(sc.fsGroupChangePolicy);
    if (policy !== 'Always' && policy !== 'OnRootMismatch') errs.push(notSupported(`${fldPath}.fsGroupChangePolicy`, policy, ['Always', 'OnRootMismatch']));
  }
  errs.push(...validateSeccompProfile(sc.seccompProfile, `${fldPath}.seccompProfile`));
  return errs;
}

/** Upstream's ValidateSecurityContext of one container. */
export function validateContainerSecurityContext(securityContext: unknown, fldPath: string): FieldError[] {
  if (!isSet(securityContext)) return [];
  const sc = rec(securityContext);
  const errs = [...idErrors(sc.runAsUser, `${fldPath}.runAsUser`), ...idErrors(sc.runAsGroup, `${fldPath}.runAsGroup`)];
  if (isSet(sc.procMount)) {
    const procMount = str(sc.procMount);
    if (procMount !== 'Default' && procMount !== 'Unmasked') errs.push(notSupported(`${fldPath}.procMount`, procMount, ['Default', 'Unmasked']));
  }
  errs.push(...validateSeccompProfile(sc.seccompProfile, `${fldPath}.seccompProfile`));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) errs.push(invalid(fldPath, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of strings(rec(sc.capabilities).add)) {
      if (cap === 'CAP_SYS_ADMIN') errs.push(invalid(fldPath, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  return errs;
}
