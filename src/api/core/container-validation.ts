/**
 * Container validation as upstream's (1.25) validateContainers, validateInitContainers and
 * validateEphemeralContainers: names, image, probes and lifecycle handlers, ports, env, mounts
 * and devices, pull policy, resources and security context, and host-port conflicts.
 */
import { duplicate, type FieldError, fieldNotFound, forbiddenField, invalid, notSupported, required } from '../../machinery/status.js';
import { validateEnv, validateEnvFrom } from './env-validation.js';
import { isSet, list, num, numOrNil, type Rec, rec, records, str } from '../../machinery/fields.js';
import { dns1123LabelErrors, validateLocalDescendingPath, validatePathNoBacksteps } from './path-validation.js';
import { validateResourceRequirements } from './resource-validation.js';
import { validateContainerSecurityContext } from './security-context-validation.js';
import { isHTTPHeaderName, isValidPortName, isValidPortNum, validateNonnegativeField } from './value-validation.js';
import { isClaimVolume } from './volume-validation.js';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];

/** Upstream's ValidatePortNumOrName on an IntOrString (absent reads as the integer 0). */
export function validatePortNumOrName(port: unknown, fldPath: string): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(fldPath, port, m));
  const n = num(port);
  return isValidPortNum(n).map((m) => invalid(fldPath, n, m));
}

function validateContainerPorts(ports: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  records(ports).forEach((port, i) => {
    const idxPath = `${fldPath}[${i}]`;
    const name = str(port.name);
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) errs.push(...msgs.map((m) => invalid(`${idxPath}.name`, name, m)));
      else if (names.has(name)) errs.push(duplicate(`${idxPath}.name`, name));
      else names.add(name);
    }
    const containerPort = num(port.containerPort);
    if (containerPort === 0) errs.push(required(`${idxPath}.containerPort`, ''));
    else errs.push(...isValidPortNum(containerPort).map((m) => invalid(`${idxPath}.containerPort`, containerPort, m)));
    const hostPort = num(port.hostPort);
    if (hostPort !== 0) errs.push(...isValidPortNum(hostPort).map((m) => invalid(`${idxPath}.hostPort`, hostPort, m)));
    const protocol = str(port.protocol);
    if (!protocol) errs.push(required(`${idxPath}.protocol`, ''));
    else if (!PROTOCOLS.includes(protocol)) errs.push(notSupported(`${idxPath}.protocol`, protocol, PROTOCOLS));
  });
  return errs;
}

function validateHTTPGetAction(http: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(http.path)) errs.push(required(`${fldPath}.path`, ''));
  errs.push(...validatePortNumOrName(http.port, `${fldPath}.port`));
  const scheme = str(http.scheme);
  if (scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push(notSupported(`${fldPath}.scheme`, scheme, ['HTTP', 'HTTPS']));
  for (const header of records(http.httpHeaders)) {
    errs.push(...isHTTPHeaderName(str(header.name)).map((m) => invalid(`${fldPath}.httpHeaders`, str(header.name), m)));
  }
  return errs;
}

const HANDLER_TYPES: ReadonlyArray<[key: string, validate: (h: Rec, p: string) => FieldError[]]> = [
  ['exec', (h, p) => (list(h.command).length === 0 ? [required(`${p}.command`, '')] : [])],
  ['httpGet', validateHTTPGetAction],
  ['tcpSocket', (h, p) => validatePortNumOrName(h.port, `${p}.port`)],
  ['grpc', (h, p) => validatePortNumOrName(num(h.port), `${p}.port`)],
];

/** Upstream's validateHandler: exactly one handler type (grpc only for probes). */
function validateHandler(handler: Rec, fldPath: string, allowGRPC: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let numHandlers = 0;
  for (const [key, validate] of HANDLER_TYPES) {
    if (!isSet(handler[key]) || (key === 'grpc' && !allowGRPC)) continue;
    if (numHandlers > 0) {
      errs.push(forbiddenField(`${fldPath}.${key}`, 'may not specify more than 1 handler type'));
      continue;
    }
    numHandlers++;
    errs.push(...validate(rec(handler[key]), `${fldPath}.${key}`));
  }
  if (numHandlers === 0) errs.push(required(fldPath, 'must specify a handler type'));
  return errs;
}

