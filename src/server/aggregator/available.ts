/**
 * Upstream's AvailableConditionController: a local APIService is `Available=True` (`Local`); a
 * remote one is checked: its Service must exist, a ClusterIP Service must listen on the port
 * and have endpoints with addresses for that port, and its server must answer its discovery
 * path (`/apis/<group>/<version>`) as `system:kube-aggregator` in `system:masters` within 5 s,
 * on any of five parallel attempts: then `Passed`, else `False` with upstream's reason and
 * message. Checked on every change of the APIService, its Service or its Endpoints, every 30 s
 * (upstream's resync), and sooner after a failure. The discovery document a check fetched is
 * what aggregated discovery lists for the group version. Status is written only when it changes.
 */
import https from 'node:https';
import type { Obj } from '../../machinery/object.js';
import { rfc3339 } from '../../machinery/object.js';
import { isPlainObject } from '../../machinery/object.js';
import { list, num, rec, records, str } from '../../machinery/fields.js';
import { StatusError } from '../../machinery/status.js';
import { klog } from '../../machinery/klog.js';
import type { Registry } from '../../registry/registry.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { systemContext } from '../../registry/bootstrap.js';
import type { Cacher } from '../../storage/cacher/cacher.js';
import type { CoreLookup } from '../../admission/webhooks/target.js';
import { goDialError } from '../go-net-error.js';
import { type APIServiceView, discoveryPath } from './apiservice.js';
import type { APIServiceTable } from './table.js';
import { type BackendTransport, goTransportError } from './backend.js';
import { identityHeaders } from './identity-headers.js';
import type { AvailabilityMetrics } from './metrics.js';

