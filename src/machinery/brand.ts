/**
 * The one place that spells branded names. Everything else asks a Brand for a group,
 * namespace, media type or annotation, so `--kubernetes-compat` swaps them all at once.
 */
export interface Brand {
  /** Domain suffix of branded API groups: `orch.io` or `k8s.io`. */
  readonly domain: string;
  /** Domain of well-known labels, taints and resource names (`orch.io`; upstream `kubernetes.io`). */
  readonly labelDomain: string;
  /** Short word used in names such as `orch-system` / `kube-system`. */
  readonly word: string;
  readonly systemNamespace: string;
  readonly publicNamespace: string;
  readonly nodeLeaseNamespace: string;
  /** The finalizer the namespace controller owns in `spec.finalizers` (`kubernetes` upstream). */
  readonly namespaceFinalizer: string;
  /** The long name (`orch`, `kubernetes`): the API server's own Service in `default` and its `provider` label. */
  readonly vendor: string;
  /** Prefix of the vendor's own response headers (`X-Orch`, upstream `X-Kubernetes`: `X-Kubernetes-PF-FlowSchema-UID`). */
  readonly headerPrefix: string;
  readonly protobufMediaType: string;
  /**
   * Protobuf media types accepted (in Content-Type and Accept). orch also takes Kubernetes'
   * own, because kubectl ≥ 1.32 sends typed writes as `application/vnd.kubernetes.protobuf`
   * whatever server it talks to.
   */
  readonly protobufMediaTypes: readonly string[];
  /** Group of Table, PartialObjectMetadata, WatchEvent... (`meta.orch.io`). */
  readonly metaGroup: string;
  /** Group of aggregated discovery documents (`apidiscovery.orch.io`). */
  readonly discoveryGroup: string;
  /** Resolve a group stem: branded stems get the domain suffix (`events` -> `events.orch.io`). */
  group(stem: string, branded: boolean): string;
  /** A label or annotation key in the brand's domain (`orch.io/<name>`). */
  key(name: string): string;
}

/** Kubernetes' own protobuf media type, which kubectl sends to any server. */
const KUBERNETES_PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** A brand from its domain, its short word and its long name (`orch`, `kubernetes`). */
function makeBrand(domain: string, word: string, vendor: string, labelDomain: string): Brand {
  const protobufMediaType = `application/vnd.${vendor}.protobuf`;
  return {
    domain,
    labelDomain,
    word,
    systemNamespace: `${word}-system`,
    publicNamespace: `${word}-public`,
    nodeLeaseNamespace: `${word}-node-lease`,
    namespaceFinalizer: vendor,
    vendor,
    headerPrefix: `X-${vendor[0].toUpperCase()}${vendor.slice(1)}`,
    protobufMediaType,
    protobufMediaTypes: [...new Set([protobufMediaType, KUBERNETES_PROTOBUF])],
    metaGroup: `meta.${domain}`,
    discoveryGroup: `apidiscovery.${domain}`,
    group: (stem, branded) => (branded ? `${stem}.${domain}` : stem),
    key: (name) => `${domain}/${name}`,
  };
}

/** orch's own names: `*.orch.io`, `orch-system`, `application/vnd.orch.protobuf`. */
export const ORCH_BRAND: Brand = makeBrand('orch.io', 'orch', 'orch', 'orch.io');
/** Kubernetes' names, for unchanged Kubernetes clients (`--kubernetes-compat`). */
export const KUBERNETES_BRAND: Brand = makeBrand('k8s.io', 'kube', 'kubernetes', 'kubernetes.io');

export function brandFor(kubernetesCompat: boolean): Brand {
  return kubernetesCompat ? KUBERNETES_BRAND : ORCH_BRAND;
}
