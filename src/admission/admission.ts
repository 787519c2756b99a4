/** The admission chain: validating plugins run on the final object, inside the registry's write. */
import type { RequestContext } from '../registry/context.js';
import type { ResourceInfo } from '../registry/resource-info.js';
import type { Obj } from '../machinery/object.js';

export interface AdmissionAttributes {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  resource: ResourceInfo;
  namespace: string;
  name: string;
  subresource: string;
  object: Obj;
  oldObject?: Obj;
  ctx: RequestContext;
}

export interface ValidatingPlugin {
  readonly name: string;
  validate(a: AdmissionAttributes): void | Promise<void>;
}

export interface Admission {
  validate(a: AdmissionAttributes): Promise<void>;
}

/** Runs plugins in order; the first rejection (a thrown StatusError) stops the request. */
export function admissionChain(plugins: ValidatingPlugin[]): Admission {
  return {
    async validate(a) {
      for (const p of plugins) await p.validate(a);
    },
  };
}
