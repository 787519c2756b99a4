/**
 * Field ownership on every write (upstream's handlers wiring of the field manager): the
 * manager's name (fieldManager, else the User-Agent's product) and the registry's track hook.
 * The field manager itself belongs to the resource scope and loads on the first write.
 */
import type { FieldManager } from '../../apply/field-manager.js';
import type { Obj } from '../../machinery/object.js';
import { prefixFromUserAgent } from './field-manager-name.js';
import type { CreateOptions } from './options.js';
import type { ResourceRequest } from './resource-request.js';

type FieldTracking = typeof import('./field-tracking.js');
let tracking: Promise<FieldTracking> | undefined;
/** The module once loaded: every write after the first gets its hook without a promise. */
let loaded: FieldTracking | undefined;

/** The field-tracking module, loaded once on first use. */
function fieldTracking(): Promise<FieldTracking> {
  tracking ??= import('./field-tracking.js').then((m) => {
    loaded = m;
    return m;
  });
  return tracking;
}

/** The manager a write is recorded under: fieldManager, else from the User-Agent. */
export function managerOf(r: ResourceRequest, opts: CreateOptions): string {
  return opts.fieldManager !== '' ? opts.fieldManager : prefixFromUserAgent(String(r.req.headers['user-agent'] ?? ''));
}

/** The scope's field manager; undefined when ServerSideApply is off. */
export async function fieldManagerOf(r: ResourceRequest): Promise<FieldManager | undefined> {
  return r.serverSideApply ? r.scope.fieldManager() : undefined;
}

/** The registry's track hook for a non-apply write of this request. */
export type TrackHook = (next: Obj, live: Obj | undefined) => void | Promise<void>;

/** The track hook for a non-apply write of this request: at once when its parts are loaded (every write after the first), else once they are. */
export function trackingFor(r: ResourceRequest, opts: CreateOptions): TrackHook | Promise<TrackHook> {
  const manager = managerOf(r, opts);
  const hook = (m: FieldTracking, fm: FieldManager | undefined): TrackHook => {
    return (next, live) => m.trackWrite(fm, next, live, manager, r.ctx.pace);
  };
  const fm = r.serverSideApply ? r.scope.fieldManagerNow() : undefined;
  if (loaded !== undefined && (fm !== undefined || !r.serverSideApply)) return hook(loaded, fm);
  return Promise.all([fieldTracking(), fieldManagerOf(r)]).then(([m, f]) => hook(m, f));
}
