/**
 * Where upstream's connect subresources lead (pkg/registry/core/{pod,node,service} strategies):
 * pods/log, exec, attach and portforward go to the node agent of the pod's node, at the node's
 * preferred address and its kubelet port; pods/proxy to the pod's IP, nodes/proxy to the
 * node agent (or another port of the node), services/proxy to a ready endpoint of the service.
 * Refusals carry upstream's codes and texts; a backend that cannot be reached is the server's
 * to report when it dials.
 */
import type { Verb } from '../api/types.js';
import { isIP } from 'node:net';
import { isPlainObject, metaOf, type Obj } from '../machinery/object.js';
import { badRequest, serviceUnavailable, StatusError } from '../machinery/status.js';
import { rec } from '../machinery/fields.js';
import type { ConnectLocation, Connecter } from './capabilities.js';
import { readObject, type StoresByResource } from './read-object.js';

/** kube-apiserver's --kubelet-preferred-address-types default. */
const PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
const DEFAULT_KUBELET_PORT = 10250;

/** An error upstream returns unwrapped: a 500 Status without a reason. */
function plainError(message: string): StatusError {
  return new StatusError(500, '', message);
}

function containerNames(list: unknown): string[] {
  return Array.isArray(list) ? list.map((c) => String(rec(c).name ?? '')) : [];
}

