/**
 * Requests to a deprecated built-in API version (upstream's endpoints/deprecation and the
 * deprecated-API bookkeeping of its request metrics): the warning text and the labels of
 * `apiserver_requested_deprecated_apis`; resource-routes.ts adds the audit annotations.
 */
import type { Brand } from '../machinery/brand.js';
import type { ApiLifecycle } from '../api/types.js';
import type { ResourceInfo } from '../registry/resource-info.js';
import { SERVED_RELEASE } from './version.js';

/** The labels of one `apiserver_requested_deprecated_apis` series (upstream's label names). */
export interface DeprecatedApiLabels {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  removed_release: string;
}

/** Records one request to a deprecated version; the API server's metrics set the gauge to 1 for its labels. */
export type DeprecatedRequestRecorder = (labels: DeprecatedApiLabels) => void;

interface Deprecation {
  warning: string;
  removedRelease: string;
}

const computed = new WeakMap<ResourceInfo, Deprecation | null>();

function release(text: string): [number, number] {
  const [major, minor] = text.split('.').map((p) => Number.parseInt(p, 10));
  return [major || 0, minor || 0];
}

/** Upstream's IsDeprecated: deprecated at or before the release /version reports. */
function isDeprecated(lifecycle: ApiLifecycle): boolean {
  const [dMajor, dMinor] = release(lifecycle.deprecated);
  if (dMajor === 0 && dMinor === 0) return false;
  const [major, minor] = release(`${SERVED_RELEASE.major}.${SERVED_RELEASE.minor}`);
  return dMajor < major || (dMajor === major && dMinor <= minor);
}

/** Upstream's WarningMessage: `<group/version> <Kind> is deprecated in v1.X+, unavailable in v1.Y+; use <group/version> <Kind>`. */
export function deprecationWarning(info: ResourceInfo, lifecycle: ApiLifecycle, brand: Brand): string {
  const [dMajor, dMinor] = release(lifecycle.deprecated);
  const [rMajor, rMinor] = release(lifecycle.removed);
  let text = `${info.apiVersion} ${info.kind} is deprecated in v${dMajor}.${dMinor}+`;
  if (rMajor !== 0 || rMinor !== 0) text += `, unavailable in v${rMajor}.${rMinor}+`;
  const r = lifecycle.replacement;
  if (r !== undefined) {
    const group = brand.group(r.groupStem, r.branded);
    text += `; use ${group === '' ? r.version : `${group}/${r.version}`} ${r.kind}`;
  }
  return text;
}

/** The deprecation of a served version, computed once per resource; undefined when it is not deprecated. */
export function deprecationOf(info: ResourceInfo, brand: Brand): Deprecation | undefined {
  let d = computed.get(info);
  if (d === undefined) {
    const lifecycle = info.def.lifecycle;
    d =
      lifecycle !== undefined && isDeprecated(lifecycle)
        ? { warning: deprecationWarning(info, lifecycle, brand), removedRelease: removedRelease(lifecycle) }
        : null;
    computed.set(info, d);
  }
  return d ?? undefined;
}

/** Upstream's RemovedRelease: `<major>.<minor>`, or '' without a removal version. */
function removedRelease(lifecycle: ApiLifecycle): string {
  const [major, minor] = release(lifecycle.removed);
  return major === 0 && minor === 0 ? '' : `${major}.${minor}`;
}
