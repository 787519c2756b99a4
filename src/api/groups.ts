/**
 * The preferred version of every group, as the release /version reports (1.25) serves it: the
 * stable version where one exists, else the newest beta. One builder per group; a kind served
 * at more versions builds those with apiGroup (autoscaling, flowcontrol).
 */
import { apiGroup } from './define.js';

export const core = apiGroup('', 'v1');
export const admissionregistration = apiGroup('admissionregistration', 'v1');
export const apiextensions = apiGroup('apiextensions', 'v1');
export const apiregistration = apiGroup('apiregistration', 'v1');
export const apps = apiGroup('apps', 'v1');
export const batch = apiGroup('batch', 'v1');
export const certificates = apiGroup('certificates', 'v1');
export const coordination = apiGroup('coordination', 'v1');
export const discovery = apiGroup('discovery', 'v1');
export const events = apiGroup('events', 'v1');
/** extensions serves only ingresses, at its last version, over networking's storage. */
export const extensions = apiGroup('extensions', 'v1beta1');
export const flowcontrol = apiGroup('flowcontrol.apiserver', 'v1beta2');
export const networking = apiGroup('networking', 'v1');
export const node = apiGroup('node', 'v1');
/** policy: poddisruptionbudgets at v1; podsecuritypolicies override to v1beta1. */
export const policy = apiGroup('policy', 'v1');
export const rbac = apiGroup('rbac.authorization', 'v1');
export const scheduling = apiGroup('scheduling', 'v1');
export const storage = apiGroup('storage', 'v1');
export const authentication = apiGroup('authentication', 'v1');
export const authorization = apiGroup('authorization', 'v1');
