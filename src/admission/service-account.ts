/**
 * The ServiceAccount admission plugin, as upstream's plugin/pkg/admission/serviceaccount
 * (1.25, bound service account tokens): a new pod runs as `default` unless it names a service
 * account; the account must exist (else 403 "error looking up service account <ns>/<name>:
 * serviceaccount "<name>" not found"); and unless the pod or the account opts out with
 * `automountServiceAccountToken: false`, every container mounts a projected
 * `kube-api-access-<random>` volume (a 3607 s token, the root CA ConfigMap, the namespace) at
 * the path in-cluster clients read. Mirror pods are never changed and may name no account.
 */
import { mirrorPodAnnotation } from '../api/core/pod-validation.js';
import { isPlainObject, metaOf, type Obj } from '../machinery/object.js';
import { generateName } from '../machinery/random-name.js';
import { ROOT_CA_CONFIGMAP } from '../machinery/root-ca.js';
import { forbidden, notFound, StatusError } from '../machinery/status.js';
import type { ReadPlan } from '../registry/read-options.js';
import type { Registry } from '../registry/registry.js';
import type { AdmissionAttributes, MutatingPlugin } from './admission.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
/** Upstream's ServiceAccountVolumeName prefix. */
const VOLUME_PREFIX = 'kube-api-access-';
/** Where client libraries look for the token in either brand (upstream's DefaultAPITokenMountPath). */
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** Upstream's WarnOnlyBoundTokenExpirationSeconds. */
const TOKEN_EXPIRATION_SECONDS = 3607;
/** Upstream's ProjectedVolumeSourceDefaultMode (0644), set explicitly as upstream does. */
const PROJECTED_DEFAULT_MODE = 0o644;
/** Upstream's lookup retries for `default` (it should be created shortly by the controller), 100-200 ms apart. */
const DEFAULT_ACCOUNT_ATTEMPTS = 10;

const ANY: ReadPlan = { kind: 'any' };
const LATEST: ReadPlan = { kind: 'latest' };

function tokenVolumeSource(rootCaConfigMap: string): Obj {
  return {
    defaultMode: PROJECTED_DEFAULT_MODE,
    sources: [
      { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: rootCaConfigMap, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v.filter(isPlainObject) as Obj[]) : []);

/** Upstream's mountServiceAccountToken: the volume once, a mount in every container lacking one at the path. */
function mountToken(spec: Obj, rootCaConfigMap: string): void {
  const volumes = list(spec.volumes);
  const existing = volumes.find((v) => typeof v.name === 'string' && v.name.startsWith(VOLUME_PREFIX));
  const volumeName = typeof existing?.name === 'string' ? existing.name : generateName(VOLUME_PREFIX);
  let needsVolume = false;
  for (const field of ['initContainers', 'containers']) {
    for (const c of list(spec[field])) {
      const mounts = list(c.volumeMounts);
      if (mounts.some((m) => m.mountPath === TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      needsVolume = true;
    }
  }
  if (existing === undefined && needsVolume) spec.volumes = [...volumes, { name: volumeName, projected: tokenVolumeSource(rootCaConfigMap) }];
}

/** The plugin over the registry's ServiceAccounts. */
export function serviceAccountAdmission(registry: Registry): MutatingPlugin {
  const accounts = registry.byResource('', 'serviceaccounts');
  if (!accounts) throw new Error('serviceaccounts are not served');
  const mirror = mirrorPodAnnotation(registry.brand);

  /** Upstream's getServiceAccount: the cache, then live reads (ten for `default`), else NotFound. */
  const lookup = async (namespace: string, name: string): Promise<Obj> => {
    const read = (plan: ReadPlan) => Promise.resolve(accounts.readEntry(namespace, name, plan)).then((e) => JSON.parse(e.json.toString('utf8')) as Obj);
    const missing = (err: unknown) => err instanceof StatusError && err.code === 404;
    try {
      return await read(ANY);
    } catch (err) {
      if (!missing(err)) throw err;
    }
    const attempts = name === DEFAULT_SERVICE_ACCOUNT ? DEFAULT_ACCOUNT_ATTEMPTS : 1;
    const interval = 100 + Math.floor(Math.random() * 100);
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, interval));
      try {
        return await read(LATEST);
      } catch (err) {
        if (!missing(err)) throw err;
      }
    }
    throw notFound({ group: '', resource: 'serviceaccount' }, name);
  };

  return {
    name: 'ServiceAccount',
    // Not async itself: the writes of every other resource pass here without a promise.
    admit(a: AdmissionAttributes) {
      if (a.operation !== 'CREATE' || a.subresource !== '' || a.resource.group !== '' || a.resource.plural !== 'pods') return;
      return admitPod(a);
    },
  };

  async function admitPod(a: AdmissionAttributes): Promise<void> {
    const meta = metaOf(a.object);
    const refuse = (why: string) => forbidden(a.resource.groupResource, a.name || meta.name || meta.generateName || 'Unknown', why);
    if (!isPlainObject(a.object.spec)) a.object.spec = {};
    const spec = a.object.spec as Obj;
    const named = typeof spec.serviceAccountName === 'string' ? spec.serviceAccountName : '';
    if (meta.annotations !== undefined && Object.hasOwn(meta.annotations, mirror)) {
      if (named !== '') throw refuse('a mirror pod may not reference service accounts');
      return;
    }
    const name = named === '' ? DEFAULT_SERVICE_ACCOUNT : named;
    spec.serviceAccountName = name;
    // The deprecated alias, as the defaulting before admission set it (and as v1 output shows it).
    spec.serviceAccount = name;
    let account: Obj;
    try {
      account = await lookup(a.namespace, name);
    } catch (err) {
      const why = err instanceof StatusError ? err.message : String(err);
      throw refuse(`error looking up service account ${a.namespace}/${name}: ${why}`);
    }
    const automount = typeof spec.automountServiceAccountToken === 'boolean' ? spec.automountServiceAccountToken : account.automountServiceAccountToken;
    if (automount !== false) mountToken(spec, ROOT_CA_CONFIGMAP);
  }
}
