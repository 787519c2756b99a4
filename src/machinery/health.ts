/**
 * Health reports exactly as upstream's healthz package renders them: `ok` when healthy, one
 * `[+]name ok` line per check with `verbose`, `exclude=<name>`, single checks at
 * `/<endpoint>/<name>`, and 500 with `[-]<name> failed` lines when not. Pure: the API server and
 * the components' health ports write the answer.
 */

export interface HealthCheck {
  readonly name: string;
  /** Resolves when healthy; throws (or rejects) with the reason when not. */
  check(): void | Promise<void>;
}

export interface HealthAnswer {
  status: number;
  body: string;
}

/** The answer of one health endpoint (`livez`, `readyz` or `healthz`) over its checks. */
export async function healthReport(endpoint: string, checks: readonly HealthCheck[], subPath: string, query: URLSearchParams): Promise<HealthAnswer> {
  if (subPath !== '') {
    const single = checks.find((c) => c.name === subPath);
    if (!single) return { status: 404, body: '404 page not found\n' };
    try {
      await single.check();
      return { status: 200, body: 'ok' };
    } catch (e) {
      return { status: 500, body: `internal server error: ${e instanceof Error ? e.message : String(e)}\n` };
    }
  }
  const excluded = new Set(
    query
      .getAll('exclude')
      .flatMap((v) => v.split(','))
      .filter((v) => v !== ''),
  );
  const verbose = query.has('verbose');
  const lines: string[] = [];
  let failed = false;
  for (const c of checks) {
    if (excluded.has(c.name)) {
      excluded.delete(c.name);
      lines.push(`[+]${c.name} excluded: ok`);
      continue;
    }
    try {
      await c.check();
      lines.push(`[+]${c.name} ok`);
    } catch {
      failed = true;
      lines.push(`[-]${c.name} failed: reason withheld`);
    }
  }
  if (excluded.size > 0) {
    lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].map((n) => `"${n}"`).join(',')}`);
  }
  if (failed) return { status: 500, body: `${lines.join('\n')}\n${endpoint} check failed\n` };
  return { status: 200, body: verbose ? `${lines.join('\n')}\n${endpoint} check passed\n` : 'ok' };
}
