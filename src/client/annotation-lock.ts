/**
 * client-go's older resource locks: the leader election record as JSON in the
 * `control-plane.alpha.<label domain>/leader` annotation of an Endpoints or ConfigMap
 * (`endpoints`, `configmaps`), and the MultiLock that migrates from them to a Lease
 * (`endpointsleases`, `configmapsleases`): the old object stays the primary, the Lease is kept
 * in step as the secondary, so old and new candidates see one lock.
 */
import { rfc3339 } from './micro-time.js';
import { ApiError, type RestClient } from './rest-client.js';
import type { LeaderElectionRecord, ResourceLock } from './lease-lock.js';

interface AnnotatedObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace: string; resourceVersion?: string; uid?: string; annotations?: Record<string, string> };
  [k: string]: unknown;
}

/** The record's JSON form in the annotation (client-go's LeaderElectionRecord json tags). */
interface WireRecord {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaderTransitions?: number;
}

export interface AnnotationLockOptions {
  client: RestClient;
  kind: 'Endpoints' | 'ConfigMap';
  namespace: string;
  name: string;
  /** `orch.io` or `kubernetes.io`: the annotation is `control-plane.alpha.<domain>/leader`. */
  labelDomain: string;
}

export class AnnotationLock implements ResourceLock {
  private object: AnnotatedObject | undefined;
  private readonly annotation: string;

  constructor(private readonly o: AnnotationLockOptions) {
    this.annotation = `control-plane.alpha.${o.labelDomain}/leader`;
  }

  describe(): string {
    return `${this.o.namespace}/${this.o.name}`;
  }

  reference(): { apiVersion: string; kind: string; namespace: string; name: string; uid?: string } {
    const uid = this.object?.metadata.uid;
    return { apiVersion: 'v1', kind: this.o.kind, namespace: this.o.namespace, name: this.o.name, ...(uid ? { uid } : {}) };
  }

  private collection(): string {
    return `/api/v1/namespaces/${encodeURIComponent(this.o.namespace)}/${this.o.kind === 'Endpoints' ? 'endpoints' : 'configmaps'}`;
  }

  async get(): Promise<{ record: LeaderElectionRecord; raw: string } | undefined> {
    const res = await this.o.client.request<AnnotatedObject>('GET', `${this.collection()}/${encodeURIComponent(this.o.name)}`);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw new ApiError(res.status, res.body, `get ${this.o.kind} ${this.describe()}`);
    this.object = res.body;
    const raw = res.body.metadata.annotations?.[this.annotation] ?? '';
    let wire: WireRecord = {};
    try {
      wire = raw === '' ? {} : (JSON.parse(raw) as WireRecord);
    } catch {
      // A garbled record is an empty one: whoever updates it next owns the lock.
    }
    return { record: fromWire(wire), raw };
  }

  async create(r: LeaderElectionRecord): Promise<void> {
    const body: AnnotatedObject = {
      apiVersion: 'v1',
      kind: this.o.kind,
      metadata: { name: this.o.name, namespace: this.o.namespace, annotations: { [this.annotation]: JSON.stringify(toWire(r)) } },
    };
    const res = await this.o.client.request<AnnotatedObject>('POST', this.collection(), body);
    if (res.status !== 201 && res.status !== 200) throw new ApiError(res.status, res.body, `create ${this.o.kind} ${this.describe()}`);
    this.object = res.body;
  }

  async update(r: LeaderElectionRecord): Promise<void> {
    if (this.object === undefined) throw new Error(`${this.o.kind} ${this.describe()} not initialized, call get or create first`);
    const m = this.object.metadata;
    const body = { ...this.object, metadata: { ...m, annotations: { ...m.annotations, [this.annotation]: JSON.stringify(toWire(r)) } } };
    const res = await this.o.client.request<AnnotatedObject>('PUT', `${this.collection()}/${encodeURIComponent(this.o.name)}`, body);
    if (res.status !== 200) throw new ApiError(res.status, res.body, `update ${this.o.kind} ${this.describe()}`);
    this.object = res.body;
  }
}

/** client-go's UnknownLeader: primary and secondary disagree about the holder. */
const UNKNOWN_LEADER = 'leaderelection.k8s.io/unknown';

/** client-go's MultiLock: the primary decides; the secondary follows it. */
export class MultiLock implements ResourceLock {
  constructor(
    private readonly primary: ResourceLock,
    private readonly secondary: ResourceLock,
    private readonly identity: string,
  ) {}

  describe(): string {
    return `${this.primary.describe()}+${this.secondary.describe()}`;
  }

  reference(): ReturnType<ResourceLock['reference']> {
    return this.primary.reference();
  }

  async get(): Promise<{ record: LeaderElectionRecord; raw: string } | undefined> {
    const primary = await this.primary.get();
    if (primary === undefined) return undefined;
    const secondary = await this.secondary.get();
    // Held by a candidate that knows only the old lock: its record is the truth.
    if (secondary === undefined) {
      if (primary.record.holderIdentity !== this.identity) return primary;
      throw new ApiError(404, undefined, `get ${this.secondary.describe()}`);
    }
    const record = primary.record.holderIdentity === secondary.record.holderIdentity ? primary.record : { ...primary.record, holderIdentity: UNKNOWN_LEADER };
    return { record, raw: `${primary.raw},${secondary.raw}` };
  }

  async create(r: LeaderElectionRecord): Promise<void> {
    try {
      await this.primary.create(r);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409)) throw err;
    }
    await this.secondary.create(r);
  }

  async update(r: LeaderElectionRecord): Promise<void> {
    await this.primary.update(r);
    if ((await this.secondary.get()) === undefined) await this.secondary.create(r);
    else await this.secondary.update(r);
  }
}

function toWire(r: LeaderElectionRecord): WireRecord {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    // metav1.Time in the annotation's JSON: whole seconds.
    acquireTime: rfc3339(r.acquireTime),
    renewTime: rfc3339(r.renewTime),
    leaderTransitions: r.leaderTransitions,
  };
}

function fromWire(w: WireRecord): LeaderElectionRecord {
  return {
    holderIdentity: w.holderIdentity ?? '',
    leaseDurationSeconds: w.leaseDurationSeconds ?? 0,
    acquireTime: w.acquireTime ? Date.parse(w.acquireTime) : 0,
    renewTime: w.renewTime ? Date.parse(w.renewTime) : 0,
    leaderTransitions: w.leaderTransitions ?? 0,
  };
}
