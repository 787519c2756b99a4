/**
 * The paths a component serves (Kubernetes 1.21 scheduler's newHealthzHandler and
 * installMetricHandler, plus later releases' /livez and /readyz): health, `/metrics` (DELETE
 * resets, as HandlerWithReset), `/configz`, and with profiling `/debug/pprof/` and
 * `PUT /debug/flags/v`. Component-neutral: the scheduler and a controller manager pass their
 * checks, registry and configuration.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { type HealthCheck, healthReport } from '../machinery/health.js';
import type { MetricsRegistry } from '../machinery/metrics.js';
import { profilingAnswer } from './profiling.js';

export type ServingRequest = IncomingMessage | Http2ServerRequest;
export type ServingResponse = ServerResponse | Http2ServerResponse;
export type ServingHandler = (req: ServingRequest, res: ServingResponse) => Promise<void>;

export interface ComponentEndpoints {
  /** Checks of /healthz (and, unless given their own, /livez and /readyz). */
  healthChecks: readonly HealthCheck[];
  livezChecks?: readonly HealthCheck[];
  readyzChecks?: readonly HealthCheck[];
  /** /metrics; absent on a port that serves health only. */
  metrics?: MetricsRegistry;
  /** /configz: the component's configuration objects by name (`componentconfig`). */
  configz?: () => Record<string, unknown>;
  /** /debug/pprof/ and /debug/flags/v. */
  profiling: boolean;
  /** Applies `PUT /debug/flags/v`. */
  setVerbosity?: (level: number) => void;
}

const MAX_FLAG_BODY = 1024;

export function write(res: ServingResponse, status: number, contentType: string, body: string | Buffer): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': contentType, 'x-content-type-options': 'nosniff', 'content-length': bytes.length });
  res.end(bytes);
}

const TEXT = 'text/plain; charset=utf-8';

function readSmallBody(req: ServingRequest, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        resolve(undefined);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function componentHandler(ep: ComponentEndpoints): ServingHandler {
  const health = new Map<string, readonly HealthCheck[]>([
    ['healthz', ep.healthChecks],
    ['livez', ep.livezChecks ?? ep.healthChecks],
    ['readyz', ep.readyzChecks ?? ep.healthChecks],
  ]);
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://component');
    const path = url.pathname;
    const segments = path.split('/').filter((s) => s !== '');
    const first = segments[0] ?? '';
    const checks = health.get(first);
    if (checks && (req.method === 'GET' || req.method === 'HEAD')) {
      const answer = await healthReport(first, checks, segments.slice(1).join('/'), url.searchParams);
      write(res, answer.status, TEXT, answer.body);
      return;
    }
    if (ep.metrics && path === '/metrics') {
      if (req.method === 'DELETE') {
        ep.metrics.reset();
        write(res, 200, TEXT, 'metrics reset\n');
        return;
      }
      write(res, 200, 'text/plain; version=0.0.4; charset=utf-8', ep.metrics.expose());
      return;
    }
    if (ep.configz && path === '/configz') {
      write(res, 200, 'application/json', JSON.stringify(ep.configz()));
      return;
    }
    if (ep.profiling && (path === '/debug/pprof' || path.startsWith('/debug/pprof/'))) {
      if (path === '/debug/pprof') {
        res.writeHead(301, { location: '/debug/pprof/' });
        res.end();
        return;
      }
      const answer = await profilingAnswer(path.slice('/debug/pprof/'.length), url.searchParams);
      write(res, answer.status, answer.contentType, answer.body);
      return;
    }
    if (ep.profiling && ep.setVerbosity && path === '/debug/flags/v') {
      if (req.method !== 'PUT') {
        write(res, 405, TEXT, 'method not allowed\n');
        return;
      }
      const body = await readSmallBody(req, MAX_FLAG_BODY);
      const value = (body ?? '').trim();
      const level = /^\d+$/.test(value) ? Number(value) : Number.NaN;
      if (body === undefined || !Number.isSafeInteger(level)) {
        write(res, 400, TEXT, `failed set klog.logging.verbosity ${value}: strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
        return;
      }
      ep.setVerbosity(level);
      write(res, 200, TEXT, `successfully set klog.logging.verbosity to ${value}`);
      return;
    }
    write(res, 404, TEXT, '404 page not found\n');
  };
}
