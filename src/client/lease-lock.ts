/**
 * client-go's resourcelock.LeaseLock: the leader election record kept in a
 * `coordination.<brand domain>/v1` Lease. Updates carry the resourceVersion last read, so two
 * candidates racing for one Lease cannot both win (the loser gets 409).
 */
import { microTime } from './micro-time.js';
import { ApiError, type RestClient } from './rest-client.js';

/** client-go's LeaderElectionRecord (times in ms since the epoch). */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number;
  renewTime: number;
  leaderTransitions: number;
}

/** client-go's resourcelock.Interface: where the record lives. */
export interface ResourceLock {
  /** The record and its raw form (change detection); undefined when the lock object does not exist. */
  get(): Promise<{ record: LeaderElectionRecord; raw: string } | undefined>;
  /** Creates the lock object; rejects when it exists already (another candidate was first). */
  create(r: LeaderElectionRecord): Promise<void>;
  /** Replaces the record, conditional on the object not having changed since get/create. */
  update(r: LeaderElectionRecord): Promise<void>;
  /** `<namespace>/<name>`, for messages. */
  describe(): string;
  /** The object LeaderElection events are about. */
  reference(): { apiVersion: string; kind: string; namespace: string; name: string; uid?: string };
}

interface LeaseObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; acquireTime?: string; renewTime?: string; leaseTransitions?: number };
}

export interface LeaseLockOptions {
  client: RestClient;
  /** `coordination.orch.io` or `coordination.k8s.io`. */
  coordinationGroup: string;
  namespace: string;
  name: string;
}

export class LeaseLock implements ResourceLock {
  private lease: LeaseObject | undefined;

  constructor(private readonly o: LeaseLockOptions) {}

  /** `<namespace>/<name>`, for messages. */
  describe(): string {
    return `${this.o.namespace}/${this.o.name}`;
  }

  /** The Lease as an object reference (the LeaderElection event's subject). */
  reference(): { apiVersion: string; kind: string; namespace: string; name: string; uid?: string } {
    const uid = (this.lease?.metadata as { uid?: string } | undefined)?.uid;
    return { apiVersion: `${this.o.coordinationGroup}/v1`, kind: 'Lease', namespace: this.o.namespace, name: this.o.name, ...(uid ? { uid } : {}) };
  }

  private collection(): string {
    return `/apis/${this.o.coordinationGroup}/v1/namespaces/${encodeURIComponent(this.o.namespace)}/leases`;
  }

  /** The current record and its raw form (for change detection); undefined when no Lease exists. */
  async get(): Promise<{ record: LeaderElectionRecord; raw: string } | undefined> {
    const res = await this.o.client.request<LeaseObject>('GET', `${this.collection()}/${encodeURIComponent(this.o.name)}`);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw new ApiError(res.status, res.body, `get lease ${this.describe()}`);
    this.lease = res.body;
    const record = recordOf(res.body);
    return { record, raw: JSON.stringify(res.body.spec ?? {}) };
  }

  /** Creates the Lease; rejects (409 when another candidate was first). */
  async create(r: LeaderElectionRecord): Promise<void> {
    const body: LeaseObject = {
      apiVersion: `${this.o.coordinationGroup}/v1`,
      kind: 'Lease',
      metadata: { name: this.o.name, namespace: this.o.namespace },
      spec: specOf(r),
    };
    const res = await this.o.client.request<LeaseObject>('POST', this.collection(), body);
    if (res.status !== 201 && res.status !== 200) throw new ApiError(res.status, res.body, `create lease ${this.describe()}`);
    this.lease = res.body;
  }

  /** Replaces the record, conditional on the Lease not having changed since the last get. */
  async update(r: LeaderElectionRecord): Promise<void> {
    if (this.lease === undefined) throw new Error(`lease ${this.describe()} not initialized, call get or create first`);
    const body: LeaseObject = { ...this.lease, spec: specOf(r) };
    const res = await this.o.client.request<LeaseObject>('PUT', `${this.collection()}/${encodeURIComponent(this.o.name)}`, body);
    if (res.status !== 200) throw new ApiError(res.status, res.body, `update lease ${this.describe()}`);
    this.lease = res.body;
  }
}

function specOf(r: LeaderElectionRecord): NonNullable<LeaseObject['spec']> {
  return {
    // An empty holder (a release) is written as an absent field, as client-go's LeaderElectionRecordToLeaseSpec.
    ...(r.holderIdentity ? { holderIdentity: r.holderIdentity } : {}),
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: microTime(r.acquireTime),
    renewTime: microTime(r.renewTime),
    leaseTransitions: r.leaderTransitions,
  };
}

function recordOf(l: LeaseObject): LeaderElectionRecord {
  const s = l.spec ?? {};
  return {
    holderIdentity: s.holderIdentity ?? '',
    leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
    acquireTime: s.acquireTime ? Date.parse(s.acquireTime) : 0,
    renewTime: s.renewTime ? Date.parse(s.renewTime) : 0,
    leaderTransitions: s.leaseTransitions ?? 0,
  };
}
