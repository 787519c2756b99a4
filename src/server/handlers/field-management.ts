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

let tracking: Promise<typeof import('./field-tracking.js')> | undefined;

/** The field-tracking module, loaded once on first use. */
function fieldTracking(): Promise<typeof import('./field-tracking.js')> {
  tracking ??= import('./field-tracking.js');
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
export async function trackingFor(r: ResourceRequest, opts: CreateOptions): Promise<(next: Obj, live: Obj | undefined) => void | Promise<void>> {
  const [{ trackWrite }, fm] = await Promise.all([fieldTracking(), fieldManagerOf(r)]);
  const manager = managerOf(r, opts);
  return (next, live) => trackWrite(fm, next, live, manager, r.ctx.pace);
}
