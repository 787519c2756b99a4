/** POST of a Binding (pods/<name>/binding or the bindings resource): 201 with a Success Status, as upstream. */
import { bindPod } from '../../registry/pod-binding.js';
import type { ResourceInfo } from '../../registry/resource-info.js';
import { successStatus } from '../../machinery/status.js';
import type { Obj } from '../../machinery/object.js';
import { writeObject } from '../http.js';
import { admitFor, type ResourceRequest } from './resource-request.js';

/** True when the request's store is the core Binding (the router points pods/<name>/binding at it). */
export function isBinding(info: ResourceInfo): boolean {
  return info.group === '' && info.kind === 'Binding';
}

/** Binds the pod and answers upstream's `{status: Success, code: 201}`. */
export async function createBinding(r: ResourceRequest, binding: Obj, dryRun: boolean): Promise<void> {
  const urlName = r.subresource === 'binding' ? r.name : undefined;
  await bindPod(r.registry, r.ctx, r.namespace, binding, { dryRun, urlName, admit: admitFor(r, 'CREATE') });
  writeObject(r.res, 201, { ...successStatus(), code: 201 }, r.output);
}
