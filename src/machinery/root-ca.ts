/**
 * The ConfigMap in every namespace that holds the cluster's root CA (upstream's
 * RootCACertConfigMapName): published by the root-ca-cert-publisher, projected into pods by
 * the ServiceAccount admission. The same name in both brands, as in-cluster tooling expects it.
 */
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
