/**
 * Leases for keys that expire (events, `--event-ttl`), as upstream's `storage/etcd3/lease_manager.go`:
 * one lease is shared by every put whose expiry falls within the reuse window of the previous
 * lease, so a burst of events costs one lease, not one each. A lease is granted a little
 * longer than asked (the reuse window: 5% of the TTL, at most `--lease-reuse-duration-seconds`,
 * 60 s), and reused while it outlives the new put's TTL and expires within that window.
 */
import type { EtcdClient } from './wire/etcd-client.js';

/** upstream's --lease-reuse-duration-seconds default. */
export const LEASE_REUSE_SECONDS = 60;
/** upstream's leaseReuseDurationPercent. */
const LEASE_REUSE_FRACTION = 0.05;

export class LeaseManager {
  private prevId: string | undefined;
  /** When the previous lease expires (ms clock). */
  private prevExpiry = 0;
  /** A grant in flight, shared by the puts that need it. */
  private granting: Promise<string> | undefined;

  constructor(
    private readonly client: Pick<EtcdClient, 'leaseGrant'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A lease id under which a key lives at least ttlSeconds from now. */
  leaseFor(ttlSeconds: number): Promise<string> {
    const now = this.now();
    const reuse = Math.min(Math.floor(LEASE_REUSE_FRACTION * ttlSeconds), LEASE_REUSE_SECONDS);
    const valid = now + ttlSeconds * 1000 < this.prevExpiry;
    const sufficient = now + (ttlSeconds + reuse) * 1000 > this.prevExpiry;
    if (this.prevId !== undefined && valid && sufficient) return Promise.resolve(this.prevId);
    if (this.granting) return this.granting;
    const granted = ttlSeconds + reuse;
    this.granting = this.client
      .leaseGrant(granted)
      .then((res) => {
        this.prevId = res.ID;
        this.prevExpiry = now + granted * 1000;
        return res.ID;
      })
      .finally(() => {
        this.granting = undefined;
      });
    return this.granting;
  }

  /** Forgets the previous lease (etcd no longer knows it), so the next put gets a new one. */
  forget(id: string): void {
    if (this.prevId === id) {
      this.prevId = undefined;
      this.prevExpiry = 0;
    }
  }
}
