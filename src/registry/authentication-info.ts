/**
 * Upstream's cluster authentication trust controller (post-start hook
 * `start-cluster-authentication-info-controller`): the ConfigMap
 * `<system namespace>/extension-apiserver-authentication` tells components that delegate
 * authentication (scheduler, controller manager, aggregated servers) which client CA and which
 * authenticating proxy to trust. What is there is combined with what this server trusts, as
 * upstream does, so servers with different CAs during a rotation do not erase each other; it is
 * written again whenever someone changes or deletes it, and at every resync.
 */
import type { Obj } from '../machinery/object.js';
import { klog } from '../machinery/klog.js';
import { ownValue } from '../machinery/own-property.js';
import { systemContext } from './bootstrap.js';
import { reconcileObject } from './reconcile-object.js';
import type { Registry } from './registry.js';
import { objectKey } from './resource-info.js';

export const AUTHENTICATION_CONFIGMAP = 'extension-apiserver-authentication';

/** Upstream resyncs the ConfigMap every minute besides reacting to its changes. */
const RESYNC_MS = 60_000;

export interface ClusterAuthenticationInfo {
  /** --client-ca-file contents. */
  clientCaPem: string;
  /** The authenticating proxy's settings (--requestheader-*), when configured. */
  requestHeader?: {
    clientCaPem: string;
    allowedNames: readonly string[];
    usernameHeaders: readonly string[];
    groupHeaders: readonly string[];
    extraHeaderPrefixes: readonly string[];
  };
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The certificates of both bundles, each once, the existing ones first (upstream's combineCertLists). */
function combineBundles(existing: string, required: string): string {
  const blocks = [...(existing.match(PEM_BLOCK) ?? []), ...(required.match(PEM_BLOCK) ?? [])].map((b) => b.replace(/\r\n/g, '\n'));
  return blocks.length === 0 ? '' : `${[...new Set(blocks)].join('\n')}\n`;
}

/** A string list stored as JSON; anything else counts as empty. */
function storedList(data: ReadonlyMap<string, string>, key: string): string[] {
  try {
    const v: unknown = JSON.parse(data.get(key) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Both lists' values, each once, the existing ones first (upstream's combineUniqueStringSlices). */
const combineLists = (existing: string[], required: readonly string[]): string => JSON.stringify([...new Set([...existing, ...required])]);

/** The ConfigMap's data from what it holds and what this server trusts. */
export function authenticationInfoData(current: ReadonlyMap<string, string>, info: ClusterAuthenticationInfo): Record<string, string> {
  const data: Record<string, string> = {};
  const clientCa = combineBundles(current.get('client-ca-file') ?? '', info.clientCaPem);
  if (clientCa) data['client-ca-file'] = clientCa;
  const rh = info.requestHeader;
  const rhCa = combineBundles(current.get('requestheader-client-ca-file') ?? '', rh?.clientCaPem ?? '');
  if (!rhCa) return data;
  data['requestheader-username-headers'] = combineLists(storedList(current, 'requestheader-username-headers'), rh?.usernameHeaders ?? []);
  data['requestheader-group-headers'] = combineLists(storedList(current, 'requestheader-group-headers'), rh?.groupHeaders ?? []);
  data['requestheader-extra-headers-prefix'] = combineLists(storedList(current, 'requestheader-extra-headers-prefix'), rh?.extraHeaderPrefixes ?? []);
  data['requestheader-client-ca-file'] = rhCa;
  data['requestheader-allowed-names'] = combineLists(storedList(current, 'requestheader-allowed-names'), rh?.allowedNames ?? []);
  return data;
}

/** Writes the ConfigMap now and again whenever it changes; resolves once the first write is done. */
export async function startAuthenticationInfo(registry: Registry, info: ClusterAuthenticationInfo, resyncMs = RESYNC_MS): Promise<() => void> {
  const configmaps = registry.byResource('', 'configmaps');
  if (!configmaps) throw new Error('configmaps not served');
  const namespace = registry.brand.systemNamespace;
  const sync = async (): Promise<void> => {
    // Upstream's trust controller compares first: an unchanged ConfigMap is not written.
    await reconcileObject(configmaps, systemContext(registry), namespace, AUTHENTICATION_CONFIGMAP, (cur: Obj | undefined) => {
      const stored = (cur?.data ?? {}) as Record<string, unknown>;
      const current = new Map<string, string>();
      for (const k of Object.keys(stored)) {
        const v = ownValue(stored, k);
        if (typeof v === 'string') current.set(k, v);
      }
      const base = cur ?? { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: AUTHENTICATION_CONFIGMAP, namespace } };
      return { ...base, data: authenticationInfoData(current, info) };
    });
  };
  let chain: Promise<void> = Promise.resolve();
  let pending = false;
  const schedule = (): void => {
    // Many events while a sync runs need one more sync, not one each.
    if (pending) return;
    pending = true;
    chain = chain.then(async () => {
      pending = false;
      await sync().catch((e: unknown) => klog.error(e, `unable to sync configmap ${namespace}/${AUTHENTICATION_CONFIGMAP}`));
    });
  };
  await sync();
  let stopped = false;
  const key = objectKey(configmaps.info, namespace, AUTHENTICATION_CONFIGMAP);
  let cancel = (): void => {};
  const watch = (): void => {
    cancel = registry.store.watch(
      key,
      registry.store.currentRevision(),
      (events) => {
        if (events.some((e) => e.kv.key === key)) schedule();
      },
      () => {
        // A watch that cannot go on (compaction) starts again from now, after one sync.
        if (stopped) return;
        schedule();
        watch();
      },
    );
  };
  watch();
  const timer = setInterval(schedule, resyncMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    cancel();
  };
}
