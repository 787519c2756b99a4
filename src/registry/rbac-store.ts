/**
 * The storage of Roles, ClusterRoles, RoleBindings and ClusterRoleBindings: the generic store
 * plus upstream's escalation check (pkg/registry/rbac/*\/policybased) on every create and update
 * (patch and apply included, dry runs too: a dry run needs exactly the real write's permission).
 * The check itself needs the authorizer and the RBAC rules, which live above the registry: it
 * is injected as an `RbacWriteGuard`. As upstream, it runs on the object mutating admission
 * left, before validation.
 */
import type { Brand } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import type { UserInfo } from '../machinery/user.js';
import type { CacherOptions } from '../storage/cacher/cacher.js';
import type { Store } from '../storage/interface.js';
import type { AdmissionHook, RequestContext, UpdateOptions, WriteOptions } from './context.js';
import { GenericStore, type UpdateResult, type UpdateTransform } from './generic-store.js';
import type { ResourceInfo } from './resource-info.js';

export type RbacResource = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';

export const RBAC_RESOURCES: readonly RbacResource[] = ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'];

/** One RBAC write as the escalation check sees it. */
export interface RbacWrite {
  user: UserInfo;
  resource: RbacResource;
  /** The request's namespace ('' for cluster-scoped resources). */
  namespace: string;
  /** The name in the request's URL: '' for a create (upstream's RequestInfo.Name). */
  requestName: string;
  /** The object to be written, after mutating admission. */
  obj: Obj;
  /** The stored object an update changes; absent for a create. */
  old: Obj | undefined;
}

/** Refuses (throws a StatusError) a write that would grant permissions its user does not hold. */
export interface RbacWriteGuard {
  check(write: RbacWrite): void | Promise<void>;
}

/** Hooks already carrying the check (an apply that creates goes through create from update). */
const guarded = new WeakSet<AdmissionHook>();

export class RbacStore extends GenericStore {
  constructor(
    info: ResourceInfo,
    store: Store,
    brand: Brand,
    cacheOptions: CacherOptions,
    private readonly guard: RbacWriteGuard,
  ) {
    super(info, store, brand, cacheOptions);
  }

  private checking(ctx: RequestContext, namespace: string, requestName: string, admission: AdmissionHook | undefined): AdmissionHook {
    if (admission !== undefined && guarded.has(admission)) return admission;
    const resource = this.info.plural as RbacResource;
    const hook: AdmissionHook = async (obj, old) => {
      await admission?.(obj, old);
      await this.guard.check({ user: ctx.user, resource, namespace: this.info.namespaced ? namespace : '', requestName, obj, old });
    };
    guarded.add(hook);
    return hook;
  }

  override create(ctx: RequestContext, namespace: string, obj: Obj, opts: WriteOptions): Promise<Obj> {
    return super.create(ctx, namespace, obj, { ...opts, mutatingAdmission: this.checking(ctx, namespace, '', opts.mutatingAdmission) });
  }

  override guaranteedUpdate(ctx: RequestContext, namespace: string, name: string, transform: UpdateTransform, opts: UpdateOptions): Promise<UpdateResult> {
    const create = opts.createIfMissing;
    return super.guaranteedUpdate(ctx, namespace, name, transform, {
      ...opts,
      mutatingAdmission: this.checking(ctx, namespace, name, opts.mutatingAdmission),
      // An apply that creates is checked as the update it is (the URL names the object).
      ...(create ? { createIfMissing: { ...create, mutatingAdmission: this.checking(ctx, namespace, name, create.mutatingAdmission) } } : {}),
    });
  }
}
