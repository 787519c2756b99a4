/**
 * Which Protobuf message serializes which apiVersion/kind. Adding a type is: add its message to
 * a .proto under ./proto/ (and the file to PACKAGE_FILES in proto-root.ts for a new package)
 * and one line to REGISTRY.
 *
 * Lookup is by group *stem* + version + kind, so a branded group matches under either brand
 * (`events.orch.io/v1` and `events.k8s.io/v1` are both stem `events`); the core group is ''.
 * Kind-only lines ('*') serve the meta types every group version carries (Status, DeleteOptions).
 */
import type protobuf from 'protobufjs';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import { UnsupportedProtobufType } from './errors.js';
import { protoRootFor } from './proto-root.js';

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const CORE = 'k8s.io.api.core.v1';
const ADMISSIONREGISTRATION = 'k8s.io.api.admissionregistration.v1';
const APIEXTENSIONS = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';
const APIREGISTRATION = 'k8s.io.kube_aggregator.pkg.apis.apiregistration.v1';
const APPS = 'k8s.io.api.apps.v1';
const AUTHENTICATION = 'k8s.io.api.authentication.v1';
const AUTHORIZATION = 'k8s.io.api.authorization.v1';
const AUTOSCALING = 'k8s.io.api.autoscaling.v1';
const AUTOSCALING_V2 = 'k8s.io.api.autoscaling.v2';
const AUTOSCALING_V2BETA2 = 'k8s.io.api.autoscaling.v2beta2';
const BATCH = 'k8s.io.api.batch.v1';
const CERTIFICATES = 'k8s.io.api.certificates.v1';
const COORDINATION = 'k8s.io.api.coordination.v1';
const DISCOVERY = 'k8s.io.api.discovery.v1';
const EVENTS = 'k8s.io.api.events.v1';
const EXTENSIONS_V1BETA1 = 'k8s.io.api.extensions.v1beta1';
const FLOWCONTROL_V1BETA1 = 'k8s.io.api.flowcontrol.v1beta1';
const FLOWCONTROL_V1BETA2 = 'k8s.io.api.flowcontrol.v1beta2';
const NETWORKING = 'k8s.io.api.networking.v1';
const NODE = 'k8s.io.api.node.v1';
const POLICY = 'k8s.io.api.policy.v1';
const POLICY_V1BETA1 = 'k8s.io.api.policy.v1beta1';
const RBAC = 'k8s.io.api.rbac.v1';
const SCHEDULING = 'k8s.io.api.scheduling.v1';
const STORAGE = 'k8s.io.api.storage.v1';

