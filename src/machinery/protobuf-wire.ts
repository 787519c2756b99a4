/**
 * Protocol Buffers wire primitives (varints, tags, length-delimited fields) for the few messages
 * orch encodes by hand where a reflective encoder costs too much per call: the Kubernetes
 * envelope (codec) and etcd's KV and watch messages (storage). Numbers are JavaScript numbers,
 * exact up to 2^53 (revisions, counts, sizes); 64-bit identifiers (etcd lease ids) go through
 * the bigint variants.
 */

/** Wire types of a field's tag. */
export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

/** Bytes of a varint of the non-negative n. */
export function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** Writes the non-negative n as a varint at pos; returns the position after it. */
export function writeVarint(buf: Uint8Array, pos: number, n: number): number {
  while (n >= 0x80) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  buf[pos++] = n;
  return pos;
}

/** Bytes of an int64 varint of n (negative values take ten, as two's complement). */
export function bigVarintSize(n: bigint): number {
  let v = BigInt.asUintN(64, n);
  let size = 1;
  while (v >= 0x80n) {
    v >>= 7n;
    size++;
  }
  return size;
}

/** Writes n as an int64 varint at pos; returns the position after it. */
export function writeBigVarint(buf: Uint8Array, pos: number, n: bigint): number {
  let v = BigInt.asUintN(64, n);
  while (v >= 0x80n) {
    buf[pos++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  buf[pos++] = Number(v);
  return pos;
}

/** Bytes of a field's tag. */
export function tagSize(field: number): number {
  return varintSize(field << 3);
}

/** Bytes of a varint field holding n. */
export function varintFieldSize(field: number, n: number): number {
  return tagSize(field) + varintSize(n);
}

/** Bytes of a length-delimited field of length bytes. */
export function bytesFieldSize(field: number, length: number): number {
  return tagSize(field) + varintSize(length) + length;
}

/** Sequential writes into a buffer sized beforehand (the size functions above); never grows. */
export class ProtoWriter {
  pos: number;

  constructor(
    readonly buf: Buffer,
    pos = 0,
  ) {
    this.pos = pos;
  }

  /** A varint field, written even when n is 0 (oneof members, whose presence is the value). */
  varintField(field: number, n: number): void {
    this.pos = writeVarint(this.buf, writeVarint(this.buf, this.pos, (field << 3) | WIRE_VARINT), n);
  }

  /** An int64 field given as a bigint (etcd's 64-bit ids). */
  bigVarintField(field: number, n: bigint): void {
    this.pos = writeBigVarint(this.buf, writeVarint(this.buf, this.pos, (field << 3) | WIRE_VARINT), n);
  }

  /** A bytes field. */
  bytesField(field: number, content: Uint8Array): void {
    this.pos = writeVarint(this.buf, writeVarint(this.buf, this.pos, (field << 3) | WIRE_BYTES), content.length);
    this.buf.set(content, this.pos);
    this.pos += content.length;
  }

  /** The tag and length of an embedded message whose length bytes the caller writes next. */
  messageHeader(field: number, length: number): void {
    this.pos = writeVarint(this.buf, writeVarint(this.buf, this.pos, (field << 3) | WIRE_BYTES), length);
  }
}

/** A malformed message: truncated, a varint over ten bytes, or an unknown wire type. */
export class ProtoDecodeError extends Error {}

/** Sequential reads of one message's fields within [pos, end); bytes fields are views, not copies. */
export class ProtoReader {
  pos: number;

  constructor(
    readonly buf: Buffer,
    pos = 0,
    public end = buf.length,
  ) {
    this.pos = pos;
  }

  /** True while fields remain. */
  more(): boolean {
    return this.pos < this.end;
  }

  /** A varint as a number (exact to 2^53; larger values, such as 64-bit ids, lose low bits). */
  varint(): number {
    const buf = this.buf;
    let pos = this.pos;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (pos >= this.end) throw new ProtoDecodeError('truncated varint');
      const b = buf[pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) {
        this.pos = pos;
        return result;
      }
      scale *= 128;
    }
    throw new ProtoDecodeError('varint longer than ten bytes');
  }

  /** An int64 varint as a bigint (two's complement: negative values come back negative). */
  bigVarint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtoDecodeError('truncated varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asIntN(64, result);
      shift += 7n;
    }
    throw new ProtoDecodeError('varint longer than ten bytes');
  }

  /** A length-delimited field's content (a view into the buffer). */
  bytes(): Buffer {
    const length = this.varint();
    const start = this.pos;
    if (length > this.end - start) throw new ProtoDecodeError('truncated length-delimited field');
    this.pos = start + length;
    return this.buf.subarray(start, this.pos);
  }

  /** The end of an embedded message starting here (after its length), moving past the length. */
  messageEnd(): number {
    const length = this.varint();
    if (length > this.end - this.pos) throw new ProtoDecodeError('truncated embedded message');
    return this.pos + length;
  }

  /** Skips a field of wireType (one this decoder does not read). */
  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_FIXED64:
        this.pos += 8;
        break;
      case WIRE_BYTES:
        this.bytes();
        return;
      case WIRE_FIXED32:
        this.pos += 4;
        break;
      default:
        throw new ProtoDecodeError(`unsupported wire type ${wireType}`);
    }
    if (this.pos > this.end) throw new ProtoDecodeError('truncated fixed-width field');
  }
}
