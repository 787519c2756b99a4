/**
 * Every resource the server serves, in discovery order by group. Built once from the
 * per-resource definitions; the registry, router and discovery derive all they need from it.
 */
import type { ResourceDefinition } from './types.js';
import { bindings } from './core/bindings.js';
import { componentStatuses } from './core/componentstatuses.js';
import { configMaps } from './core/configmaps.js';
import { endpoints } from './core/endpoints.js';
import { coreEvents } from './core/events.js';
import { limitRanges } from './core/limitranges.js';
import { namespaces } from './core/namespaces.js';
import { nodes } from './core/nodes.js';
import { persistentVolumeClaims } from './core/persistentvolumeclaims.js';
import { persistentVolumes } from './core/persistentvolumes.js';
import { pods } from './core/pods.js';
import { podTemplates } from './core/podtemplates.js';
import { replicationControllers } from './core/replicationcontrollers.js';
import { resourceQuotas } from './core/resourcequotas.js';
import { secrets } from './core/secrets.js';
import { serviceAccounts } from './core/serviceaccounts.js';
import { services } from './core/services.js';
import { mutatingWebhookConfigurations } from './admissionregistration/mutatingwebhookconfigurations.js';
import { validatingWebhookConfigurations } from './admissionregistration/validatingwebhookconfigurations.js';
import { customResourceDefinitions } from './apiextensions/customresourcedefinitions.js';
import { apiServices } from './apiregistration/apiservices.js';
import { controllerRevisions } from './apps/controllerrevisions.js';
import { daemonSets } from './apps/daemonsets.js';
import { deployments } from './apps/deployments.js';
import { replicaSets } from './apps/replicasets.js';
import { statefulSets } from './apps/statefulsets.js';
import { selfSubjectReviews, selfSubjectReviewsV1alpha1, selfSubjectReviewsV1beta1 } from './authentication/selfsubjectreviews.js';
import { tokenReviews } from './authentication/tokenreviews.js';
import { localSubjectAccessReviews } from './authorization/localsubjectaccessreviews.js';
import { selfSubjectAccessReviews } from './authorization/selfsubjectaccessreviews.js';
import { selfSubjectRulesReviews } from './authorization/selfsubjectrulesreviews.js';
import { subjectAccessReviews } from './authorization/subjectaccessreviews.js';
import { horizontalPodAutoscalers, horizontalPodAutoscalersV1, horizontalPodAutoscalersV2beta2 } from './autoscaling/horizontalpodautoscalers.js';
import { cronJobs } from './batch/cronjobs.js';
import { jobs } from './batch/jobs.js';
import { certificateSigningRequests } from './certificates/certificatesigningrequests.js';
import { leases } from './coordination/leases.js';
import { endpointSlices } from './discovery/endpointslices.js';
import { events } from './events/events.js';
import { extensionsIngresses } from './extensions/ingresses.js';
import { flowSchemas, flowSchemasV1beta1 } from './flowcontrol/flowschemas.js';
import { priorityLevelConfigurations, priorityLevelConfigurationsV1beta1 } from './flowcontrol/prioritylevelconfigurations.js';
import { ingressClasses } from './networking/ingressclasses.js';
import { ingresses } from './networking/ingresses.js';
import { networkPolicies } from './networking/networkpolicies.js';
import { runtimeClasses } from './node/runtimeclasses.js';
import { podDisruptionBudgets } from './policy/poddisruptionbudgets.js';
import { podSecurityPolicies } from './policy/podsecuritypolicies.js';
import { clusterRoleBindings } from './rbac/clusterrolebindings.js';
import { clusterRoles } from './rbac/clusterroles.js';
import { roleBindings } from './rbac/rolebindings.js';
import { roles } from './rbac/roles.js';
import { priorityClasses } from './scheduling/priorityclasses.js';
import { csiDrivers } from './storage/csidrivers.js';
import { csiNodes } from './storage/csinodes.js';
import { storageClasses } from './storage/storageclasses.js';
import { volumeAttachments } from './storage/volumeattachments.js';

export const ALL_RESOURCES: readonly ResourceDefinition[] = Object.freeze([
  // core
  bindings,
  componentStatuses,
  configMaps,
  endpoints,
  coreEvents,
  limitRanges,
  namespaces,
  nodes,
  persistentVolumeClaims,
  persistentVolumes,
  pods,
  podTemplates,
  replicationControllers,
  resourceQuotas,
  secrets,
  serviceAccounts,
  services,
  // named groups
  mutatingWebhookConfigurations,
  validatingWebhookConfigurations,
  customResourceDefinitions,
  apiServices,
  controllerRevisions,
  daemonSets,
  deployments,
  replicaSets,
  statefulSets,
  tokenReviews,
  selfSubjectReviews,
  selfSubjectReviewsV1beta1,
  selfSubjectReviewsV1alpha1,
  localSubjectAccessReviews,
  selfSubjectAccessReviews,
  selfSubjectRulesReviews,
  subjectAccessReviews,
  horizontalPodAutoscalers,
  horizontalPodAutoscalersV1,
  horizontalPodAutoscalersV2beta2,
  cronJobs,
  jobs,
  certificateSigningRequests,
  leases,
  endpointSlices,
  events,
  extensionsIngresses,
  flowSchemas,
  priorityLevelConfigurations,
  flowSchemasV1beta1,
  priorityLevelConfigurationsV1beta1,
  ingressClasses,
  ingresses,
  networkPolicies,
  runtimeClasses,
  podDisruptionBudgets,
  podSecurityPolicies,
  clusterRoleBindings,
  clusterRoles,
  roleBindings,
  roles,
  priorityClasses,
  csiDrivers,
  csiNodes,
  storageClasses,
  volumeAttachments,
]);
