/**
 * Where a webhook is called: its `url`, or its `service` resolved as upstream's endpoint-routing
 * resolver does: an ExternalName Service is called at its external name; another Service at a
 * ready address of its Endpoints for the named port. The TLS server name of a service is
 * `<name>.<namespace>.svc`, as upstream verifies it. Loopback addresses are never taken from
 * Endpoints (upstream's Endpoints validation refuses them): a local webhook uses the url form.
 */
import { isIP } from 'node:net';
import { num, type Rec, records, str } from '../../machinery/fields.js';
import type { HookClientConfig } from './hook.js';
import type { WebhookTarget } from './caller.js';

/** Reads a stored core object (`services`, `endpoints`); undefined when absent. */
export type CoreLookup = (resource: 'services' | 'endpoints', namespace: string, name: string) => Promise<Rec | undefined>;

const isLoopback = (ip: string): boolean => (isIP(ip) === 4 ? ip.startsWith('127.') : ip === '::1' || ip.startsWith('::ffff:127.'));

/** host:port in URL form (IPv6 bracketed). */
const hostPort = (host: string, port: number): string => `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;

function withPath(base: string, path: string): URL {
  const url = new URL(base);
  url.pathname = path === '' ? '/' : path;
  return url;
}

/** The target of a hook's clientConfig; throws an Error whose message upstream's resolver would give. */
export async function resolveTarget(cfg: HookClientConfig, lookup: CoreLookup): Promise<WebhookTarget> {
  if (cfg.url !== undefined) return { url: new URL(cfg.url), caPem: cfg.caPem };
  const s = cfg.service;
  if (s === undefined) throw new Error('webhook client config has neither url nor service');
  const svc = await lookup('services', s.namespace, s.name);
  if (svc === undefined) throw new Error(`service "${s.name}" not found`);
  const spec = (svc.spec ?? {}) as Rec;
  const serverName = `${s.name}.${s.namespace}.svc`;
  const type = str(spec.type) || 'ClusterIP';
  if (type === 'ExternalName') return { url: withPath(`https://${hostPort(str(spec.externalName), s.port)}`, s.path), serverName, caPem: cfg.caPem };
  if (type !== 'ClusterIP' && type !== 'LoadBalancer' && type !== 'NodePort') throw new Error(`unsupported service type "${type}"`);
  const svcPort = records(spec.ports).find((p) => num(p.port) === s.port);
  if (svcPort === undefined) throw new Error(`no service port ${s.port} found for service "${s.name}"`);
  const eps = await lookup('endpoints', s.namespace, s.name);
  for (const subset of records(eps?.subsets)) {
    const addresses = records(subset.addresses)
      .map((a) => str(a.ip))
      .filter((ip) => ip !== '' && !isLoopback(ip));
    const port = records(subset.ports).find((p) => str(p.name) === str(svcPort.name));
    if (addresses.length === 0 || port === undefined) continue;
    const ip = addresses[Math.floor(Math.random() * addresses.length)];
    return { url: withPath(`https://${hostPort(ip, num(port.port))}`, s.path), serverName, caPem: cfg.caPem };
  }
  throw new Error(`no endpoints available for service "${s.name}"`);
}
