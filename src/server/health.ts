/**
 * /healthz, /livez and /readyz exactly as upstream's healthz package renders them:
 * `ok` when healthy, one `[+]name ok` line per check with `verbose`, `exclude=<name>`,
 * single checks at `/<endpoint>/<name>`, and 500 with `[-]<name> failed` lines when not.
 */
import type { Response } from './http.js';
import { writeText } from './http.js';

export interface HealthCheck {
  readonly name: string;
  /** Resolves when healthy; throws (or rejects) with the reason when not. */
  check(): void | Promise<void>;
}

/** A check that passes once `done()` has been called (post-start hooks). */
export function hookCheck(name: string): HealthCheck & { done(): void } {
  let finished = false;
  return {
    name,
    done() {
      finished = true;
    },
    check() {
      if (!finished) throw new Error('not finished');
    },
  };
}

/** Serves one health endpoint (`livez`, `readyz` or `healthz`) over its checks. */
export async function serveHealth(endpoint: string, checks: readonly HealthCheck[], subPath: string, query: URLSearchParams, res: Response): Promise<void> {
  if (subPath !== '') {
    const single = checks.find((c) => c.name === subPath);
    if (!single) {
      writeText(res, 404, '404 page not found\n');
      return;
    }
    try {
      await single.check();
      writeText(res, 200, 'ok');
    } catch (e) {
      writeText(res, 500, `internal server error: ${e instanceof Error ? e.message : String(e)}\n`);
    }
    return;
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
  if (failed) {
    writeText(res, 500, `${lines.join('\n')}\n${endpoint} check failed\n`);
    return;
  }
  writeText(res, 200, verbose ? `${lines.join('\n')}\n${endpoint} check passed\n` : 'ok');
}
