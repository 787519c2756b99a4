/**
 * Upstream's long-running check (BasicLongRunningRequestCheck with kube-apiserver's sets):
 * watches and proxies by verb, attach/exec/proxy/log/portforward by subresource. Long-running
 * requests escape the request deadline and the in-flight limits.
 */
import type { RequestInfo } from '../request-info.js';

const LONG_RUNNING_VERBS: ReadonlySet<string> = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES: ReadonlySet<string> = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** True for requests that may legitimately stay open past the request timeout. */
export function isLongRunning(info: RequestInfo): boolean {
  return LONG_RUNNING_VERBS.has(info.verb) || (info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource));
}
