/**
 * Connection-level bounds for the TLS listener: how long a connection may take to finish its
 * TLS handshake, to send a request's headers, to send a whole request, and to sit idle between
 * requests; and how many idle connections one client address may hold.
 *
 * They bound what a client can hold without doing work (a slowloris, a half-open handshake, a
 * pile of silent sockets). They never bound a request once it has been received: a watch or a
 * long response runs as long as its handler says.
 */
import { readFileSync } from 'node:fs';

/** Every connection-level deadline, in milliseconds. */
export interface ConnectionTimeouts {
  /** From TCP accept to a completed TLS handshake, whatever the client trickles meanwhile. */
  handshakeMs: number;
  /** From the start of a request (or of the connection) to its last header byte. */
  headersMs: number;
  /** From the start of a request to its last body byte (headers included). */
  requestMs: number;
  /** Between requests on a keep-alive HTTP/1.1 connection or an HTTP/2 session with no open stream. */
  idleMs: number;
}

/**
 * Upstream's secure serving: ReadHeaderTimeout 32 s and IdleTimeout 90 s on the http.Server,
 * a 60 s request read bound (the request timeout), and Go's 10 s TLS handshake bound.
 */
export const DEFAULT_TIMEOUTS: Readonly<ConnectionTimeouts> = {
  handshakeMs: 10_000,
  headersMs: 32_000,
  requestMs: 60_000,
  idleMs: 90_000,
};

/** The soft open-files limit of this process (node raises it to the hard limit at start), or undefined off Linux. */
function openFilesLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The default cap on idle connections per client address: a quarter of the process's file
 * descriptors (5,000 with this machine's 20,000), at least 256, and 1,024 when the limit cannot
 * be read. One address can then never starve the others of descriptors by opening silent
 * sockets, while a test or a busy client on loopback that opens hundreds of connections at
 * once stays well inside it.
 */
export function defaultMaxIdleConnectionsPerAddress(): number {
  const limit = openFilesLimit();
  return limit === undefined ? 1024 : Math.max(256, Math.floor(limit / 4));
}

/**
 * Counts, per client address, the connections that are open but serving no request: those still
 * in their handshake, waiting for a first request, or idle between requests. Busy connections (a
 * request in flight, a watch) are real work bounded elsewhere (in-flight limits, request
 * timeouts) and are not counted, so many concurrent watches from one address stay possible.
 */
export class AddressLimits {
  private readonly open = new Map<string, number>();
  private readonly busyByAddress = new Map<string, number>();
  /** In-flight requests per busy connection (an HTTP/1.1 socket or an HTTP/2 session). */
  private readonly busy = new Map<object, { address: string; requests: number }>();

  constructor(readonly maxIdlePerAddress: number) {}

  /** Counts a newly accepted connection, or answers false (and counts nothing) when its address already holds its share of idle ones. */
  admit(address: string): boolean {
    const open = this.open.get(address) ?? 0;
    if (open - (this.busyByAddress.get(address) ?? 0) >= this.maxIdlePerAddress) return false;
    this.open.set(address, open + 1);
    return true;
  }

  /** Forgets an admitted connection once it has closed. */
  closed(address: string): void {
    const open = (this.open.get(address) ?? 1) - 1;
    if (open > 0) this.open.set(address, open);
    else this.open.delete(address);
  }

  /** A request started on `conn` (from `address`). */
  requestStarted(conn: object, address: string | undefined): void {
    if (address === undefined) return;
    const entry = this.busy.get(conn);
    if (entry) {
      entry.requests++;
      return;
    }
    this.busy.set(conn, { address, requests: 1 });
    this.busyByAddress.set(address, (this.busyByAddress.get(address) ?? 0) + 1);
  }

  /** A request on `conn` finished (answered, reset, or its connection closed). */
  requestEnded(conn: object): void {
    const entry = this.busy.get(conn);
    if (!entry || --entry.requests > 0) return;
    this.busy.delete(conn);
    const busy = (this.busyByAddress.get(entry.address) ?? 1) - 1;
    if (busy > 0) this.busyByAddress.set(entry.address, busy);
    else this.busyByAddress.delete(entry.address);
  }
}
