/**
 * Pod defaulting as upstream's pkg/apis/core/v1 defaults (1.25) and the generated defaulters
 * that walk a PodSpec: SetDefaults_PodSpec, _Container, _ContainerPort, _Probe,
 * _HTTPGetAction, _Volume and the volume sources, _ObjectFieldSelector, _ResourceList, plus
 * the Pod-only SetDefaults_Pod (requests from limits, enableServiceLinks) and the v1 -> internal
 * conversions that fold deprecated fields (serviceAccount, podIP, hostIP).
 * Every function fills absent fields in place and never removes what the client sent.
 */
import type { Obj } from '../../machinery/object.js';
import { canonicalQuantityField, canonicalResourceList } from './decoding.js';
import { child, childRecords, isSet, list, type Rec, rec, str } from '../../machinery/fields.js';
import { imageTag } from './image-reference.js';
import { defaultPersistentVolumeClaimSpec } from './persistent-volume-defaults.js';
import { setOwn } from '../../machinery/own-property.js';

export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
export const TERMINATION_MESSAGE_PATH_DEFAULT = '/dev/termination-log';
const SECRET_VOLUME_DEFAULT_MODE = 0o644;
const CONFIG_MAP_VOLUME_DEFAULT_MODE = 0o644;
const DOWNWARD_API_VOLUME_DEFAULT_MODE = 0o644;
const PROJECTED_VOLUME_DEFAULT_MODE = 0o644;
const SERVICE_ACCOUNT_TOKEN_DEFAULT_EXPIRATION = 3600;

/** Every VolumeSource member, in upstream's struct order (a volume has exactly one). */
export const VOLUME_SOURCE_KEYS = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
] as const;

function setIfAbsent(obj: Rec, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === null || obj[key] === '') obj[key] = value;
}

/** SetDefaults_Probe (and the handler's HTTPGetAction). */
function defaultProbe(probe: Rec): void {
  for (const [key, value] of [
    ['timeoutSeconds', 1],
    ['periodSeconds', 10],
    ['successThreshold', 1],
    ['failureThreshold', 3],
  ] as const) {
    if (!probe[key]) probe[key] = value;
  }
  defaultHandler(probe);
}

/** SetDefaults_HTTPGetAction on a probe or lifecycle handler. */
function defaultHandler(handler: Rec): void {
  const httpGet = handler.httpGet;
  if (typeof httpGet !== 'object' || httpGet === null) return;
  setIfAbsent(httpGet as Rec, 'path', '/');
  setIfAbsent(httpGet as Rec, 'scheme', 'HTTP');
}

/** SetDefaults_Container plus the defaulters of everything a container holds. */
export function defaultContainer(c: Rec): void {
  if (!str(c.imagePullPolicy)) c.imagePullPolicy = imageTag(str(c.image)) === 'latest' ? 'Always' : 'IfNotPresent';
  setIfAbsent(c, 'terminationMessagePath', TERMINATION_MESSAGE_PATH_DEFAULT);
  setIfAbsent(c, 'terminationMessagePolicy', 'File');
  for (const p of childRecords(c, 'ports')) setIfAbsent(p, 'protocol', 'TCP');
  for (const e of childRecords(c, 'env')) {
    const from = rec(e.valueFrom);
    if (typeof from.fieldRef === 'object' && from.fieldRef !== null) setIfAbsent(from.fieldRef as Rec, 'apiVersion', 'v1');
    if (typeof from.resourceFieldRef === 'object' && from.resourceFieldRef !== null) canonicalQuantityField(from.resourceFieldRef as Rec, 'divisor');
  }
  const resources = rec(c.resources);
  canonicalResourceList(resources.limits);
  canonicalResourceList(resources.requests);
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    if (typeof c[key] === 'object' && c[key] !== null) defaultProbe(c[key] as Rec);
  }
  const lifecycle = rec(c.lifecycle);
  for (const key of ['postStart', 'preStop']) {
    if (typeof lifecycle[key] === 'object' && lifecycle[key] !== null) defaultHandler(lifecycle[key] as Rec);
  }
}

function defaultMode(source: unknown, mode: number): void {
  if (typeof source === 'object' && source !== null) setIfAbsent(source as Rec, 'defaultMode', mode);
}