/** Upstream's validateContainer: the named container, or the only one. */
function containerOf(pod: Obj, name: string, requested: string): string {
  const spec = rec(pod.spec);
  const containers = containerNames(spec.containers);
  if (requested === '') {
    if (containers.length === 1) return containers[0];
    if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
    const init = containerNames(spec.initContainers);
    let msg = `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`;
    if (init.length > 0) msg += ` or one of the init containers: [${init.join(' ')}]`;
    throw badRequest(msg);
  }
  const all = [...containers, ...containerNames(spec.initContainers), ...containerNames(spec.ephemeralContainers)];
  if (!all.includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
  return requested;
}

/** Go's net.JoinHostPort. */
function joinHostPort(host: string, port: string | number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Upstream's kubelet connection info: the node's preferred address and kubelet port. */
async function kubeletOf(stores: StoresByResource, nodeName: string): Promise<{ host: string; port: number }> {
  const node = await readObject(stores, '', 'nodes', '', nodeName);
  const status = rec(node.status);
  const addresses = Array.isArray(status.addresses) ? status.addresses.map(rec) : [];
  let host: string | undefined;
  for (const type of PREFERRED_ADDRESS_TYPES) {
    const found = addresses.find((a) => a.type === type);
    if (found) {
      host = String(found.address ?? '');
      break;
    }
  }
  if (host === undefined) {
    throw plainError(`no preferred addresses found; known addresses: [${addresses.map((a) => `{${a.type ?? ''} ${a.address ?? ''}}`).join(' ')}]`);
  }
  // DaemonEndpoint's one field is spelled `Port` on the wire.
  const port = Number(rec(rec(status.daemonEndpoints).kubeletEndpoint).Port ?? 0);
  return { host, port: port > 0 ? port : DEFAULT_KUBELET_PORT };
}

/** Upstream's IsProxyableIP: loopback, link-local and multicast addresses are never proxied to. */
function proxyable(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  if (family === 4) {
    const [a, b] = ip.split('.').map(Number);
    return !(a === 127 || (a === 169 && b === 254) || (a >= 224 && a <= 239) || a === 0);
  }
  const low = ip.toLowerCase();
  return !(low === '::1' || low === '::' || low.startsWith('fe80:') || low.startsWith('ff'));
}

/** utilnet.SplitSchemeNamePort: `name`, `name:port` or `scheme:name:port` (scheme http, https or empty). */
function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let out: { scheme: string; name: string; port: string };
  if (parts.length === 1) out = { scheme: '', name: parts[0], port: '' };
  else if (parts.length === 2) out = { scheme: '', name: parts[0], port: parts[1] };
  else if (parts.length === 3) out = { scheme: parts[0], name: parts[1], port: parts[2] };
  else return undefined;
  return out.name !== '' && (out.scheme === '' || out.scheme === 'http' || out.scheme === 'https') ? out : undefined;
}

/** net.JoinPreserveTrailingSlash of a location and the proxied path. */
function proxiedPath(path: string): string {
  return path === '' ? '' : path.startsWith('/') ? path : `/${path}`;
}

function urlOf(scheme: string, hostPort: string, path: string, query: string): URL {
  const url = new URL(`${scheme || 'http'}://${hostPort}`);
  url.pathname = path === '' ? '' : path;
  url.search = query;
  return url;
}

const STREAM_PARAMS = ['container', 'command', 'stdin', 'stdout', 'stderr', 'tty'];
const LOG_PARAMS = ['follow', 'previous', 'timestamps', 'sinceSeconds', 'sinceTime', 'limitBytes', 'tailLines', 'insecureSkipTLSVerifyBackend'];

function paramsOf(query: URLSearchParams, names: readonly string[], container: string): string {
  const out = new URLSearchParams();
  for (const n of names) {
    if (n === 'container') continue;
    for (const v of query.getAll(n)) out.append(n, v);
  }
  if (names.includes('container')) out.set('container', container);
  const text = out.toString();
  return text === '' ? '' : `?${text}`;
}

/** pods/log, exec, attach, portforward and proxy. */
function podLocation(stores: StoresByResource, sub: string) {
  return async (namespace: string, id: string, path: string, query: URLSearchParams): Promise<ConnectLocation> => {
    if (sub === 'proxy') {
      const parsed = splitSchemeNamePort(id);
      if (!parsed) throw badRequest(`invalid pod request ${JSON.stringify(id)}`);
      const pod = await readObject(stores, '', 'pods', namespace, parsed.name);
      const ip = String(rec(pod.status).podIP ?? '');
      if (!proxyable(ip)) throw badRequest('address not allowed');
      return { url: urlOf(parsed.scheme, parsed.port ? joinHostPort(ip, parsed.port) : ip, proxiedPath(path), queryOf(query)), via: 'proxy' };
    }
    const pod = await readObject(stores, '', 'pods', namespace, id);
    const meta = metaOf(pod);
    const nodeName = String(rec(pod.spec).nodeName ?? '');
    if (sub === 'portforward') {
      if (nodeName === '') throw badRequest(`pod ${id} does not have a host assigned`);
      const k = await kubeletOf(stores, nodeName);
      return { url: new URL(`https://${joinHostPort(k.host, k.port)}/portForward/${meta.namespace}/${meta.name}`), via: 'kubelet' };
    }
    const container = containerOf(pod, id, query.get('container') ?? '');
    if (sub === 'log') {
      // Upstream: a pod on no node has no location, and its log is empty.
      if (nodeName === '') return { via: 'kubelet' };
      const k = await kubeletOf(stores, nodeName);
      return {
        url: new URL(
          `https://${joinHostPort(k.host, k.port)}/containerLogs/${meta.namespace}/${meta.name}/${container}${paramsOf(query, LOG_PARAMS, container)}`,
        ),
        via: 'kubelet',
      };
    }
    if (nodeName === '') throw badRequest(`pod ${id} does not have a host assigned`);
    const k = await kubeletOf(stores, nodeName);
    return {
      url: new URL(`https://${joinHostPort(k.host, k.port)}/${sub}/${meta.namespace}/${meta.name}/${container}${paramsOf(query, STREAM_PARAMS, container)}`),
      via: 'kubelet',
    };
  };
}

function queryOf(query: URLSearchParams): string {
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** nodes/proxy: the node agent, or another port of the node. */
function nodeLocation(stores: StoresByResource) {
  return async (_namespace: string, id: string, path: string, query: URLSearchParams): Promise<ConnectLocation> => {
    const parsed = splitSchemeNamePort(id);
    if (!parsed) throw badRequest(`invalid node request ${JSON.stringify(id)}`);
    const k = await kubeletOf(stores, parsed.name);
    if (isIP(k.host) !== 0 && !proxyable(k.host)) throw badRequest('address not allowed');
    const kubeletPort = parsed.port === '' || parsed.port === String(k.port);
    return {
      url: urlOf(kubeletPort ? 'https' : parsed.scheme, joinHostPort(k.host, kubeletPort ? k.port : parsed.port), proxiedPath(path), queryOf(query)),
      via: 'proxy',
    };
  };
}

/** services/proxy: a ready endpoint of the named (or numbered) service port. */
function serviceLocation(stores: StoresByResource) {
  return async (namespace: string, id: string, path: string, query: URLSearchParams): Promise<ConnectLocation> => {
    const parsed = splitSchemeNamePort(id);
    if (!parsed) throw badRequest(`invalid service request ${JSON.stringify(id)}`);
    let portName = parsed.port;
    if (/^[+-]?\d+$/.test(portName)) {
      const svc = await readObject(stores, '', 'services', namespace, parsed.name);
      const ports = Array.isArray(rec(svc.spec).ports) ? (rec(svc.spec).ports as unknown[]).map(rec) : [];
      const found = ports.find((p) => Number(p.port) === Number(portName));
      if (!found) throw serviceUnavailable(`no service port ${Number(portName)} found for service ${JSON.stringify(parsed.name)}`);
      portName = String(found.name ?? '');
    }
    const eps = await readObject(stores, '', 'endpoints', namespace, parsed.name);
    const subsets = Array.isArray(eps.subsets) ? eps.subsets.map(rec) : [];
    if (subsets.length === 0) throw serviceUnavailable(`no endpoints available for service ${JSON.stringify(parsed.name)}`);
    for (const ss of subsets) {
      const addresses = Array.isArray(ss.addresses) ? ss.addresses.map(rec) : [];
      const port = (Array.isArray(ss.ports) ? ss.ports.map(rec) : []).find((p) => String(p.name ?? '') === portName);
      if (!port || addresses.length === 0) continue;
      for (const addr of addresses) {
        // Upstream's isValidAddress: the address must be a pod of this namespace holding that IP.
        const ref = rec(addr.targetRef);
        if (!isPlainObject(addr.targetRef) || ref.kind !== 'Pod') continue;
        const pod = await readObject(stores, '', 'pods', String(ref.namespace ?? namespace), String(ref.name ?? '')).catch(() => undefined);
        if (!pod || rec(pod.status).podIP !== addr.ip) continue;
        return { url: urlOf(parsed.scheme, joinHostPort(String(addr.ip), Number(port.port)), proxiedPath(path), queryOf(query)), via: 'proxy' };
      }
    }
    throw serviceUnavailable(`no endpoints available for service ${JSON.stringify(id)}`);
  };
}

/** The Connecter of one connect subresource of a core resource. */
export function connecterOf(stores: StoresByResource, resource: string, sub: string, verbs: readonly Verb[]): Connecter {
  const locate = resource === 'pods' ? podLocation(stores, sub) : resource === 'nodes' ? nodeLocation(stores) : serviceLocation(stores);
  return {
    verbs: new Set(verbs),
    location: (_ctx, namespace, name, path, query) => locate(namespace, name, path, query),
  };
}
