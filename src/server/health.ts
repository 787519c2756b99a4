/** /healthz, /livez and /readyz of the API server (the rendering is machinery/health.ts). */
import { type HealthCheck, healthReport } from '../machinery/health.js';
import type { Response } from './http.js';
import { writeText } from './http.js';

export type { HealthCheck } from '../machinery/health.js';

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
  const answer = await healthReport(endpoint, checks, subPath, query);
  writeText(res, answer.status, answer.body);
}
