/** What the request chain and the handlers are built from (one object, made by apiserver.ts). */
import type { Registry } from '../registry/registry.js';
import type { Brand } from '../machinery/brand.js';
import type { Admission } from '../admission/admission.js';
import type { Authorizer } from '../auth/authz/authorizer.js';
import type { Authenticator } from '../auth/authn/authenticator.js';
import type { HealthCheck } from './health.js';
import type { DiscoveryDocuments } from './discovery.js';
import type { ReviewDeps } from '../registry/reviews.js';
import type { InFlightCounts, InFlightLimits } from './filters/max-in-flight.js';
import type { ApiServerMetrics } from './metrics.js';
import type { IssuerDocuments } from './service-account-issuer.js';
import type { ServerFeatures } from './feature-gates.js';
import type { DeprecatedRequestRecorder } from './deprecation.js';
import type { Auditing } from './audit/options.js';
import type { FlowControl } from './flowcontrol/controller.js';
import type { RequestState } from './filters/chain.js';

/** Upstream's --request-timeout default (1m0s). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Upstream's --min-request-timeout default (watches last 30-60 minutes). */
export const DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS = 1800;
/** Upstream's --max-requests-inflight and --max-mutating-requests-inflight defaults. */
export const DEFAULT_IN_FLIGHT: InFlightLimits = { maxRequestsInflight: 400, maxMutatingRequestsInflight: 200 };

export interface RouterConfig {
  registry: Registry;
  brand: Brand;
  admission: Admission;
  authenticator: Authenticator;
  authorizer: Authorizer;
  reviews: ReviewDeps;
  discovery: DiscoveryDocuments;
  version: Record<string, string>;
  health: { livez: HealthCheck[]; readyz: HealthCheck[]; healthz: HealthCheck[] };
  /** Resolves when the server begins shutting down (long requests end then). */
  shuttingDown: Promise<void>;
  /** The server's metrics (/metrics and the request metrics filter); none: neither. */
  metrics?: ApiServerMetrics;
  /** The in-flight limit's counts, read by the metrics. */
  inFlightCounts?: InFlightCounts;
  /** What the feature gates switch (default: every gate at its default). */
  features?: ServerFeatures;
  /** --request-timeout in ms (0: none). */
  requestTimeoutMs?: number;
  /** The service-account issuer's discovery documents. */
  issuerDocuments?: IssuerDocuments;
  /** --min-request-timeout in seconds. */
  minRequestTimeoutSeconds?: number;
  /** --max-requests-inflight / --max-mutating-requests-inflight (0: no limit). */
  inFlight?: InFlightLimits;
  /** API Priority and Fairness; when present it replaces the in-flight limits. */
  flowControl?: FlowControl;
  /** Called on every request to a deprecated API version (sets `apiserver_requested_deprecated_apis`). */
  recordDeprecatedRequest?: DeprecatedRequestRecorder;
  /** Proxies requests for group versions an APIService sends to another server (false: served here). */
  aggregator?: { route(state: RequestState): Promise<void> | false };
  /** The audit policy and backends (`--audit-*`); absent: nothing is recorded and the filter is not in the chain. */
  audit?: Auditing;
}
