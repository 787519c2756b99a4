/**
 * HTTP/2 sessions to the etcd members of `--etcd-servers`, one at a time: calls go to the
 * current member until its session fails, then the next member that connects becomes current.
 * A session counts as connected once the member's SETTINGS arrived (a member that accepts TCP
 * but does not answer, stopped or hung, is passed over after the dial timeout). A member killed
 * outright closes its sockets, which ends the session at once; one that stops answering on an
 * open connection is found by keepalive pings (as upstream's client: every 30 s, 10 s to
 * answer). Either way the next call goes to the next member.
 */
import { type ClientHttp2Session, connect } from 'node:http2';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { GrpcError, GrpcStatus } from './grpc-frame.js';

export interface EtcdConnectionOptions {
  /** Client URLs, e.g. https://127.0.0.1:2379. */
  servers: string[];
  /** TLS for every member (with https:// endpoints or any of these set): CA (default: the well-known roots), client certificate and key (PEM). */
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer };
  /** How long a member may take to connect before the next is tried. */
  dialTimeoutMs: number;
  keepaliveMs?: number;
  keepaliveTimeoutMs?: number;
}

/** upstream's client keepalive. */
const KEEPALIVE_MS = 30_000;
const KEEPALIVE_TIMEOUT_MS = 10_000;
/**
 * Flow-control windows: a range of a few thousand objects arrives without a WINDOW_UPDATE round
 * trip per 64 KiB (HTTP/2's default). Node buffers at most this per session.
 */
const STREAM_WINDOW_BYTES = 4 << 20;
const SESSION_WINDOW_BYTES = 16 << 20;
const MAX_SESSION_MEMORY_MB = 64;

interface Member {
  origin: string;
  session?: ClientHttp2Session;
  /** The session answered with its SETTINGS: calls may go on it. */
  ready: boolean;
  connecting?: Promise<ClientHttp2Session>;
}

export class EtcdConnection {
  private readonly members: Member[];
  private current = 0;
  private closed = false;
  private readonly tls: { ca?: Buffer; cert?: Buffer; key?: Buffer } | undefined;

  constructor(private readonly opts: EtcdConnectionOptions) {
    if (opts.servers.length === 0) throw new Error('no etcd servers given');
    const secure = opts.tls !== undefined || opts.servers.some((s) => s.startsWith('https://'));
    this.tls = secure ? (opts.tls ?? {}) : undefined;
    this.members = opts.servers.map((server) => {
      const url = new URL(server.includes('://') ? server : `http://${server}`);
      return { origin: `${secure ? 'https' : 'http'}://${url.host}`, ready: false };
    });
  }

  /** How many members calls may go to. */
  get memberCount(): number {
    return this.members.length;
  }

  /** The current member's connected session, if it has one (the path of almost every call: no promise). */
  readySession(): ClientHttp2Session | undefined {
    const m = this.members[this.current];
    return m.ready ? m.session : undefined;
  }

  /**
   * A connected session, trying each member once from the current one (from the next, when the
   * current one's session is `refused`: it turned a call away unprocessed); rejects with a
   * never-sent UNAVAILABLE when none connects.
   */
  async connect(refused?: ClientHttp2Session): Promise<ClientHttp2Session> {
    let last: unknown;
    const start = refused !== undefined && this.members[this.current].session === refused ? this.current + 1 : this.current;
    for (let i = 0; i < this.members.length; i++) {
      if (this.closed) break;
      const index = (start + i) % this.members.length;
      try {
        const session = await this.memberSession(this.members[index]);
        this.current = index;
        return session;
      } catch (err) {
        last = err;
      }
    }
    const reason = this.closed ? 'the client is closed' : `Last error: ${last instanceof Error ? last.message : String(last)}`;
    throw new GrpcError(GrpcStatus.UNAVAILABLE, `No connection established. ${reason}`, true);
  }

