/**
 * Deadlines for one HTTP/2 session, node's http2 server having none that spare long-running
 * streams (its `timeout` counts any silence, which a quiet watch is): a session must open its
 * first stream within the header deadline and, once its streams are all closed, open another
 * within the idle deadline; a stream must finish sending its request within the request deadline.
 */
import http2 from 'node:http2';
import type { ConnectionTimeouts } from './connection-limits.js';

const { NGHTTP2_CANCEL, NGHTTP2_STREAM_STATE_OPEN, NGHTTP2_STREAM_STATE_HALF_CLOSED_LOCAL } = http2.constants;

/** How long a session told to go away (GOAWAY) may take to close before its socket is destroyed. */
const GOAWAY_GRACE_MS = 1000;

export interface SessionHooks {
  /** The session went from no open stream to one. */
  busy(): void;
  /** The session's last open stream closed (or the session closed with streams open). */
  idle(): void;
}

/** Arms the session's deadlines; `socket` is its TLS socket, destroyed if the client ignores the GOAWAY. */
export function guardSession(
  session: http2.ServerHttp2Session,
  socket: { destroy(): void },
  timeouts: Pick<ConnectionTimeouts, 'headersMs' | 'requestMs' | 'idleMs'>,
  hooks: SessionHooks,
): void {
  let open = 0;
  let timer: NodeJS.Timeout | undefined;
  const goAway = () => {
    if (session.destroyed) return;
    session.close();
    setTimeout(() => socket.destroy(), GOAWAY_GRACE_MS).unref();
  };
  const arm = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(goAway, ms).unref();
  };
  arm(timeouts.headersMs);
  session.on('stream', (stream: http2.ServerHttp2Stream) => {
    if (open++ === 0) {
      clearTimeout(timer);
      hooks.busy();
    }
    // Only the client's half is bounded: once it has sent END_STREAM the handler takes as long
    // as it needs (a watch, a long list).
    const reading = setTimeout(() => {
      if (stream.destroyed) return;
      const state = stream.state.state;
      if (state === NGHTTP2_STREAM_STATE_OPEN || state === NGHTTP2_STREAM_STATE_HALF_CLOSED_LOCAL) stream.close(NGHTTP2_CANCEL);
    }, timeouts.requestMs).unref();
    stream.once('close', () => {
      clearTimeout(reading);
      if (--open > 0) return;
      hooks.idle();
      if (!session.destroyed && !session.closed) arm(timeouts.idleMs);
    });
  });
  session.once('close', () => {
    clearTimeout(timer);
  });
}
