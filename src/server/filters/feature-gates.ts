/**
 * What the request-level feature gates switch off (upstream checks them in its filters and
 * handlers). The response gates apply from the start of the chain, as upstream installs (or
 * not) its compression filter and warning recorder there: APIResponseCompression (no gzip) and
 * WarningHeaders (no Warning headers). The request gates apply after authorization, where
 * upstream's handlers check them: APIListChunking (`limit` and `continue` ignored: the whole
 * list) and DryRun (`dryRun` on a write is 400 "the dryRun feature is disabled"). Each filter
 * is installed only when one of its gates is off, so a server with the defaults pays nothing.
 */
import { badRequest } from '../../machinery/status.js';
import type { ServerFeatures } from '../feature-gates.js';
import { disableCompression, disableWarnings } from '../http.js';
import type { Filter } from './chain.js';

const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** The response gates' filter, or undefined when both are on. */
export function withResponseFeatureGates(f: ServerFeatures): Filter | undefined {
  if (f.responseCompression && f.warningHeaders) return undefined;
  return (state, next) => {
    if (!f.responseCompression) disableCompression(state.req);
    if (!f.warningHeaders) disableWarnings(state.res);
    return next(state);
  };
}

/** The request gates' filter, or undefined when both are on. */
export function withRequestFeatureGates(f: ServerFeatures): Filter | undefined {
  if (f.listChunking && f.dryRun) return undefined;
  return (state, next) => {
    const info = state.info;
    if (info.isResourceRequest) {
      if (!f.listChunking && info.verb === 'list') {
        state.query.delete('limit');
        state.query.delete('continue');
      }
      if (!f.dryRun && WRITE_VERBS.has(info.verb) && state.query.has('dryRun')) return Promise.reject(badRequest('the dryRun feature is disabled'));
    }
    return next(state);
  };
}
