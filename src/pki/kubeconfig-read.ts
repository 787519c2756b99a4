/**
 * Reading a kubeconfig (v1 Config) as client-go does for one connection: the current context's
 * cluster (server, CA) and user (client certificate and key, or a bearer token), with file
 * references resolved relative to the kubeconfig's directory. Webhook configurations and the
 * scheduler's and controllers' --kubeconfig use it.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

export interface KubeconfigConnection {
  server: string;
  caPem?: string;
  certPem?: string;
  keyPem?: string;
  token?: string;
  insecureSkipTlsVerify: boolean;
}

/** A kubeconfig that cannot be used, with what is wrong in it. */
export class KubeconfigError extends Error {}

type Named = { name?: unknown; [k: string]: unknown };

/** The connection of path's current context (or its only context); throws KubeconfigError. */
export function readKubeconfig(path: string): KubeconfigConnection {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new KubeconfigError(`cannot read kubeconfig ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  let doc: Record<string, unknown>;
  try {
    doc = (parse(text) ?? {}) as Record<string, unknown>;
  } catch (e) {
    throw new KubeconfigError(`kubeconfig ${path} is not valid YAML: ${e instanceof Error ? e.message : String(e)}`);
  }
  const base = dirname(path);
  const list = (key: string): Named[] => (Array.isArray(doc[key]) ? (doc[key] as Named[]) : []);
  const byName = (key: string, name: unknown): Record<string, unknown> | undefined => {
    const inner = key.slice(0, -1);
    const hit = list(key).find((e) => e.name === name);
    return hit && typeof hit[inner] === 'object' && hit[inner] !== null ? (hit[inner] as Record<string, unknown>) : undefined;
  };
  const contexts = list('contexts');
  const contextName =
    typeof doc['current-context'] === 'string' && doc['current-context'] !== '' ? doc['current-context'] : contexts.length === 1 ? contexts[0].name : undefined;
  const context = byName('contexts', contextName);
  // A kubeconfig without contexts (webhook configurations often have one cluster and one user) uses the first of each.
  const cluster = context ? byName('clusters', context.cluster) : (list('clusters')[0]?.cluster as Record<string, unknown> | undefined);
  const user = context ? byName('users', context.user) : (list('users')[0]?.user as Record<string, unknown> | undefined);
  if (!cluster || typeof cluster.server !== 'string' || cluster.server === '') throw new KubeconfigError(`kubeconfig ${path} names no cluster server`);
  const material = (obj: Record<string, unknown> | undefined, fileKey: string, dataKey: string): string | undefined => {
    if (!obj) return undefined;
    if (typeof obj[dataKey] === 'string') return Buffer.from(obj[dataKey] as string, 'base64').toString('utf8');
    if (typeof obj[fileKey] !== 'string') return undefined;
    const file = obj[fileKey] as string;
    try {
      return readFileSync(isAbsolute(file) ? file : join(base, file), 'utf8');
    } catch (e) {
      throw new KubeconfigError(`kubeconfig ${path}: cannot read ${fileKey} ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return {
    server: cluster.server,
    caPem: material(cluster, 'certificate-authority', 'certificate-authority-data'),
    certPem: material(user, 'client-certificate', 'client-certificate-data'),
    keyPem: material(user, 'client-key', 'client-key-data'),
    token: typeof user?.token === 'string' ? user.token : undefined,
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
  };
}