  /** Closes every session; streams in flight end (the store has settled its calls first). */
  close(): void {
    this.closed = true;
    for (const m of this.members) {
      const s = m.session;
      this.detach(m, s);
      s?.destroy();
    }
  }

  private memberSession(m: Member): Promise<ClientHttp2Session> {
    if (m.ready && m.session) return Promise.resolve(m.session);
    if (m.connecting) return m.connecting;
    const session = connect(m.origin, {
      createConnection: (authority: URL) => this.socketTo(authority),
      settings: { enablePush: false, initialWindowSize: STREAM_WINDOW_BYTES },
      maxSessionMemory: MAX_SESSION_MEMORY_MB,
    });
    m.session = session;
    m.ready = false;
    let failure: Error | undefined;
    // Every session error is reported through the calls it ends; an unhandled one would crash.
    session.on('error', (err: Error) => {
      failure = err;
    });
    // A member going away (restart, shutdown) finishes its calls; new ones open a new session.
    session.on('goaway', () => this.detach(m, session));
    m.connecting = new Promise<ClientHttp2Session>((resolve, reject) => {
      const dial = setTimeout(
        () => session.destroy(new Error(`connecting to ${m.origin} took longer than ${this.opts.dialTimeoutMs} ms`)),
        this.opts.dialTimeoutMs,
      );
      session.once('remoteSettings', () => {
        clearTimeout(dial);
        if (m.session !== session) return;
        m.ready = true;
        m.connecting = undefined;
        session.setLocalWindowSize(SESSION_WINDOW_BYTES);
        // Idle sessions do not keep the process alive; a call's deadline timer does meanwhile.
        session.unref();
        this.keepalive(session);
        resolve(session);
      });
      session.once('close', () => {
        clearTimeout(dial);
        this.detach(m, session);
        reject(failure ?? new Error(`connection to ${m.origin} closed`));
      });
    });
    // Rejections are read by connect(); one nobody awaits must not be reported as unhandled.
    m.connecting.catch(() => {});
    return m.connecting;
  }

  /**
   * The connection under a member's session. Without Nagle's algorithm: a call's frames go out at
   * once, not held back behind an unacknowledged earlier write (up to the peer's delayed ACK,
   * 40 ms). With TLS the socket is ours to name the server only by a host name (SNI takes no
   * IP address).
   */
  private socketTo(authority: URL): Socket {
    const host = authority.hostname.replace(/^\[|\]$/g, '');
    const tls = this.tls;
    if (!tls) return netConnect({ host, port: Number(authority.port || 80), noDelay: true });
    const socket = tlsConnect({
      host,
      port: Number(authority.port || 443),
      servername: isIP(host) ? undefined : host,
      ALPNProtocols: ['h2'],
      ca: tls.ca,
      cert: tls.cert,
      key: tls.key,
    });
    socket.setNoDelay(true);
    return socket;
  }

  /** Forgets session as m's (once it failed or is going away), so the next call connects anew. */
  private detach(m: Member, session: ClientHttp2Session | undefined): void {
    if (session === undefined || m.session !== session) return;
    m.session = undefined;
    m.ready = false;
    m.connecting = undefined;
  }

  /** Pings the member every keepaliveMs; one not answered in keepaliveTimeoutMs ends the session. */
  private keepalive(session: ClientHttp2Session): void {
    const every = this.opts.keepaliveMs ?? KEEPALIVE_MS;
    const within = this.opts.keepaliveTimeoutMs ?? KEEPALIVE_TIMEOUT_MS;
    const timer = setInterval(() => {
      if (session.destroyed || session.closed) return;
      const unanswered = setTimeout(() => session.destroy(new Error(`keepalive ping not answered within ${within} ms`)), within);
      unanswered.unref();
      try {
        // An error here is the session ending, which its own close reports.
        session.ping(() => clearTimeout(unanswered));
      } catch {
        clearTimeout(unanswered);
      }
    }, every);
    timer.unref();
    session.once('close', () => clearInterval(timer));
  }
}