/** [group stem ('' = core, '*' = any), version ('*' = any), kind, fully qualified message]. */
const REGISTRY: ReadonlyArray<readonly [string, string, string, string]> = [
  ['', 'v1', 'Binding', `${CORE}.Binding`],
  ['', 'v1', 'ComponentStatus', `${CORE}.ComponentStatus`],
  ['', 'v1', 'ComponentStatusList', `${CORE}.ComponentStatusList`],
  ['', 'v1', 'ConfigMap', `${CORE}.ConfigMap`],
  ['', 'v1', 'ConfigMapList', `${CORE}.ConfigMapList`],
  ['', 'v1', 'Endpoints', `${CORE}.Endpoints`],
  ['', 'v1', 'EndpointsList', `${CORE}.EndpointsList`],
  ['', 'v1', 'Event', `${CORE}.Event`],
  ['', 'v1', 'EventList', `${CORE}.EventList`],
  ['', 'v1', 'LimitRange', `${CORE}.LimitRange`],
  ['', 'v1', 'LimitRangeList', `${CORE}.LimitRangeList`],
  ['', 'v1', 'Namespace', `${CORE}.Namespace`],
  ['', 'v1', 'NamespaceList', `${CORE}.NamespaceList`],
  ['', 'v1', 'Node', `${CORE}.Node`],
  ['', 'v1', 'NodeList', `${CORE}.NodeList`],
  ['', 'v1', 'PersistentVolumeClaim', `${CORE}.PersistentVolumeClaim`],
  ['', 'v1', 'PersistentVolumeClaimList', `${CORE}.PersistentVolumeClaimList`],
  ['', 'v1', 'PersistentVolume', `${CORE}.PersistentVolume`],
  ['', 'v1', 'PersistentVolumeList', `${CORE}.PersistentVolumeList`],
  ['', 'v1', 'Pod', `${CORE}.Pod`],
  ['', 'v1', 'PodList', `${CORE}.PodList`],
  ['', 'v1', 'PodTemplate', `${CORE}.PodTemplate`],
  ['', 'v1', 'PodTemplateList', `${CORE}.PodTemplateList`],
  ['', 'v1', 'ReplicationController', `${CORE}.ReplicationController`],
  ['', 'v1', 'ReplicationControllerList', `${CORE}.ReplicationControllerList`],
  ['', 'v1', 'ResourceQuota', `${CORE}.ResourceQuota`],
  ['', 'v1', 'ResourceQuotaList', `${CORE}.ResourceQuotaList`],
  ['', 'v1', 'Secret', `${CORE}.Secret`],
  ['', 'v1', 'SecretList', `${CORE}.SecretList`],
  ['', 'v1', 'ServiceAccount', `${CORE}.ServiceAccount`],
  ['', 'v1', 'ServiceAccountList', `${CORE}.ServiceAccountList`],
  ['', 'v1', 'Service', `${CORE}.Service`],
  ['', 'v1', 'ServiceList', `${CORE}.ServiceList`],
  ['admissionregistration', 'v1', 'MutatingWebhookConfiguration', `${ADMISSIONREGISTRATION}.MutatingWebhookConfiguration`],
  ['admissionregistration', 'v1', 'MutatingWebhookConfigurationList', `${ADMISSIONREGISTRATION}.MutatingWebhookConfigurationList`],
  ['admissionregistration', 'v1', 'ValidatingWebhookConfiguration', `${ADMISSIONREGISTRATION}.ValidatingWebhookConfiguration`],
  ['admissionregistration', 'v1', 'ValidatingWebhookConfigurationList', `${ADMISSIONREGISTRATION}.ValidatingWebhookConfigurationList`],
  ['apiextensions', 'v1', 'CustomResourceDefinition', `${APIEXTENSIONS}.CustomResourceDefinition`],
  ['apiextensions', 'v1', 'CustomResourceDefinitionList', `${APIEXTENSIONS}.CustomResourceDefinitionList`],
  ['apiregistration', 'v1', 'APIService', `${APIREGISTRATION}.APIService`],
  ['apiregistration', 'v1', 'APIServiceList', `${APIREGISTRATION}.APIServiceList`],
  ['apps', 'v1', 'ControllerRevision', `${APPS}.ControllerRevision`],
  ['apps', 'v1', 'ControllerRevisionList', `${APPS}.ControllerRevisionList`],
  ['apps', 'v1', 'DaemonSet', `${APPS}.DaemonSet`],
  ['apps', 'v1', 'DaemonSetList', `${APPS}.DaemonSetList`],
  ['apps', 'v1', 'Deployment', `${APPS}.Deployment`],
  ['apps', 'v1', 'DeploymentList', `${APPS}.DeploymentList`],
  ['apps', 'v1', 'ReplicaSet', `${APPS}.ReplicaSet`],
  ['apps', 'v1', 'ReplicaSetList', `${APPS}.ReplicaSetList`],
  ['apps', 'v1', 'StatefulSet', `${APPS}.StatefulSet`],
  ['apps', 'v1', 'StatefulSetList', `${APPS}.StatefulSetList`],
  ['authentication', 'v1', 'TokenRequest', `${AUTHENTICATION}.TokenRequest`],
  ['authentication', 'v1', 'TokenReview', `${AUTHENTICATION}.TokenReview`],
  ['authentication', 'v1', 'SelfSubjectReview', `${AUTHENTICATION}.SelfSubjectReview`],
  ['authentication', 'v1beta1', 'SelfSubjectReview', 'k8s.io.api.authentication.v1beta1.SelfSubjectReview'],
  ['authentication', 'v1alpha1', 'SelfSubjectReview', 'k8s.io.api.authentication.v1alpha1.SelfSubjectReview'],
  ['authorization', 'v1', 'LocalSubjectAccessReview', `${AUTHORIZATION}.LocalSubjectAccessReview`],
  ['authorization', 'v1', 'SelfSubjectAccessReview', `${AUTHORIZATION}.SelfSubjectAccessReview`],
  ['authorization', 'v1', 'SelfSubjectRulesReview', `${AUTHORIZATION}.SelfSubjectRulesReview`],
  ['authorization', 'v1', 'SubjectAccessReview', `${AUTHORIZATION}.SubjectAccessReview`],
  ['autoscaling', 'v1', 'HorizontalPodAutoscaler', `${AUTOSCALING}.HorizontalPodAutoscaler`],
  ['autoscaling', 'v1', 'HorizontalPodAutoscalerList', `${AUTOSCALING}.HorizontalPodAutoscalerList`],
  ['autoscaling', 'v1', 'Scale', `${AUTOSCALING}.Scale`],
  ['autoscaling', 'v2', 'HorizontalPodAutoscaler', `${AUTOSCALING_V2}.HorizontalPodAutoscaler`],
  ['autoscaling', 'v2', 'HorizontalPodAutoscalerList', `${AUTOSCALING_V2}.HorizontalPodAutoscalerList`],
  ['autoscaling', 'v2beta2', 'HorizontalPodAutoscaler', `${AUTOSCALING_V2BETA2}.HorizontalPodAutoscaler`],
  ['autoscaling', 'v2beta2', 'HorizontalPodAutoscalerList', `${AUTOSCALING_V2BETA2}.HorizontalPodAutoscalerList`],
  ['batch', 'v1', 'CronJob', `${BATCH}.CronJob`],
  ['batch', 'v1', 'CronJobList', `${BATCH}.CronJobList`],
  ['batch', 'v1', 'Job', `${BATCH}.Job`],
  ['batch', 'v1', 'JobList', `${BATCH}.JobList`],
  ['certificates', 'v1', 'CertificateSigningRequest', `${CERTIFICATES}.CertificateSigningRequest`],
  ['certificates', 'v1', 'CertificateSigningRequestList', `${CERTIFICATES}.CertificateSigningRequestList`],
  ['coordination', 'v1', 'Lease', `${COORDINATION}.Lease`],
  ['coordination', 'v1', 'LeaseList', `${COORDINATION}.LeaseList`],
  ['discovery', 'v1', 'EndpointSlice', `${DISCOVERY}.EndpointSlice`],
  ['discovery', 'v1', 'EndpointSliceList', `${DISCOVERY}.EndpointSliceList`],
  ['events', 'v1', 'Event', `${EVENTS}.Event`],
  ['events', 'v1', 'EventList', `${EVENTS}.EventList`],
  ['extensions', 'v1beta1', 'Ingress', `${EXTENSIONS_V1BETA1}.Ingress`],
  ['extensions', 'v1beta1', 'IngressList', `${EXTENSIONS_V1BETA1}.IngressList`],
  ['flowcontrol.apiserver', 'v1beta1', 'FlowSchema', `${FLOWCONTROL_V1BETA1}.FlowSchema`],
  ['flowcontrol.apiserver', 'v1beta1', 'FlowSchemaList', `${FLOWCONTROL_V1BETA1}.FlowSchemaList`],
  ['flowcontrol.apiserver', 'v1beta1', 'PriorityLevelConfiguration', `${FLOWCONTROL_V1BETA1}.PriorityLevelConfiguration`],
  ['flowcontrol.apiserver', 'v1beta1', 'PriorityLevelConfigurationList', `${FLOWCONTROL_V1BETA1}.PriorityLevelConfigurationList`],
  ['flowcontrol.apiserver', 'v1beta2', 'FlowSchema', `${FLOWCONTROL_V1BETA2}.FlowSchema`],
  ['flowcontrol.apiserver', 'v1beta2', 'FlowSchemaList', `${FLOWCONTROL_V1BETA2}.FlowSchemaList`],
  ['flowcontrol.apiserver', 'v1beta2', 'PriorityLevelConfiguration', `${FLOWCONTROL_V1BETA2}.PriorityLevelConfiguration`],
  ['flowcontrol.apiserver', 'v1beta2', 'PriorityLevelConfigurationList', `${FLOWCONTROL_V1BETA2}.PriorityLevelConfigurationList`],
  ['networking', 'v1', 'IngressClass', `${NETWORKING}.IngressClass`],
  ['networking', 'v1', 'IngressClassList', `${NETWORKING}.IngressClassList`],
  ['networking', 'v1', 'Ingress', `${NETWORKING}.Ingress`],
  ['networking', 'v1', 'IngressList', `${NETWORKING}.IngressList`],
  ['networking', 'v1', 'NetworkPolicy', `${NETWORKING}.NetworkPolicy`],
  ['networking', 'v1', 'NetworkPolicyList', `${NETWORKING}.NetworkPolicyList`],
  ['node', 'v1', 'RuntimeClass', `${NODE}.RuntimeClass`],
  ['node', 'v1', 'RuntimeClassList', `${NODE}.RuntimeClassList`],
  ['policy', 'v1', 'PodDisruptionBudget', `${POLICY}.PodDisruptionBudget`],
  ['policy', 'v1', 'PodDisruptionBudgetList', `${POLICY}.PodDisruptionBudgetList`],
  ['policy', 'v1beta1', 'PodSecurityPolicy', `${POLICY_V1BETA1}.PodSecurityPolicy`],
  ['policy', 'v1beta1', 'PodSecurityPolicyList', `${POLICY_V1BETA1}.PodSecurityPolicyList`],
  ['rbac.authorization', 'v1', 'ClusterRoleBinding', `${RBAC}.ClusterRoleBinding`],
  ['rbac.authorization', 'v1', 'ClusterRoleBindingList', `${RBAC}.ClusterRoleBindingList`],
  ['rbac.authorization', 'v1', 'ClusterRole', `${RBAC}.ClusterRole`],
  ['rbac.authorization', 'v1', 'ClusterRoleList', `${RBAC}.ClusterRoleList`],
  ['rbac.authorization', 'v1', 'RoleBinding', `${RBAC}.RoleBinding`],
  ['rbac.authorization', 'v1', 'RoleBindingList', `${RBAC}.RoleBindingList`],
  ['rbac.authorization', 'v1', 'Role', `${RBAC}.Role`],
  ['rbac.authorization', 'v1', 'RoleList', `${RBAC}.RoleList`],
  ['scheduling', 'v1', 'PriorityClass', `${SCHEDULING}.PriorityClass`],
  ['scheduling', 'v1', 'PriorityClassList', `${SCHEDULING}.PriorityClassList`],
  ['storage', 'v1', 'CSIDriver', `${STORAGE}.CSIDriver`],
  ['storage', 'v1', 'CSIDriverList', `${STORAGE}.CSIDriverList`],
  ['storage', 'v1', 'CSINode', `${STORAGE}.CSINode`],
  ['storage', 'v1', 'CSINodeList', `${STORAGE}.CSINodeList`],
  ['storage', 'v1', 'StorageClass', `${STORAGE}.StorageClass`],
  ['storage', 'v1', 'StorageClassList', `${STORAGE}.StorageClassList`],
  ['storage', 'v1', 'VolumeAttachment', `${STORAGE}.VolumeAttachment`],
  ['storage', 'v1', 'VolumeAttachmentList', `${STORAGE}.VolumeAttachmentList`],
  ['*', '*', 'Status', `${META}.Status`],
  ['*', '*', 'DeleteOptions', `${META}.DeleteOptions`],
];

