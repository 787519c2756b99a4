/**
 * The Service storage: the generic store plus cluster-IP and node-port allocation inside the
 * same write, as upstream's service REST (BeginCreate/BeginUpdate allocate after admission and
 * before validation; the write's outcome commits or reverts; AfterDelete releases). Nothing is
 * held for a write that failed, and a dry run takes nothing.
 */
import type { Brand } from '../../machinery/brand.js';
import { metaOf, type Obj } from '../../machinery/object.js';
import { child, rec } from '../../machinery/fields.js';
import { normalizeClusterIPs, patchAllocatedValues } from '../../api/core/service-defaults.js';
import type { Store } from '../../storage/interface.js';
import type { CacherOptions } from '../../storage/cacher/cacher.js';
import type { DeleteOptions, RequestContext, UpdateOptions, WriteOptions } from '../context.js';
import { type DeleteResult, GenericStore, type UpdateResult, type UpdateTransform } from '../generic-store.js';
import { pendingFinalizers } from '../finalization.js';
import type { ResourceInfo } from '../resource-info.js';
import { toStatusError } from '../storage-errors.js';
import { type Allocation, ServiceAllocator } from './allocator.js';
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, DEFAULT_SERVICE_NODE_PORT_RANGE, parseClusterIPRange, parseNodePortRange } from './ranges.js';

export interface ServiceRanges {
  /** --service-cluster-ip-range (default 10.0.0.0/24). */
  clusterIPRange?: string;
  /** --service-node-port-range (default 30000-32767). */
  nodePortRange?: string;
  /** Where allocation scans start; injected by tests. */
  random?: () => number;
}

export class ServiceStore extends GenericStore {
  readonly allocator: ServiceAllocator;
  private seeded: Promise<void> | undefined;

  constructor(info: ResourceInfo, store: Store, brand: Brand, cacheOptions: CacherOptions = {}, ranges: ServiceRanges = {}) {
    super(info, store, brand, cacheOptions);
    this.allocator = new ServiceAllocator(
      parseClusterIPRange(ranges.clusterIPRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE),
      parseNodePortRange(ranges.nodePortRange ?? DEFAULT_SERVICE_NODE_PORT_RANGE),
      ranges.random,
    );
  }

  /** Fills the bitmaps from the stored Services once, before the first write allocates. */
  private ready(): Promise<void> {
    this.seeded ??= this.storeRange(this.info.keyPrefix, {}).then(
      (res) => {
        for (const kv of res.items) this.allocator.seed(this.decode(kv));
      },
      (e: unknown) => {
        // A store that failed once is asked again by the next write, not given up on.
        this.seeded = undefined;
        toStatusError(e, this.info.groupResource, '');
      },
    );
    return this.seeded;
  }

  /**
   * Forgets the allocations and seeds them again from the store before the next write: for a
   * store whose Services were rewritten underneath the registry (a test harness's reset).
   */
  reseed(): void {
    this.allocator.clear();
    this.seeded = undefined;
  }

  override async create(ctx: RequestContext, namespace: string, obj: Obj, opts: WriteOptions): Promise<Obj> {
    await this.ready();
    let allocation: Allocation | undefined;
    const mutate = async (svc: Obj, old: Obj | undefined): Promise<void> => {
      await opts.mutatingAdmission?.(svc, old);
      // Before anyone reads them (upstream's beginCreate): the singular field fills the list.
      normalizeClusterIPs(child(svc, 'spec'), undefined);
      allocation = this.allocator.allocate(svc, undefined, opts.dryRun);
    };
    try {
      const created = await super.create(ctx, namespace, obj, { ...opts, mutatingAdmission: mutate });
      allocation?.commit(created);
      return created;
    } catch (e) {
      allocation?.revert();
      throw e;
    }
  }

  override async guaranteedUpdate(
    ctx: RequestContext,
    namespace: string,
    name: string,
    transform: UpdateTransform,
    opts: UpdateOptions,
  ): Promise<UpdateResult> {
    // A subresource write (status) cannot change what the Service holds.
    if (opts.subresource !== '') return super.guaranteedUpdate(ctx, namespace, name, transform, opts);
    await this.ready();
    let allocation: Allocation | undefined;
    const mutate = async (svc: Obj, old: Obj | undefined): Promise<void> => {
      await opts.mutatingAdmission?.(svc, old);
      // The update loop re-runs this after a conflict: the previous attempt's allocation goes back first.
      allocation?.revert();
      allocation = undefined;
      const spec = child(svc, 'spec');
      // An update that omits allocated values keeps them (upstream's beginUpdate order).
      if (old !== undefined) patchAllocatedValues(spec, rec(old.spec));
      normalizeClusterIPs(spec, old === undefined ? undefined : rec(old.spec));
      allocation = this.allocator.allocate(svc, old, opts.dryRun);
    };
    try {
      const result = await super.guaranteedUpdate(ctx, namespace, name, transform, { ...opts, mutatingAdmission: mutate });
      // Removing the last finalizer of a deleting Service removes it: what it held is freed.
      const removed = metaOf(result.obj).deletionTimestamp !== undefined && pendingFinalizers(this.info, result.obj).length === 0;
      if (removed) allocation?.commitRemoval();
      else allocation?.commit(result.obj);
      return result;
    } catch (e) {
      allocation?.revert();
      throw e;
    }
  }

  override async delete(ctx: RequestContext, namespace: string, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    await this.ready();
    const result = await super.delete(ctx, namespace, name, opts);
    if (result.removed && !opts.dryRun) this.allocator.release(result.obj);
    return result;
  }
}
