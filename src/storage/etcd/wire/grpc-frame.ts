/**
 * gRPC over HTTP/2, the parts a client needs (grpc/doc/PROTOCOL-HTTP2.md): each message is a
 * frame of 1 compressed-flag byte, a 4-byte big-endian length and the message; the call's
 * outcome is `grpc-status` / `grpc-message` in the trailers, or in the response headers of a
 * trailers-only response. Errors read as @grpc/grpc-js words them (`14 UNAVAILABLE: ...`), so
 * what matches etcd's texts in errors.ts matches either client's.
 */
import type { IncomingHttpHeaders } from 'node:http2';

export const GRPC_FRAME_HEADER_BYTES = 5;

/** gRPC status codes by value (their names are the error's words). */
export const GRPC_STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  DEADLINE_EXCEEDED: 4,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

/** A failed call: the gRPC status code and the server's (or the client's) message. */
export class GrpcError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
    /** True when the call never reached the server (no connection): it may go to another member. */
    readonly neverSent = false,
  ) {
    super(`${code} ${GRPC_STATUS_NAMES[code] ?? 'UNKNOWN'}: ${details}`);
  }
}

/** Writes a frame header for an uncompressed message of length bytes at buf[0..5). */
export function writeFrameHeader(buf: Buffer, length: number): void {
  buf[0] = 0;
  buf.writeUInt32BE(length, 1);
}

/** The call's outcome from headers or trailers carrying grpc-status; undefined when they carry none. */
export function statusOf(headers: IncomingHttpHeaders): GrpcError | null | undefined {
  const raw = headers['grpc-status'];
  if (raw === undefined) return undefined;
  const code = Number(raw);
  if (code === GrpcStatus.OK) return null;
  const message = headers['grpc-message'];
  const details = typeof message === 'string' ? percentDecode(message) : '';
  return new GrpcError(Number.isInteger(code) && code > 0 && code <= 16 ? code : GrpcStatus.UNKNOWN, details);
}

/**
 * The status of a response without grpc-status, from its HTTP status, as gRPC's spec maps it
 * (a proxy or a non-gRPC server answered).
 */
export function httpStatusError(status: number): GrpcError {
  return new GrpcError(HTTP_TO_GRPC.get(status) ?? GrpcStatus.UNKNOWN, `Received HTTP status code ${status}`);
}

const HTTP_TO_GRPC = new Map<number, number>([
  [400, GrpcStatus.INTERNAL],
  [401, GrpcStatus.UNAUTHENTICATED],
  [403, GrpcStatus.PERMISSION_DENIED],
  [404, GrpcStatus.UNIMPLEMENTED],
  [429, GrpcStatus.UNAVAILABLE],
  [502, GrpcStatus.UNAVAILABLE],
  [503, GrpcStatus.UNAVAILABLE],
  [504, GrpcStatus.UNAVAILABLE],
]);

/** grpc-message is percent-encoded UTF-8; a malformed escape is kept as sent. */
function percentDecode(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Splits a response body into messages as its chunks arrive; refuses a message over maxBytes
 * before buffering it, and compressed messages (this client asks for none).
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onMessage: (message: Buffer) => void,
  ) {}

  /** Feeds one chunk; throws a GrpcError for a frame it refuses. */
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= GRPC_FRAME_HEADER_BYTES) {
      const head = this.chunks[0].length >= GRPC_FRAME_HEADER_BYTES ? this.chunks[0] : this.flatten();
      if (head[0] !== 0) throw new GrpcError(GrpcStatus.INTERNAL, 'Received a compressed message, which this client did not ask for');
      const length = head.readUInt32BE(1);
      if (length > this.maxBytes) throw new GrpcError(GrpcStatus.RESOURCE_EXHAUSTED, `Received message larger than max (${length} vs. ${this.maxBytes})`);
      if (this.buffered < GRPC_FRAME_HEADER_BYTES + length) return;
      const all = this.chunks.length === 1 ? this.chunks[0] : this.flatten();
      const end = GRPC_FRAME_HEADER_BYTES + length;
      this.onMessage(all.subarray(GRPC_FRAME_HEADER_BYTES, end));
      if (end === all.length) {
        this.chunks = [];
        this.buffered = 0;
      } else {
        this.chunks = [all.subarray(end)];
        this.buffered = all.length - end;
      }
    }
  }

  /** True when a message has begun but not ended (the body stopped mid-frame). */
  partial(): boolean {
    return this.buffered > 0;
  }

  private flatten(): Buffer {
    const all = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [all];
    return all;
  }
}