/** SetDefaults_Volume (no source: emptyDir) and the defaults of each volume source. */
export function defaultVolume(v: Rec): void {
  if (!VOLUME_SOURCE_KEYS.some((k) => isSet(v[k]))) v.emptyDir = {};
  if (typeof v.emptyDir === 'object' && v.emptyDir !== null) canonicalQuantityField(v.emptyDir as Rec, 'sizeLimit');
  defaultMode(v.secret, SECRET_VOLUME_DEFAULT_MODE);
  defaultMode(v.configMap, CONFIG_MAP_VOLUME_DEFAULT_MODE);
  defaultMode(v.downwardAPI, DOWNWARD_API_VOLUME_DEFAULT_MODE);
  defaultMode(v.projected, PROJECTED_VOLUME_DEFAULT_MODE);
  if (typeof v.hostPath === 'object' && v.hostPath !== null && (v.hostPath as Rec).type === undefined) (v.hostPath as Rec).type = '';
  for (const item of childRecords(rec(v.downwardAPI), 'items')) defaultDownwardAPIFile(item);
  for (const source of childRecords(rec(v.projected), 'sources')) {
    for (const item of childRecords(rec(source.downwardAPI), 'items')) defaultDownwardAPIFile(item);
    const token = source.serviceAccountToken;
    if (typeof token === 'object' && token !== null) setIfAbsent(token as Rec, 'expirationSeconds', SERVICE_ACCOUNT_TOKEN_DEFAULT_EXPIRATION);
  }
  const iscsi = v.iscsi;
  if (typeof iscsi === 'object' && iscsi !== null) setIfAbsent(iscsi as Rec, 'iscsiInterface', 'default');
  const rbd = v.rbd;
  if (typeof rbd === 'object' && rbd !== null) {
    setIfAbsent(rbd as Rec, 'pool', 'rbd');
    setIfAbsent(rbd as Rec, 'user', 'admin');
    setIfAbsent(rbd as Rec, 'keyring', '/etc/ceph/keyring');
  }
  const azureDisk = v.azureDisk;
  if (typeof azureDisk === 'object' && azureDisk !== null) {
    const d = azureDisk as Rec;
    setIfAbsent(d, 'cachingMode', 'ReadWrite');
    setIfAbsent(d, 'kind', 'Shared');
    setIfAbsent(d, 'fsType', 'ext4');
    if (d.readOnly === undefined) d.readOnly = false;
  }
  const scaleIO = v.scaleIO;
  if (typeof scaleIO === 'object' && scaleIO !== null) {
    setIfAbsent(scaleIO as Rec, 'storageMode', 'ThinProvisioned');
    setIfAbsent(scaleIO as Rec, 'fsType', 'xfs');
  }
  const template = rec(rec(v.ephemeral).volumeClaimTemplate);
  if (typeof template.spec === 'object' && template.spec !== null) defaultPersistentVolumeClaimSpec(template.spec as Rec);
}

function defaultDownwardAPIFile(item: Rec): void {
  if (typeof item.fieldRef === 'object' && item.fieldRef !== null) setIfAbsent(item.fieldRef as Rec, 'apiVersion', 'v1');
  if (typeof item.resourceFieldRef === 'object' && item.resourceFieldRef !== null) canonicalQuantityField(item.resourceFieldRef as Rec, 'divisor');
}

/** With host networking every container port is also a host port (1.25: part of SetDefaults_PodSpec). */
function defaultHostNetworkPorts(containers: Rec[]): void {
  for (const c of containers) {
    for (const p of childRecords(c, 'ports')) if (!p.hostPort) p.hostPort = p.containerPort;
  }
}

/** Upstream's SetDefaults_PodSpec and the defaulters of its containers and volumes. */
export function defaultPodSpec(spec: Rec): void {
  setIfAbsent(spec, 'dnsPolicy', 'ClusterFirst');
  setIfAbsent(spec, 'restartPolicy', 'Always');
  if (typeof spec.securityContext !== 'object' || spec.securityContext === null) spec.securityContext = {};
  if (typeof spec.terminationGracePeriodSeconds !== 'number') spec.terminationGracePeriodSeconds = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  setIfAbsent(spec, 'schedulerName', DEFAULT_SCHEDULER_NAME);
  // The v1 field serviceAccount is the deprecated spelling of serviceAccountName.
  if (!str(spec.serviceAccountName) && str(spec.serviceAccount)) spec.serviceAccountName = spec.serviceAccount;
  if (str(spec.serviceAccountName)) spec.serviceAccount = spec.serviceAccountName;
  const containers = childRecords(spec, 'containers');
  const initContainers = childRecords(spec, 'initContainers');
  if (spec.hostNetwork === true) {
    defaultHostNetworkPorts(containers);
    defaultHostNetworkPorts(initContainers);
  }
  for (const c of [...containers, ...initContainers, ...childRecords(spec, 'ephemeralContainers')]) defaultContainer(c);
  for (const v of childRecords(spec, 'volumes')) defaultVolume(v);
  canonicalResourceList(spec.overhead);
}

/** Defaults of a PodTemplateSpec (PodTemplate, ReplicationController, workloads): its spec only. */
export function defaultPodTemplateSpec(template: Rec): void {
  defaultPodSpec(child(template, 'spec'));
}

/** Requests default to limits for each resource the container limits but does not request. */
function defaultRequestsFromLimits(c: Rec): void {
  const resources = rec(c.resources);
  const limits = resources.limits;
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) return;
  const requests = child(resources, 'requests');
  for (const [k, v] of Object.entries(limits)) if (!Object.hasOwn(requests, k)) setOwn(requests, k, v);
}

/** Upstream's SetObjectDefaults_Pod: the spec's defaults, then the Pod-only ones. */
export function defaultPod(pod: Obj): void {
  const spec = child(pod, 'spec');
  defaultPodSpec(spec);
  for (const c of [...childRecords(spec, 'containers'), ...childRecords(spec, 'initContainers')]) defaultRequestsFromLimits(c);
  if (typeof spec.enableServiceLinks !== 'boolean') spec.enableServiceLinks = true;
  defaultPodStatusIPs(rec(pod.status));
}

/** Upstream's v1 PodStatus conversion: podIP and podIPs agree, podIP winning when they differ. */
function defaultPodStatusIPs(status: Rec): void {
  const podIP = str(status.podIP);
  const ips = list(status.podIPs);
  if (podIP && (ips.length === 0 || str(rec(ips[0]).ip) !== podIP)) status.podIPs = [{ ip: podIP }];
  else if (ips.length > 0) status.podIP = str(rec(ips[0]).ip);
}