function validateProbe(probe: unknown, fldPath: string): FieldError[] {
  if (!isSet(probe)) return [];
  const p = rec(probe);
  const errs = validateHandler(p, fldPath, true);
  for (const key of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...validateNonnegativeField(num(p[key]), `${fldPath}.${key}`));
  }
  const grace = numOrNil(p.terminationGracePeriodSeconds);
  if (grace !== undefined && grace <= 0) errs.push(invalid(`${fldPath}.terminationGracePeriodSeconds`, grace, 'must be greater than 0'));
  return errs;
}

function validateLifecycle(lifecycle: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['postStart', 'preStop']) {
    if (isSet(lifecycle[key])) errs.push(...validateHandler(rec(lifecycle[key]), `${fldPath}.${key}`, false));
  }
  return errs;
}

function validatePullPolicy(policy: string, fldPath: string): FieldError[] {
  if (PULL_POLICIES.includes(policy)) return [];
  return policy === '' ? [required(fldPath, '')] : [notSupported(fldPath, policy, PULL_POLICIES)];
}

function validateVolumeMounts(c: Rec, volumes: ReadonlyMap<string, Rec>, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const devices = new Map(records(c.volumeDevices).map((d) => [str(d.name), str(d.devicePath)]));
  const devicePaths = new Set(devices.values());
  const mountPoints = new Set<string>();
  const privileged = rec(c.securityContext).privileged === true;
  records(c.volumeMounts).forEach((mnt, i) => {
    const idxPath = `${fldPath}[${i}]`;
    const name = str(mnt.name);
    const mountPath = str(mnt.mountPath);
    if (!name) errs.push(required(`${idxPath}.name`, ''));
    if (!volumes.has(name)) errs.push(fieldNotFound(`${idxPath}.name`, name));
    if (!mountPath) errs.push(required(`${idxPath}.mountPath`, ''));
    if (mountPoints.has(mountPath)) errs.push(invalid(`${idxPath}.mountPath`, mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (devices.has(name)) errs.push(invalid(`${idxPath}.name`, name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath)) errs.push(invalid(`${idxPath}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = str(mnt.subPath);
    const subPathExpr = str(mnt.subPathExpr);
    // Upstream reports these under the list's path, not the mount's.
    if (subPath) errs.push(...validateLocalDescendingPath(subPath, `${fldPath}.subPath`));
    if (subPathExpr) {
      if (subPath) errs.push(invalid(`${idxPath}.subPathExpr`, subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(subPathExpr, `${fldPath}.subPathExpr`));
    }
    if (isSet(mnt.mountPropagation)) {
      const mode = str(mnt.mountPropagation);
      const path = `${fldPath}.mountPropagation`;
      if (!MOUNT_PROPAGATIONS.includes(mode)) errs.push(notSupported(path, mode, MOUNT_PROPAGATIONS));
      if (mode === 'Bidirectional' && !privileged)
        errs.push(forbiddenField(path, 'Bidirectional mount propagation is available only to privileged containers'));
    }
  });
  return errs;
}

function validateVolumeDevices(c: Rec, volumes: ReadonlyMap<string, Rec>, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const mounts = new Map(records(c.volumeMounts).map((m) => [str(m.name), str(m.mountPath)]));
  const mountPaths = new Set(mounts.values());
  const devicePaths = new Set<string>();
  const deviceNames = new Set<string>();
  records(c.volumeDevices).forEach((dev, i) => {
    const idxPath = `${fldPath}[${i}]`;
    const name = str(dev.name);
    const devicePath = str(dev.devicePath);
    const volume = volumes.get(name);
    if (!name) errs.push(required(`${idxPath}.name`, ''));
    if (deviceNames.has(name)) errs.push(invalid(`${idxPath}.name`, name, 'must be unique'));
    if (volume !== undefined && !isClaimVolume(volume)) {
      errs.push(invalid(`${idxPath}.name`, name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (volume === undefined) errs.push(fieldNotFound(`${idxPath}.name`, name));
    if (!devicePath) errs.push(required(`${idxPath}.devicePath`, ''));
    if (devicePaths.has(devicePath)) errs.push(invalid(`${idxPath}.devicePath`, devicePath, 'must be unique'));
    if (devicePath && validatePathNoBacksteps(devicePath, '').length > 0)
      errs.push(invalid(`${idxPath}.devicePath`, devicePath, "can not contain backsteps ('..')"));
    else devicePaths.add(devicePath);
    if (mounts.has(name)) errs.push(invalid(`${idxPath}.name`, name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(devicePath)) errs.push(invalid(`${idxPath}.devicePath`, devicePath, 'must not already exist as a path in volumeMounts'));
    if (name) deviceNames.add(name);
  });
  return errs;
}

/** Upstream's AccumulateUniqueHostPorts: a protocol/hostIP/hostPort may be used once. */
function checkHostPortConflicts(containers: readonly Rec[], indexes: readonly number[], fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, k) => {
    records(c.ports).forEach((p, pi) => {
      const hostPort = num(p.hostPort);
      if (hostPort === 0) return;
      const key = `${str(p.protocol)}/${str(p.hostIP)}/${hostPort}`;
      if (seen.has(key)) errs.push(duplicate(`${fldPath}[${indexes[k]}].ports[${pi}].hostPort`, key));
      else seen.add(key);
    });
  });
  return errs;
}

/** A container's name: required, a DNS-1123 label. */
function validateContainerName(c: Rec, idxPath: string): FieldError[] {
  const name = str(c.name);
  return name ? dns1123LabelErrors(name, `${idxPath}.name`) : [required(`${idxPath}.name`, '')];
}

/** The rest of a container's checks, after the name and its uniqueness. */
function validateContainerBody(c: Rec, volumes: ReadonlyMap<string, Rec>, idxPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(c.image)) errs.push(required(`${idxPath}.image`, ''));
  if (isSet(c.lifecycle)) errs.push(...validateLifecycle(rec(c.lifecycle), `${idxPath}.lifecycle`));
  errs.push(...validateProbe(c.livenessProbe, `${idxPath}.livenessProbe`));
  const readiness = rec(c.readinessProbe);
  if (isSet(c.readinessProbe) && isSet(readiness.terminationGracePeriodSeconds)) {
    errs.push(
      invalid(`${idxPath}.readinessProbe.terminationGracePeriodSeconds`, readiness.terminationGracePeriodSeconds, 'must not be set for readinessProbes'),
    );
  }
  errs.push(...validateProbe(c.startupProbe, `${idxPath}.startupProbe`));
  for (const key of ['livenessProbe', 'startupProbe']) {
    const threshold = num(rec(c[key]).successThreshold);
    if (isSet(c[key]) && threshold !== 1) errs.push(invalid(`${idxPath}.${key}.successThreshold`, threshold, 'must be 1'));
  }
  const policy = str(c.terminationMessagePolicy);
  if (!policy) errs.push(required(`${idxPath}.terminationMessagePolicy`, "must be 'File' or 'FallbackToLogsOnError'"));
  else if (policy !== 'File' && policy !== 'FallbackToLogsOnError') {
    errs.push(invalid(`${idxPath}.terminationMessagePolicy`, policy, "must be 'File' or 'FallbackToLogsOnError'"));
  }
  errs.push(...validateProbe(c.readinessProbe, `${idxPath}.readinessProbe`));
  errs.push(...validateContainerPorts(c.ports, `${idxPath}.ports`));
  errs.push(...validateEnv(c.env, `${idxPath}.env`));
  errs.push(...validateEnvFrom(c.envFrom, `${idxPath}.envFrom`));
  errs.push(...validateVolumeMounts(c, volumes, `${idxPath}.volumeMounts`));
  errs.push(...validateVolumeDevices(c, volumes, `${idxPath}.volumeDevices`));
  errs.push(...validatePullPolicy(str(c.imagePullPolicy), `${idxPath}.imagePullPolicy`));
  errs.push(...validateResourceRequirements(c.resources, `${idxPath}.resources`));
  errs.push(...validateContainerSecurityContext(c.securityContext, `${idxPath}.securityContext`));
  return errs;
}

/** Upstream's validateContainers (regular or init): at least one, unique names, each valid. */
export function validateContainers(containers: unknown, volumes: ReadonlyMap<string, Rec>, fldPath: string, init: boolean): FieldError[] {
  const items = records(containers);
  if (items.length === 0) return [required(fldPath, '')];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  items.forEach((c, i) => {
    const idxPath = `${fldPath}[${i}]`;
    errs.push(...validateContainerName(c, idxPath));
    if (names.has(str(c.name))) errs.push(duplicate(`${idxPath}.name`, str(c.name)));
    else names.add(str(c.name));
    errs.push(...validateContainerBody(c, volumes, idxPath));
  });
  // Init containers run one at a time, so only a container's own ports may collide.
  if (init)
    items.forEach((c, i) => {
      errs.push(...checkHostPortConflicts([c], [i], fldPath));
    });
  else
    errs.push(
      ...checkHostPortConflicts(
        items,
        items.map((_, i) => i),
        fldPath,
      ),
    );
  return errs;
}

/** Upstream's validateInitContainers: names unique across all containers; no probes or lifecycle. */
export function validateInitContainers(containers: unknown, regular: unknown, volumes: ReadonlyMap<string, Rec>, fldPath: string): FieldError[] {
  const items = records(containers);
  const errs = items.length > 0 ? validateContainers(items, volumes, fldPath, true) : [];
  const names = new Set(records(regular).map((c) => str(c.name)));
  items.forEach((c, i) => {
    const idxPath = `${fldPath}[${i}]`;
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(`${idxPath}.name`, name));
    if (name) names.add(name);
    for (const key of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (isSet(c[key])) errs.push(invalid(`${idxPath}.${key}`, c[key], 'must not be set for init containers'));
    }
  });
  return errs;
}

/** The fields an ephemeral container may set (upstream's allowedEphemeralContainerFields). */
const EPHEMERAL_ALLOWED = new Set([
  'name',
  'image',
  'command',
  'args',
  'workingDir',
  'envFrom',
  'env',
  'volumeMounts',
  'volumeDevices',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'imagePullPolicy',
  'securityContext',
  'stdin',
  'stdinOnce',
  'tty',
  'targetContainerName',
]);

/** Upstream's validateEphemeralContainers. */
export function validateEphemeralContainers(
  ephemeral: unknown,
  containers: unknown,
  initContainers: unknown,
  volumes: ReadonlyMap<string, Rec>,
  fldPath: string,
): FieldError[] {
  const items = records(ephemeral);
  const errs: FieldError[] = [];
  if (items.length === 0) return errs;
  const otherNames = new Set([...records(containers), ...records(initContainers)].map((c) => str(c.name)));
  const allNames = new Set(otherNames);
  items.forEach((ec, i) => {
    const idxPath = `${fldPath}[${i}]`;
    const name = str(ec.name);
    errs.push(...validateContainerName(ec, idxPath));
    if (allNames.has(name)) errs.push(duplicate(`${idxPath}.name`, name));
    else allNames.add(name);
    const target = str(ec.targetContainerName);
    if (target && !otherNames.has(target)) errs.push(fieldNotFound(`${idxPath}.targetContainerName`, target));
    for (const key of Object.keys(ec)) {
      if (!EPHEMERAL_ALLOWED.has(key) && isSet(ec[key])) errs.push(forbiddenField(`${idxPath}.${key}`, 'cannot be set for an Ephemeral Container'));
    }
    records(ec.volumeMounts).forEach((vm, j) => {
      if (str(vm.subPath)) errs.push(forbiddenField(`${idxPath}.volumeMounts[${j}].subPath`, 'cannot be set for an Ephemeral Container'));
      if (str(vm.subPathExpr)) errs.push(forbiddenField(`${idxPath}.volumeMounts[${j}].subPathExpr`, 'cannot be set for an Ephemeral Container'));
    });
    errs.push(
      ...validateContainerBody({ ...ec, lifecycle: undefined, livenessProbe: undefined, readinessProbe: undefined, startupProbe: undefined }, volumes, idxPath),
    );
  });
  return errs;
}

/** Upstream's validateContainersOnlyForPod: a pod's images may not carry surrounding spaces. */
export function validateContainersOnlyForPod(containers: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  records(containers).forEach((c, i) => {
    const image = str(c.image);
    if (image.length !== image.trim().length) errs.push(invalid(`${fldPath}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return errs;
}
