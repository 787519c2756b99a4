/**
 * A component's secure port from its shared flags (component-flags.ts): the settings the
 * serving, delegated-authentication and delegated-authorization flags make, their checks, and
 * the start of the HTTPS server in front of the component's handler. orch-scheduler and
 * orch-controller-manager both serve this way, as upstream's components share apiserver's
 * options.
 */
import { isIP } from 'node:net';
import type { SecureVersion } from 'node:tls';
import type { Brand } from '../machinery/brand.js';
import { klog } from '../machinery/klog.js';
import type { ServingHandler } from '../serving/component-handler.js';
import { delegatedAuthentication } from '../serving/delegated-authentication.js';
import { delegatedAuthorization } from '../serving/delegated-authorization.js';
import { type RunningServer, servingCertificate, startSecureServing } from '../serving/servers.js';
import { nodeTlsVersion, opensslCiphers, parseNamedCertKey, readSniEntry, type SniEntry } from '../serving/tls-options.js';
import { explainListenError } from './startup-errors.js';

/** The parsed serving and delegation flags (commander's camel-cased names). */
export interface ServingFlags {
  bindAddress: string;
  securePort: number;
  certDir?: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  tlsCipherSuites: string[];
  tlsMinVersion?: string;
  tlsSniCertKey: string[];
  http2MaxStreamsPerConnection: number;
  permitPortSharing: boolean;
  authenticationKubeconfig?: string;
  authenticationSkipLookup: boolean;
  authenticationTokenWebhookCacheTtl: number;
  authenticationTolerateLookupFailure: boolean;
  clientCaFile?: string;
  requestheaderClientCaFile?: string;
  requestheaderAllowedNames: string[];
  requestheaderUsernameHeaders: string[];
  requestheaderGroupHeaders: string[];
  requestheaderExtraHeadersPrefix: string[];
  authorizationKubeconfig?: string;
  authorizationAlwaysAllowPaths: string[];
  authorizationWebhookCacheAuthorizedTtl: number;
  authorizationWebhookCacheUnauthorizedTtl: number;
}

export interface SecureServingSetup {
  bindAddress: string;
  port: number;
  certFile: string;
  keyFile: string;
  certDir: string;
  sni: SniEntry[];
  ciphers?: string;
  minVersion?: SecureVersion;
  http2MaxStreams: number;
}

export interface AuthenticationSetup {
  kubeconfig: string;
  cacheTtlMs: number;
  clientCaFile: string;
  requestHeader: { clientCaFile: string; allowedNames: string[]; usernameHeaders: string[]; groupHeaders: string[]; extraHeadersPrefix: string[] };
  skipLookup: boolean;
  tolerateLookupFailure: boolean;
}

export interface AuthorizationSetup {
  kubeconfig: string;
  allowedTtlMs: number;
  deniedTtlMs: number;
  alwaysAllowPaths: string[];
}

/** SecureServingOptions.Validate's checks, in upstream's words. */
export function validateServingFlags(f: ServingFlags): string[] {
  const errs: string[] = [];
  if (f.securePort < 0 || f.securePort > 65535)
    errs.push(`--secure-port ${f.securePort} must be between 0 and 65535, inclusive. 0 for turning off secure port`);
  if (isIP(f.bindAddress) === 0 && f.bindAddress !== '')
    errs.push(`invalid argument ${JSON.stringify(f.bindAddress)} for "--bind-address" flag: failed to parse IP: ${JSON.stringify(f.bindAddress)}`);
  if (f.permitPortSharing) errs.push('--permit-port-sharing: SO_REUSEPORT is not available on this Node.js runtime');
  try {
    if (f.tlsCipherSuites.length > 0) opensslCiphers(f.tlsCipherSuites);
  } catch (e) {
    errs.push((e as Error).message);
  }
  return errs;
}

/** The secure port's settings; undefined for `--secure-port 0`. */
export function secureServingFrom(f: ServingFlags): SecureServingSetup | undefined {
  if (f.securePort === 0) return undefined;
  return {
    bindAddress: f.bindAddress,
    port: f.securePort,
    certFile: f.tlsCertFile ?? '',
    keyFile: f.tlsPrivateKeyFile ?? '',
    certDir: f.certDir ?? '',
    sni: f.tlsSniCertKey.map((v) => readSniEntry(parseNamedCertKey(v))),
    ciphers: f.tlsCipherSuites.length > 0 ? opensslCiphers(f.tlsCipherSuites) : undefined,
    minVersion: f.tlsMinVersion ? nodeTlsVersion(f.tlsMinVersion) : undefined,
    http2MaxStreams: f.http2MaxStreamsPerConnection,
  };
}

export function authenticationFrom(f: ServingFlags): AuthenticationSetup {
  return {
    kubeconfig: f.authenticationKubeconfig ?? '',
    cacheTtlMs: f.authenticationTokenWebhookCacheTtl,
    clientCaFile: f.clientCaFile ?? '',
    requestHeader: {
      clientCaFile: f.requestheaderClientCaFile ?? '',
      allowedNames: f.requestheaderAllowedNames,
      usernameHeaders: f.requestheaderUsernameHeaders,
      groupHeaders: f.requestheaderGroupHeaders,
      extraHeadersPrefix: f.requestheaderExtraHeadersPrefix,
    },
    skipLookup: f.authenticationSkipLookup,
    tolerateLookupFailure: f.authenticationTolerateLookupFailure,
  };
}

export function authorizationFrom(f: ServingFlags): AuthorizationSetup {
  return {
    kubeconfig: f.authorizationKubeconfig ?? '',
    allowedTtlMs: f.authorizationWebhookCacheAuthorizedTtl,
    deniedTtlMs: f.authorizationWebhookCacheUnauthorizedTtl,
    alwaysAllowPaths: f.authorizationAlwaysAllowPaths,
  };
}

export function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Serves `handler` on the secure port with delegated authentication and authorization; logs where. */
export async function startComponentSecureServing(o: {
  secure: SecureServingSetup;
  authentication: AuthenticationSetup;
  authorization: AuthorizationSetup;
  brand: Brand;
  /** The self-signed pair's name in --cert-dir (`<brand>-scheduler`). */
  pairName: string;
  handler: ServingHandler;
}): Promise<RunningServer> {
  const s = o.secure;
  const pair = await servingCertificate({ certFile: s.certFile, keyFile: s.keyFile, certDir: s.certDir, pairName: o.pairName, bindAddress: s.bindAddress });
  const authenticator = await delegatedAuthentication({ ...o.authentication, brand: o.brand });
  const authorizer = delegatedAuthorization({ ...o.authorization, brand: o.brand });
  const server = await startSecureServing(
    {
      bindAddress: s.bindAddress,
      port: s.port,
      certPem: pair.certPem,
      keyPem: pair.keyPem,
      sni: s.sni,
      ciphers: s.ciphers,
      minVersion: s.minVersion,
      http2MaxStreams: s.http2MaxStreams,
      authenticator,
      authorizer,
    },
    o.handler,
  ).catch((e) => {
    throw explainListenError(e, { bindAddress: s.bindAddress, port: s.port });
  });
  klog.info(`Serving securely on ${hostPort(s.bindAddress || '0.0.0.0', server.port)}`);
  return server;
}
