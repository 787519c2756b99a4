/**
 * What the request-level feature gates switch off, applied before the handler (upstream checks
 * them in its handlers): APIResponseCompression (no gzip), WarningHeaders (no Warning headers),
 * APIListChunking (`limit` and `continue` ignored: the whole list), DryRun (`dryRun` on a write
 * is 400 "the dryRun feature is disabled"). Installed only when one of them is off, so a server
 * with the defaults pays nothing for it.
 */
import { badRequest } from '../../machinery/status.js';
import type { ServerFeatures } from '../feature-gates.js';
import { disableCompression, disableWarnings } from '../http.js';
import type { Filter } from './chain.js';

const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** The filter for these switches, or undefined when every one is on. */
export function withFeatureGates(f: ServerFeatures): Filter | undefined {
  if (f.responseCompression && f.warningHeaders && f.listChunking && f.dryRun) return undefined;
  return (state, next) => {
    if (!f.responseCompression) disableCompression(state.req);
    if (!f.warningHeaders) disableWarnings(state.res);
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
