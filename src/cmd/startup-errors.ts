/**
 * Start-up failures as one line a user can act on. Lower layers already throw such messages
 * for what they own (the store file, the certificates); this adds the listener's errors and
 * reduces anything else to its first line, since a stack trace helps nobody starting a server.
 */

/** Where the server was asked to listen, for listener errors. */
export interface ListenTarget {
  bindAddress: string;
  port: number;
}

const IN_USE = 'the address is already in use (another server?): stop it, or';

/** A listen that failed because the port is taken, with where it was tried. */
class AddressInUseError extends Error {
  constructor(readonly where: string) {
    super(`cannot listen on ${where}: ${IN_USE} choose another --secure-port (0 picks a free one)`);
  }
}

/** The Error a failed listen becomes: the address, the cause and the fix in one line. */
export function explainListenError(err: unknown, target: ListenTarget): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const where = `${target.bindAddress.includes(':') ? `[${target.bindAddress}]` : target.bindAddress}:${target.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new AddressInUseError(where);
    case 'EACCES':
      return new Error(`cannot listen on ${where}: permission denied: choose a --secure-port above 1023, or run with the privilege to bind low ports`);
    case 'EADDRNOTAVAIL':
      return new Error(`cannot listen on ${where}: ${target.bindAddress} is not an address of this machine: choose another --bind-address`);
  }
  return err;
}

/**
 * One line for any start-up failure: the error's message without a stack. `rerun` is how the
 * user started this (`npm start --`, `orch`): a taken port then suggests the exact command
 * that picks a free one.
 */
export function startupErrorLine(err: unknown, rerun?: string): string {
  if (err instanceof AddressInUseError && rerun !== undefined)
    return `error: cannot listen on ${err.where}: ${IN_USE} pick a free port: ${rerun} --secure-port 0`;
  const message = err instanceof Error ? err.message : String(err);
  const line = message.split('\n').find((l) => l.trim() !== '') ?? 'start-up failed';
  return `error: ${line.trim()}`;
}
