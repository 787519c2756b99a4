/**
 * One unary gRPC call on the connection's current session: the request frame goes out with the
 * deadline as grpc-timeout, the single response message is decoded once the trailers say OK.
 *
 * Only a call that cannot have reached etcd goes to another member: no session could be opened,
 * the session was gone before the request was written, or etcd refused the stream unprocessed
 * (REFUSED_STREAM, which is also what streams past a GOAWAY end with). Anything else, a lost
 * connection or the deadline included, fails the call, because a Txn whose answer was lost may
 * have committed (a retried create would then answer AlreadyExists for its own write).
 */
import { type ClientHttp2Session, type ClientHttp2Stream, constants, type IncomingHttpHeaders } from 'node:http2';
import type { EtcdConnection } from './connection.js';
import { FrameReader, GrpcError, GrpcStatus, httpStatusError, statusOf } from './grpc-frame.js';

export interface UnaryCallOptions {
  /** The call's deadline from now. */
  timeoutMs: number;
  /** The largest response message accepted. */
  maxReceiveBytes: number;
}

/** grpc-timeout's value: at most 8 digits and a unit. */
function grpcTimeout(ms: number): string {
  return ms < 1e8 ? `${Math.max(1, Math.ceil(ms))}m` : `${Math.ceil(ms / 1000)}S`;
}

/** Calls path (`/etcdserverpb.KV/Txn`) with an encoded request frame; resolves with the decoded response. */
export function unaryCall<T>(conn: EtcdConnection, path: string, frame: Buffer, decode: (message: Buffer) => T, opts: UnaryCallOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const deadline = performance.now() + opts.timeoutMs;
    let settled = false;
    let stream: ClientHttp2Stream | undefined;
    /** Members left to try after a call that was never sent. */
    let attemptsLeft = Math.max(1, conn.memberCount);

    const settle = (err: GrpcError | undefined, value?: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(value as T);
    };
    const timer = setTimeout(() => {
      settle(new GrpcError(GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded'));
      // The stream is cancelled; etcd may still apply a write it had already received.
      if (stream && !stream.closed) stream.close(constants.NGHTTP2_CANCEL);
    }, opts.timeoutMs);

    const retryOrFail = (err: GrpcError, refusedBy?: ClientHttp2Session) => {
      if (settled) return;
      if (err.neverSent && --attemptsLeft > 0) {
        conn.connect(refusedBy).then(send, settle);
        return;
      }
      settle(err);
    };

    const send = (session: ClientHttp2Session) => {
      if (settled) return;
      let s: ClientHttp2Stream;
      try {
        s = session.request({
          ':method': 'POST',
          ':path': path,
          'content-type': 'application/grpc',
          te: 'trailers',
          'grpc-timeout': grpcTimeout(deadline - performance.now()),
        });
      } catch (err) {
        // The session closed between being picked and the request: nothing was written.
        retryOrFail(new GrpcError(GrpcStatus.UNAVAILABLE, (err as Error).message, true));
        return;
      }
      stream = s;
      let outcome: GrpcError | null | undefined;
      let message: Buffer | undefined;
      let failure: GrpcError | undefined;
      let streamError: Error | undefined;
      const reader = new FrameReader(opts.maxReceiveBytes, (m) => {
        if (message !== undefined) failure ??= new GrpcError(GrpcStatus.UNIMPLEMENTED, 'Received a second response message for a unary call');
        message = m;
      });
      s.on('response', (headers: IncomingHttpHeaders) => {
        const status = Number(headers[':status']);
        // A trailers-only response carries the status in its headers.
        outcome = statusOf(headers);
        if (outcome === undefined && status !== 200) outcome = httpStatusError(status);
      });
      s.on('data', (chunk: Buffer) => {
        if (failure) return;
        try {
          reader.push(chunk);
        } catch (err) {
          failure = err as GrpcError;
          s.close(constants.NGHTTP2_CANCEL);
        }
      });
      s.on('trailers', (trailers: IncomingHttpHeaders) => {
        const status = statusOf(trailers);
        if (status !== undefined) outcome = status;
      });
      s.on('error', (err: Error) => {
        streamError = err;
      });
      s.on('close', () => {
        if (settled) return;
        if (failure) return settle(failure);
        if (outcome === null) {
          if (message === undefined || reader.partial()) return settle(new GrpcError(GrpcStatus.UNIMPLEMENTED, 'No message received for a unary call'));
          let value: T;
          try {
            value = decode(message);
          } catch (err) {
            return settle(new GrpcError(GrpcStatus.INTERNAL, `Failed to parse server response: ${(err as Error).message}`));
          }
          return settle(undefined, value);
        }
        if (outcome) return settle(outcome);
        if (s.rstCode === constants.NGHTTP2_REFUSED_STREAM)
          return retryOrFail(new GrpcError(GrpcStatus.UNAVAILABLE, 'Stream refused by server', true), session);
        // The connection went away under the call (the member died, or was cut off).
        if (session.destroyed || session.closed)
          return settle(new GrpcError(GrpcStatus.UNAVAILABLE, `Connection dropped${streamError ? `: ${streamError.message}` : ''}`));
        settle(
          s.rstCode && s.rstCode !== constants.NGHTTP2_NO_ERROR
            ? new GrpcError(GrpcStatus.INTERNAL, `Received RST_STREAM with code ${s.rstCode}`)
            : new GrpcError(GrpcStatus.UNAVAILABLE, streamError?.message ?? 'Stream ended without a status'),
        );
      });
      s.end(frame);
    };

    const ready = conn.readySession();
    if (ready) send(ready);
    else conn.connect().then(send, settle);
  });
}
