/**
 * The bootstrapsigner controller (upstream's `pkg/controller/bootstrap/bootstrapsigner.go`):
 * the `cluster-info` ConfigMap of the public namespace carries, beside its `kubeconfig`, one
 * `jws-kubeconfig-<token-id>` detached signature per bootstrap token usable for signing, so a
 * joining node that knows a token can trust the kubeconfig (and the CA in it) it reads
 * anonymously. Signatures of tokens gone, expired or no longer for signing are removed.
 */
import type { RestClient } from '../client/rest-client.js';
import { ApiError } from '../client/rest-client.js';
import { type ListWatch, listAndWatch } from '../client/list-watch.js';
import { bootstrapTokenExpired, secretField } from '../machinery/bootstrap-token.js';
import type { Brand } from '../machinery/brand.js';
import { computeDetachedSignature } from '../machinery/detached-jws.js';
import { type SecretObj, watchBootstrapTokenSecrets } from './bootstrap-token-secrets.js';
import { KeyedQueue } from './keyed-queue.js';

/** Upstream's ConfigMapClusterInfo, KubeConfigKey and JWSSignatureKeyPrefix. */
export const CLUSTER_INFO = 'cluster-info';
export const KUBECONFIG_KEY = 'kubeconfig';
export const JWS_SIGNATURE_PREFIX = 'jws-kubeconfig-';
const SECRET_NAME_PREFIX = 'bootstrap-token-';

export interface BootstrapSignerOptions {
  client: RestClient;
  brand: Brand;
  now?: () => number;
  log?: (line: string) => void;
}

interface ConfigMapObj {
  metadata: { name: string; namespace?: string; resourceVersion?: string };
  data?: Record<string, string>;
}

export class BootstrapSigner {
  private secretWatch: ListWatch | undefined;
  private configMapWatch: ListWatch | undefined;
  private readonly secrets = new Map<string, SecretObj>();
  private configMap: ConfigMapObj | undefined;
  private readonly queue: KeyedQueue;

  constructor(private readonly opts: BootstrapSignerOptions) {
    this.queue = new KeyedQueue(
      () => this.signConfigMap(),
      (_key, err) => (opts.log ?? ((l) => process.stderr.write(`${l}\n`)))(`E error signing ${CLUSTER_INFO}: ${(err as Error).message}`),
    );
  }

  start(): void {
    this.secretWatch = watchBootstrapTokenSecrets(this.opts.client, this.opts.brand, {
      onList: (items) => {
        this.secrets.clear();
        for (const s of items) this.secrets.set(s.metadata.name, s);
        this.queue.add(CLUSTER_INFO);
      },
      onChange: (s) => {
        this.secrets.set(s.metadata.name, s);
        this.queue.add(CLUSTER_INFO);
      },
      onDelete: (s) => {
        this.secrets.delete(s.metadata.name);
        this.queue.add(CLUSTER_INFO);
      },
    });
    const ns = encodeURIComponent(this.opts.brand.publicNamespace);
    this.configMapWatch = listAndWatch<ConfigMapObj>(this.opts.client, `/api/v1/namespaces/${ns}/configmaps?fieldSelector=metadata.name%3D${CLUSTER_INFO}`, {
      onList: (items) => {
        this.configMap = items.find((c) => c.metadata.name === CLUSTER_INFO);
        this.queue.add(CLUSTER_INFO);
      },
      onEvent: (type, cm) => {
        if (cm.metadata.name !== CLUSTER_INFO) return;
        this.configMap = type === 'DELETED' ? undefined : cm;
        this.queue.add(CLUSTER_INFO);
      },
    });
  }

  stop(): void {
    this.secretWatch?.stop();
    this.configMapWatch?.stop();
    this.queue.stop();
  }

  /** The tokens (id → secret) whose Secrets are valid for signing now (upstream's validateSecretForSigning). */
  private signingTokens(): Map<string, string> {
    const now = (this.opts.now ?? Date.now)();
    const tokens = new Map<string, string>();
    for (const s of this.secrets.values()) {
      if (!s.metadata.name.startsWith(SECRET_NAME_PREFIX)) continue;
      const id = secretField(s.data, 'token-id');
      if (!id || s.metadata.name.slice(SECRET_NAME_PREFIX.length) !== id) continue;
      const secret = secretField(s.data, 'token-secret');
      if (!secret) continue;
      // The token cleaner removes expired ones; until it has, they are not signed with either.
      if (bootstrapTokenExpired(secretField(s.data, 'expiration'), now)) continue;
      if (secretField(s.data, 'usage-bootstrap-signing') !== 'true') continue;
      tokens.set(id, secret);
    }
    return tokens;
  }

  private async signConfigMap(): Promise<void> {
    const cm = this.configMap;
    if (!cm?.data || !Object.hasOwn(cm.data, KUBECONFIG_KEY)) return;
    const content = cm.data[KUBECONFIG_KEY];
    const data = new Map(Object.entries(cm.data));
    const stale = new Map<string, string>();
    for (const [key, value] of data) {
      if (key.startsWith(JWS_SIGNATURE_PREFIX)) {
        stale.set(key, value);
        data.delete(key);
      }
    }
    let changed = false;
    for (const [id, secret] of this.signingTokens()) {
      const key = `${JWS_SIGNATURE_PREFIX}${id}`;
      const signature = computeDetachedSignature(content, id, secret);
      if (stale.get(key) !== signature) changed = true;
      stale.delete(key);
      data.set(key, signature);
    }
    if (stale.size > 0) changed = true;
    if (!changed) return;
    const path = `/api/v1/namespaces/${encodeURIComponent(this.opts.brand.publicNamespace)}/configmaps/${CLUSTER_INFO}`;
    try {
      await this.opts.client.expect('PUT', path, { apiVersion: 'v1', kind: 'ConfigMap', ...cm, data: Object.fromEntries(data) });
    } catch (err) {
      // A newer ConfigMap arrives through the watch and is signed then.
      if (err instanceof ApiError && (err.status === 409 || err.status === 404)) return;
      throw err;
    }
  }
}
