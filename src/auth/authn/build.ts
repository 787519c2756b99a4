/**
 * The request authenticator, composed in upstream's order (kube-apiserver's authenticator
 * Config.New): the authenticating proxy, x509 client certificates, then bearer tokens (token file first; the other token
 * methods slot into the token union in upstream's order as they land) behind the 10 s success
 * cache; the authenticated group is added; anonymous last, only for requests without credentials.
 */
import { unionAuthenticator, type Authenticator } from './authenticator.js';
import { addAuthenticatedGroup } from './authenticated-group.js';
import { withAnonymous } from './anonymous.js';
import { bearerTokenAuthenticator, cachedTokenAuthenticator, type TokenAuthenticator, unionTokenAuthenticator } from './token.js';
import { x509Authenticator } from './x509.js';
import { readTokenFile } from './token-file.js';
import { type OidcOptions, oidcAuthenticator } from './oidc.js';
import { type ServiceAccountTokenOptions, serviceAccountTokenAuthenticator } from './service-account-token.js';
import { type WebhookTokenOptions, webhookTokenAuthenticator } from './webhook-token.js';
import { type BootstrapTokenOptions, bootstrapTokenAuthenticator } from './bootstrap-token.js';
import { type RequestHeaderOptions, requestHeaderAuthenticator } from './request-header.js';

export interface AuthenticationOptions {
  /** CA bundle (PEM) client certificates are verified against (`--client-ca-file`). */
  clientCaPem: string;
  /** `--token-auth-file`. */
  tokenAuthFile?: string;
  /** The authenticating proxy (`--requestheader-*`), when its CA is given. */
  requestHeader?: RequestHeaderOptions;
  /** Service-account JWTs (legacy and bound). */
  serviceAccounts?: ServiceAccountTokenOptions;
  /** Bootstrap tokens (`--enable-bootstrap-token-auth`), with where their Secrets are read. */
  bootstrapTokens?: BootstrapTokenOptions;
  /** OpenID Connect ID tokens (`--oidc-*`). */
  oidc?: OidcOptions;
  /** Webhook token authentication (`--authentication-token-webhook-*`). */
  webhook?: WebhookTokenOptions;
  /** `--anonymous-auth`. */
  anonymousAuth?: boolean;
  /** Where start-up warnings (skipped token lines) go. */
  warn?: (message: string) => void;
}

/** Upstream's token success cache: 10 s; bounded so distinct tokens cannot grow memory. */
const TOKEN_SUCCESS_TTL_MS = 10_000;
const TOKEN_CACHE_ENTRIES = 10_000;

/** Builds the authenticator; throws (a start-up error) on an unreadable token file or CA. */
export function buildAuthenticator(opts: AuthenticationOptions): Authenticator {
  const methods: Authenticator[] = [];
  if (opts.requestHeader) methods.push(requestHeaderAuthenticator(opts.requestHeader));
  methods.push(x509Authenticator(opts.clientCaPem));
  const tokens: TokenAuthenticator[] = [];
  // Upstream's token order: file, service-account JWTs, bootstrap, OIDC, webhook.
  if (opts.tokenAuthFile) tokens.push(readTokenFile(opts.tokenAuthFile, opts.warn));
  if (opts.serviceAccounts) tokens.push(serviceAccountTokenAuthenticator(opts.serviceAccounts));
  if (opts.bootstrapTokens) tokens.push(bootstrapTokenAuthenticator(opts.bootstrapTokens));
  // OIDC after service-account tokens: both read JWTs, and OIDC may call out to the provider.
  if (opts.oidc) tokens.push(oidcAuthenticator(opts.oidc));
  if (opts.webhook) tokens.push(webhookTokenAuthenticator(opts.webhook));
  if (tokens.length > 0) {
    const cached = cachedTokenAuthenticator(unionTokenAuthenticator(tokens), { successTtlMs: TOKEN_SUCCESS_TTL_MS, maxEntries: TOKEN_CACHE_ENTRIES });
    methods.push(bearerTokenAuthenticator(cached));
  }
  const authenticated = addAuthenticatedGroup(unionAuthenticator(methods));
  return opts.anonymousAuth ? withAnonymous(authenticated) : authenticated;
}
