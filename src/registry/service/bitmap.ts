/**
 * A bitmap over the offsets 0..size-1 of a range, as upstream's allocator.AllocationBitmap:
 * one bit per address or port, so a /8 of cluster IPs costs 2 MiB and a lookup is O(1).
 */
export class RangeBitmap {
  private readonly bits: Uint8Array;
  private used = 0;

  constructor(readonly size: number) {
    this.bits = new Uint8Array(Math.ceil(size / 8));
  }

  /** Offsets taken. */
  get count(): number {
    return this.used;
  }

  /** True when offset i is taken (offsets outside the range never are). */
  has(i: number): boolean {
    return Number.isInteger(i) && i >= 0 && i < this.size && (this.bits[i >> 3] & (1 << (i & 7))) !== 0;
  }

  /** Takes offset i; false when it is outside the range or already taken. */
  allocate(i: number): boolean {
    if (!Number.isInteger(i) || i < 0 || i >= this.size || this.has(i)) return false;
    this.bits[i >> 3] |= 1 << (i & 7);
    this.used++;
    return true;
  }

  /** Frees every offset. */
  clear(): void {
    this.bits.fill(0);
    this.used = 0;
  }

  /** Frees offset i; freeing a free or outside offset does nothing. */
  release(i: number): void {
    if (!this.has(i)) return;
    this.bits[i >> 3] &= ~(1 << (i & 7));
    this.used--;
  }

  /**
   * A free offset, scanning from `start` and wrapping (upstream scans from a random offset so
   * restarts do not hand out the same values first); undefined when the range is full. Full
   * bytes are skipped eight offsets at a time.
   */
  findFree(start: number): number | undefined {
    if (this.used >= this.size) return undefined;
    let i = ((Math.floor(start) % this.size) + this.size) % this.size;
    for (let seen = 0; seen < this.size; ) {
      if ((i & 7) === 0 && this.bits[i >> 3] === 0xff && i + 8 <= this.size) {
        i = (i + 8) % this.size;
        seen += 8;
        continue;
      }
      if (!this.has(i)) return i;
      i = (i + 1) % this.size;
      seen++;
    }
    return undefined;
  }
}