const BRAND_SUFFIXES = [`.${KUBERNETES_BRAND.domain}`, `.${ORCH_BRAND.domain}`];

/** The group without its brand domain: `events.k8s.io` -> `events`, `apps` -> `apps`, '' -> ''. */
export function groupStem(group: string): string {
  for (const suffix of BRAND_SUFFIXES) {
    if (group.endsWith(suffix)) return group.slice(0, -suffix.length);
  }
  return group;
}

/** Splits `group/version` (or core `v1`) into its parts; never throws. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

const byKey = new Map<string, string>(REGISTRY.map(([stem, version, kind, message]) => [`${stem}/${version}/${kind}`, message]));
const typeCache = new Map<string, protobuf.Type>();

function messageNameFor(apiVersion: string, kind: string): string | undefined {
  const { group, version } = parseApiVersion(apiVersion);
  return byKey.get(`${groupStem(group)}/${version}/${kind}`) ?? byKey.get(`*/*/${kind}`);
}

/** True when apiVersion/kind has a Protobuf message; never throws and loads no files. */
export function isProtobufSupported(apiVersion: string, kind: string): boolean {
  return messageNameFor(apiVersion, kind) !== undefined;
}

/** The message type for apiVersion/kind; throws UnsupportedProtobufType when there is none. */
export function protobufTypeFor(apiVersion: string, kind: string): protobuf.Type {
  const name = messageNameFor(apiVersion, kind);
  if (name === undefined) throw new UnsupportedProtobufType(apiVersion, kind);
  // Keyed by message name, not by the client's apiVersion, so the cache stays bounded.
  let type = typeCache.get(name);
  if (type === undefined) {
    type = protoRootFor(name).lookupType(name);
    typeCache.set(name, type);
  }
  return type;
}

/** Every registered line, for tests and discovery; read-only. */
export function registeredProtobufTypes(): ReadonlyArray<readonly [string, string, string, string]> {
  return REGISTRY;
}
