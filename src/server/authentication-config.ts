/**
 * From the server's authentication settings (flags) to the authenticator: where bootstrap
 * tokens and service-account objects are read (the registry), the brand's names, the keys.
 */
import { bootstrapTokenSecretType } from '../machinery/bootstrap-token.js';
import { readFileSync } from 'node:fs';
import type { BootstrapTokenOptions } from '../auth/authn/bootstrap-token.js';
import { type AuthenticationOptions, type BuiltAuthentication, buildAuthentication } from '../auth/authn/build.js';
import { type SigningKey, signingKeyFromPem, type VerifyKey, verifyKeysFromPem } from '../auth/authn/service-account-keys.js';
import { type ServiceAccountLookup, type ServiceAccountNames, signBoundToken } from '../auth/authn/service-account-token.js';
import type { TokenIssuer } from '../registry/token-request.js';
import type { Brand } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { readKubeconfig } from '../pki/kubeconfig-read.js';
import type { Registry } from '../registry/registry.js';
import { objectKey } from '../registry/resource-info.js';

/** What the flags say about authentication (each method on when its setting is given). */
export interface AuthenticationSettings extends Omit<AuthenticationOptions, 'clientCaPem' | 'bootstrapTokens' | 'webhook' | 'serviceAccounts'> {
  /** `--enable-bootstrap-token-auth`: Secrets `bootstrap-token-<id>` in the system namespace. */
  enableBootstrapTokenAuth?: boolean;
  /** `--authentication-token-webhook-*`: where TokenReviews go, which version, how long answers are kept. */
  webhook?: { kubeconfigPath: string; version: 'v1' | 'v1beta1'; cacheTtlMs: number };
  /** Service-account tokens; keys default to the serving key. */
  serviceAccounts?: {
    /** `--service-account-key-file` (repeatable): PEM files whose keys verify tokens. */
    keyFiles?: readonly string[];
    /** `--service-account-signing-key-file`: the private key TokenRequest signs with. */
    signingKeyFile?: string;
    /** `--service-account-issuer` (repeatable; the first signs). */
    issuers?: readonly string[];
    /** `--api-audiences` (default: the issuers). */
    apiAudiences?: readonly string[];
    /** `--service-account-lookup` (default true). */
    lookup?: boolean;
    /** `--service-account-max-token-expiration` in seconds (0: none). */
    maxTokenExpirationSeconds?: number;
  };
}

/** What TokenRequest needs to issue bound tokens. */
export interface ServiceAccountIssuing {
  key: SigningKey;
  /** Every key that verifies tokens (published in the issuer's JWKS). */
  verifyKeys: readonly VerifyKey[];
  /** The issuer that signs (the first of issuers). */
  issuer: string;
  issuers: readonly string[];
  apiAudiences: readonly string[];
  names: ServiceAccountNames;
  maxTokenExpirationSeconds: number;
  lookupLegacy: boolean;
}

/** The brand's spellings of upstream's service-account names. */
export function serviceAccountNames(brand: Brand): ServiceAccountNames {
  const vendor = brand.word === 'kube' ? 'kubernetes' : brand.word;
  return { legacyIssuer: `${vendor}/serviceaccount`, claimDomain: brand.labelDomain, extraDomain: `authentication.${brand.labelDomain}` };
}

/** orch's default issuer (upstream requires the flag; kubeadm's value, under the brand). */
export function defaultIssuer(brand: Brand): string {
  return `https://${brand.word === 'kube' ? 'kubernetes' : brand.word}.default.svc.cluster.local`;
}

/** Reads one object from storage (the registry's current state), or undefined. */
function reader(registry: Registry, resource: string): (namespace: string, name: string) => Promise<Obj | undefined> {
  const store = registry.byResource('', resource);
  if (!store) throw new Error(`authentication needs the ${resource} resource`);
  return async (namespace, name) => {
    const kv = await registry.store.get(objectKey(store.info, namespace, name));
    return kv ? store.decode(kv) : undefined;
  };
}

/** Where bootstrap tokens are looked up: Secrets of the brand's bootstrap type in its system namespace. */
function bootstrapTokenSource(registry: Registry, brand: Brand): BootstrapTokenOptions {
  return { namespace: brand.systemNamespace, secretType: bootstrapTokenSecretType(brand), getSecret: reader(registry, 'secrets') };
}

/** The service-account keys, issuers and audiences; throws start-up errors for unusable key files. */
export function serviceAccountIssuing(settings: AuthenticationSettings, servingKeyPem: string, brand: Brand): ServiceAccountIssuing {
  const sa = settings.serviceAccounts ?? {};
  const verifyKeys: VerifyKey[] = sa.keyFiles?.length
    ? sa.keyFiles.flatMap((f) => verifyKeysFromPem(readFileSync(f, 'utf8'), f))
    : verifyKeysFromPem(servingKeyPem, 'the serving key');
  const key = sa.signingKeyFile
    ? signingKeyFromPem(readFileSync(sa.signingKeyFile, 'utf8'), sa.signingKeyFile)
    : signingKeyFromPem(servingKeyPem, 'the serving key');
  // The signing key always verifies what it signs.
  if (!verifyKeys.some((k) => k.kid === key.kid)) verifyKeys.push(key);
  const issuers = sa.issuers?.length ? [...sa.issuers] : [defaultIssuer(brand)];
  return {
    key,
    verifyKeys,
    issuer: issuers[0],
    issuers,
    apiAudiences: sa.apiAudiences?.length ? [...sa.apiAudiences] : issuers,
    names: serviceAccountNames(brand),
    maxTokenExpirationSeconds: sa.maxTokenExpirationSeconds ?? 0,
    lookupLegacy: sa.lookup !== false,
  };
}

/** TokenRequest's signer over the issuing settings. */
export function tokenIssuer(issuing: ServiceAccountIssuing): TokenIssuer {
  return {
    apiAudiences: issuing.apiAudiences,
    maxExpirationSeconds: issuing.maxTokenExpirationSeconds,
    issue: (req) => signBoundToken(issuing.key, { ...req, issuer: issuing.issuer, names: issuing.names }),
  };
}

/** The request authenticator, and the token authenticators alone (for TokenReview); throws start-up errors. */
export function authenticationFor(
  settings: AuthenticationSettings,
  clientCaPem: string,
  issuing: ServiceAccountIssuing,
  registry: Registry,
  brand: Brand,
): BuiltAuthentication {
  const lookup: ServiceAccountLookup = {
    serviceAccount: reader(registry, 'serviceaccounts'),
    secret: reader(registry, 'secrets'),
    pod: reader(registry, 'pods'),
  };
  return buildAuthentication({
    ...settings,
    clientCaPem,
    serviceAccounts: {
      keys: issuing.verifyKeys,
      issuers: issuing.issuers,
      apiAudiences: issuing.apiAudiences,
      names: issuing.names,
      lookup,
      lookupLegacy: issuing.lookupLegacy,
    },
    bootstrapTokens: settings.enableBootstrapTokenAuth ? bootstrapTokenSource(registry, brand) : undefined,
    webhook: settings.webhook && {
      connection: readKubeconfig(settings.webhook.kubeconfigPath),
      apiVersion: `${brand.group('authentication', true)}/${settings.webhook.version}`,
      cacheTtlMs: settings.webhook.cacheTtlMs,
    },
  });
}