export interface Condition {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

const LOCAL: Condition = { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
const PASSED: Condition = { status: 'True', reason: 'Passed', message: 'all checks passed' };

/** Upstream's discovery client timeout, its insurance timer and its number of parallel attempts. */
const CHECK_TIMEOUT_MS = 5000;
const INSURANCE_MS = 6000;
const ATTEMPTS = 5;
/** Upstream's informer resync of APIServices. */
const RESYNC_MS = 30_000;
/** After a failure the next check comes sooner, backing off to the resync period. */
const FIRST_RETRY_MS = 1000;
/** Checks running at once (each may wait up to INSURANCE_MS). */
const MAX_CONCURRENT_CHECKS = 8;
/** Largest discovery document read from a server (as the webhook client's response limit). */
const MAX_DISCOVERY_BYTES = 3 * 1024 * 1024;

export interface AvailabilityOptions {
  registry: Registry;
  apiServices: GenericStore;
  table: APIServiceTable;
  transport: BackendTransport;
  lookup: CoreLookup;
  services: Cacher;
  endpoints: Cacher;
  resyncMs?: number;
  metrics?: AvailabilityMetrics;
}

export interface AvailabilityController {
  stop(): void;
}

type Outcome = { condition: Condition; resources?: Record<string, unknown>[] };

export function startAvailabilityController(o: AvailabilityOptions): AvailabilityController {
  const queue = new Set<string>();
  const running = new Set<string>();
  const rerun = new Set<string>();
  const failures = new Map<string, number>();
  const retries = new Map<string, ReturnType<typeof setTimeout>>();
  let stopped = false;

  function enqueue(name: string): void {
    if (stopped) return;
    if (running.has(name)) {
      rerun.add(name);
      return;
    }
    queue.add(name);
    pump();
  }

  function pump(): void {
    while (!stopped && running.size < MAX_CONCURRENT_CHECKS && queue.size > 0) {
      const name = queue.values().next().value as string;
      queue.delete(name);
      running.add(name);
      void sync(name)
        .catch((e: unknown) => {
          // A status write lost (a store hiccup): checked again shortly, as upstream requeues.
          klog.error(e, 'APIService availability check failed', { name });
          retryLater(name);
        })
        .finally(() => {
          running.delete(name);
          if (rerun.delete(name)) queue.add(name);
          pump();
        });
    }
  }

  function retryLater(name: string): void {
    const n = (failures.get(name) ?? 0) + 1;
    failures.set(name, n);
    if (retries.has(name) || stopped) return;
    const delay = Math.min(FIRST_RETRY_MS * 2 ** (n - 1), o.resyncMs ?? RESYNC_MS);
    retries.set(
      name,
      setTimeout(() => {
        retries.delete(name);
        enqueue(name);
      }, delay),
    );
  }

  async function sync(name: string): Promise<void> {
    const view = o.table.get(name);
    if (view === undefined) {
      failures.delete(name);
      return;
    }
    const outcome = await check(view);
    o.metrics?.checked(name, outcome.condition.status === 'True', view.available, outcome.condition.reason);
    if (view.service) o.table.recordDiscovery(name, outcome.resources);
    if (outcome.condition.status === 'True') failures.delete(name);
    else retryLater(name);
    await writeCondition(name, outcome.condition);
  }

  async function check(view: APIServiceView): Promise<Outcome> {
    const s = view.service;
    if (s === undefined) return { condition: LOCAL };
    const where = `service/${s.name} in ${JSON.stringify(s.namespace)}`;
    const service = await o.lookup('services', s.namespace, s.name);
    if (service === undefined) return { condition: { status: 'False', reason: 'ServiceNotFound', message: `${where} is not present` } };
    const spec = rec(service.spec);
    if ((str(spec.type) || 'ClusterIP') === 'ClusterIP') {
      const port = records(spec.ports).find((p) => num(p.port) === s.port);
      if (port === undefined) return { condition: { status: 'False', reason: 'ServicePortError', message: `${where} is not listening on port ${s.port}` } };
      const endpoints = await o.lookup('endpoints', s.namespace, s.name);
      if (endpoints === undefined) return { condition: { status: 'False', reason: 'EndpointsNotFound', message: `cannot find endpoints for ${where}` } };
      const portName = str(port.name);
      const active = records(endpoints.subsets).some((sub) => list(sub.addresses).length > 0 && records(sub.ports).some((p) => str(p.name) === portName));
      if (!active) {
        return {
          condition: {
            status: 'False',
            reason: 'MissingEndpoints',
            message: `endpoints for ${where} have no addresses with port name ${JSON.stringify(portName)}`,
          },
        };
      }
    }
    const result = await firstSuccess(Array.from({ length: ATTEMPTS }, () => attempt(view)));
    if ('resources' in result) return { condition: PASSED, resources: result.resources };
    return { condition: { status: 'False', reason: 'FailedDiscoveryCheck', message: result.error } };
  }

  /** One GET of the discovery path; never rejects. */
  async function attempt(view: APIServiceView): Promise<Attempt> {
    let backend: Awaited<ReturnType<BackendTransport['resolve']>>;
    try {
      backend = await o.transport.resolve(view);
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
    const url = new URL(discoveryPath(view), backend.origin);
    const href = url.href;
    return new Promise((resolve) => {
      let done = false;
      const finish = (r: Attempt): void => {
        if (done) return;
        done = true;
        clearTimeout(clientTimeout);
        clearTimeout(insurance);
        resolve(r);
      };
      const failed = (why: string) => finish({ error: `failing or missing response from ${href}: ${why}` });
      const req = https.request(
        url,
        {
          ...backend.tls,
          agent: backend.agent,
          method: 'GET',
          headers: { accept: 'application/json', ...identityHeaders({ name: 'system:kube-aggregator', groups: ['system:masters'] }) },
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            res.resume();
            // 3xx counts as reachable, as upstream's check does not follow redirects.
            if (status >= 300 && status < 400) finish({ resources: [] });
            else failed(`bad status from ${href}: ${status}`);
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_DISCOVERY_BYTES) res.destroy(new Error(`the response exceeds ${MAX_DISCOVERY_BYTES} bytes`));
            else chunks.push(c);
          });
          res.on('end', () => finish({ resources: resourcesOf(Buffer.concat(chunks)) }));
          res.on('error', (e) => failed(`Get ${JSON.stringify(href)}: ${e.message}`));
        },
      );
      const clientTimeout = setTimeout(() => {
        failed(`Get ${JSON.stringify(href)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);
        req.destroy();
      }, CHECK_TIMEOUT_MS);
      const insurance = setTimeout(() => finish({ error: `timed out waiting for ${href}` }), INSURANCE_MS);
      req.on('error', (e) => {
        const dial = goTransportError(e) ?? goDialError(e, url.hostname.replace(/^\[|\]$/g, ''), url.host);
        failed(`Get ${JSON.stringify(href)}: ${dial}`);
      });
      req.end();
    });
  }

  /** Sets the Available condition as upstream's SetAPIServiceCondition does; writes only a change. */
  async function writeCondition(name: string, c: Condition): Promise<void> {
    const ctx = systemContext(o.registry);
    try {
      await o.apiServices.guaranteedUpdate(
        ctx,
        '',
        name,
        (obj: Obj) => {
          const status = rec(obj.status);
          const conditions = list(status.conditions).filter(isPlainObject) as Record<string, unknown>[];
          const old = conditions.find((x) => x.type === 'Available');
          if (old && old.status === c.status && old.reason === c.reason && old.message === c.message) throw UNCHANGED;
          const next = {
            type: 'Available',
            status: c.status,
            lastTransitionTime: old && old.status === c.status && typeof old.lastTransitionTime === 'string' ? old.lastTransitionTime : rfc3339(ctx.now),
            reason: c.reason,
            message: c.message,
          };
          return { ...obj, status: { ...status, conditions: old ? conditions.map((x) => (x === old ? next : x)) : [...conditions, next] } };
        },
        { dryRun: false, subresource: 'status' },
      );
    } catch (e) {
      if (e === UNCHANGED || (e instanceof StatusError && e.code === 404)) return;
      throw e;
    }
  }

  /** APIServices served by the Service (or Endpoints) stored at key (`<prefix><namespace>/<name>`): read from the key, never parsed. */
  function referencing(key: string): string[] {
    const remote = o.table.all().filter((v) => v.service !== undefined);
    if (remote.length === 0) return [];
    const slash = key.lastIndexOf('/');
    const name = key.slice(slash + 1);
    const namespace = key.slice(key.lastIndexOf('/', slash - 1) + 1, slash);
    return remote.filter((v) => v.service?.namespace === namespace && v.service.name === name).map((v) => v.name);
  }

  const unlisten = [
    o.table.onChange(enqueue),
    o.services.listen((e) => {
      for (const n of referencing(e.entry.key)) enqueue(n);
      return true;
    }),
    o.endpoints.listen((e) => {
      for (const n of referencing(e.entry.key)) enqueue(n);
      return true;
    }),
  ];
  const resync = setInterval(() => {
    for (const v of o.table.all()) if (v.service) enqueue(v.name);
  }, o.resyncMs ?? RESYNC_MS);
  resync.unref?.();
  for (const v of o.table.all()) enqueue(v.name);
  return {
    stop() {
      stopped = true;
      clearInterval(resync);
      for (const u of unlisten) u();
      for (const t of retries.values()) clearTimeout(t);
      retries.clear();
    },
  };
}

/** The `resources` of an APIResourceList; none when the body is not one. */
function resourcesOf(body: Buffer): Record<string, unknown>[] {
  try {
    return records(rec(JSON.parse(body.toString('utf8'))).resources);
  } catch {
    return [];
  }
}

type Attempt = { resources: Record<string, unknown>[] } | { error: string };

/** The first successful attempt, else the last failure to arrive (upstream's lastError). */
function firstSuccess(attempts: Promise<Attempt>[]): Promise<Attempt> {
  return new Promise((resolve) => {
    let left = attempts.length;
    for (const a of attempts) {
      void a.then((r) => {
        left--;
        if ('resources' in r || left === 0) resolve(r);
      });
    }
  });
}

/** Thrown by a condition change that changes nothing, so no write happens. */
const UNCHANGED = new Error('condition unchanged');
