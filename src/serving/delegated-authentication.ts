/**
 * A component's delegated authentication (apiserver's DelegatingAuthenticationOptions, as the
 * scheduler sets them up): client certificates from `--client-ca-file`, the authenticating proxy
 * from `--requestheader-*`, bearer tokens sent as TokenReviews to the API server of
 * `--authentication-kubeconfig` (answers cached for the TTL), and what is missing of the first
 * two looked up in the `extension-apiserver-authentication` ConfigMap unless
 * `--authentication-skip-lookup`; a failed lookup is a warning while
 * `--authentication-tolerate-lookup-failure`. Requests without credentials are anonymous.
 */
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { withAnonymous } from '../auth/authn/anonymous.js';
import { addAuthenticatedGroup } from '../auth/authn/authenticated-group.js';
import { type Authenticator, unionAuthenticator } from '../auth/authn/authenticator.js';
import { getJson } from '../auth/authn/https-json.js';
import { requestHeaderAuthenticator } from '../auth/authn/request-header.js';
import { bearerTokenAuthenticator } from '../auth/authn/token.js';
import { webhookTokenAuthenticator } from '../auth/authn/webhook-token.js';
import { x509Authenticator } from '../auth/authn/x509.js';
import type { Brand } from '../machinery/brand.js';
import { klog } from '../machinery/klog.js';
import { isPlainObject } from '../machinery/object.js';
import { type KubeconfigConnection, readKubeconfig } from '../pki/kubeconfig-read.js';

export interface RequestHeaderFlags {
  clientCaFile: string;
  allowedNames: string[];
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeadersPrefix: string[];
}

export interface DelegatedAuthenticationOptions {
  /** `--authentication-kubeconfig`; empty: tokens are not reviewed and nothing is looked up. */
  kubeconfig: string;
  brand: Brand;
  /** `--authentication-token-webhook-cache-ttl`. */
  cacheTtlMs: number;
  /** `--client-ca-file`. */
  clientCaFile: string;
  requestHeader: RequestHeaderFlags;
  skipLookup: boolean;
  tolerateLookupFailure: boolean;
}

const CONFIGMAP = 'extension-apiserver-authentication';
const ROLE = 'extension-apiserver-authentication-reader';

interface Material {
  clientCaPem?: string;
  requestHeader?: { clientCaPem: string; allowedNames: string[]; usernameHeaders: string[]; groupHeaders: string[]; extraHeaderPrefixes: string[] };
}

/** The authenticator of a component's secure port; throws when a lookup that must succeed fails. */
export async function delegatedAuthentication(opts: DelegatedAuthenticationOptions): Promise<Authenticator> {
  const material: Material = {};
  if (opts.clientCaFile) material.clientCaPem = readFileSync(opts.clientCaFile, 'utf8');
  const rh = opts.requestHeader;
  if (rh.clientCaFile) {
    material.requestHeader = {
      clientCaPem: readFileSync(rh.clientCaFile, 'utf8'),
      allowedNames: rh.allowedNames,
      usernameHeaders: rh.usernameHeaders,
      groupHeaders: rh.groupHeaders,
      extraHeaderPrefixes: rh.extraHeadersPrefix,
    };
  }
  const ns = opts.brand.systemNamespace;
  let connection: KubeconfigConnection | undefined;
  if (opts.kubeconfig) connection = readKubeconfig(opts.kubeconfig);
  else {
    klog.warning(
      `No authentication-kubeconfig provided in order to lookup client-ca-file in configmap/${CONFIGMAP} in ${ns}, so client certificate authentication won't work.`,
    );
    klog.warning(
      `No authentication-kubeconfig provided in order to lookup requestheader-client-ca-file in configmap/${CONFIGMAP} in ${ns}, so request-header client certificate authentication won't work.`,
    );
  }
  if (connection && !opts.skipLookup && (!material.clientCaPem || !material.requestHeader)) {
    try {
      await lookupMissing(connection, ns, material);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if (!opts.tolerateLookupFailure) throw new Error(`unable to load configmap based request-header-client-ca-file: ${why}`);
      klog.warning(`Error looking up in-cluster authentication configuration: ${why}`);
      klog.warning('Continuing without authentication configuration. This may treat all requests as anonymous.');
      klog.warning('To require authentication configuration lookup to succeed, set --authentication-tolerate-lookup-failure=false');
    }
  }
  const methods: Authenticator[] = [];
  if (material.requestHeader) methods.push(requestHeaderAuthenticator(material.requestHeader));
  if (material.clientCaPem) methods.push(x509Authenticator(material.clientCaPem));
  if (connection) {
    const group = opts.brand.group('authentication', true);
    const base = new URL(connection.server);
    methods.push(
      bearerTokenAuthenticator(
        webhookTokenAuthenticator({
          connection,
          apiVersion: `${group}/v1`,
          path: `${base.pathname.replace(/\/$/, '')}/apis/${group}/v1/tokenreviews`,
          cacheTtlMs: opts.cacheTtlMs,
        }),
      ),
    );
  }
  // Upstream's delegating authenticator always allows anonymous requests; authorization decides.
  return withAnonymous(addAuthenticatedGroup(unionAuthenticator(methods)));
}

/** Reads what the flags left out from the API server's ConfigMap (NotFound: nothing to add). */
async function lookupMissing(connection: KubeconfigConnection, ns: string, material: Material): Promise<void> {
  const agent = new https.Agent({
    ca: connection.caPem,
    cert: connection.certPem,
    key: connection.keyPem,
    rejectUnauthorized: !connection.insecureSkipTlsVerify,
  });
  const base = connection.server.replace(/\/$/, '');
  let cm: unknown;
  try {
    cm = await getJson(
      `${base}/api/v1/namespaces/${ns}/configmaps/${CONFIGMAP}`,
      agent,
      10_000,
      connection.token ? { authorization: `Bearer ${connection.token}` } : {},
    );
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (status === 404) return;
    if (status === 403)
      klog.warning(
        `Unable to get configmap/${CONFIGMAP} in ${ns}.  Usually fixed by 'kubectl create rolebinding -n ${ns} ROLEBINDING_NAME --role=${ROLE} --serviceaccount=YOUR_NS:YOUR_SA'`,
      );
    throw e;
  } finally {
    agent.destroy();
  }
  const data = isPlainObject(cm) && isPlainObject(cm.data) ? (cm.data as Record<string, unknown>) : {};
  const text = (k: string) => (typeof data[k] === 'string' ? (data[k] as string) : '');
  const list = (k: string): string[] => {
    try {
      const v = JSON.parse(text(k) || '[]');
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  };
  if (!material.clientCaPem && text('client-ca-file')) material.clientCaPem = text('client-ca-file');
  if (!material.requestHeader && text('requestheader-client-ca-file')) {
    material.requestHeader = {
      clientCaPem: text('requestheader-client-ca-file'),
      allowedNames: list('requestheader-allowed-names'),
      usernameHeaders: list('requestheader-username-headers'),
      groupHeaders: list('requestheader-group-headers'),
      extraHeaderPrefixes: list('requestheader-extra-headers-prefix'),
    };
  }
}
