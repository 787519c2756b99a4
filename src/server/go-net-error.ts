/**
 * Node's socket errors in the words of Go's net package, which upstream's proxy and log errors
 * carry to clients (`dial tcp 10.0.0.1:10250: connect: connection refused`).
 */
const CONNECT_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connect: connection refused',
  EHOSTUNREACH: 'connect: no route to host',
  ENETUNREACH: 'connect: network is unreachable',
  ECONNRESET: 'read: connection reset by peer',
  ETIMEDOUT: 'i/o timeout',
  EADDRNOTAVAIL: 'connect: cannot assign requested address',
};

export function goDialError(err: unknown, host: string, hostPort: string): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return `dial tcp: lookup ${host}: no such host`;
  const text = e.code ? CONNECT_ERRORS[e.code] : undefined;
  // Go dials the resolved address and names it: `dial tcp 127.0.0.1:8443`, not the host name.
  const { address, port } = e as NodeJS.ErrnoException & { address?: string; port?: number };
  const dialed = typeof address === 'string' && typeof port === 'number' ? (address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`) : hostPort;
  return `dial tcp ${dialed}: ${text ?? e.message}`;
}
