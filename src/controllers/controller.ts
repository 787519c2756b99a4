/**
 * What the controller manager hands each controller (upstream's ControllerContext, reduced):
 * `client` is the controller's own client (its service account's under
 * --use-service-account-credentials), `informerClient` the manager's own, used for shared
 * lists and watches as upstream's informer factory is built from the manager's credentials.
 */
import type { RestClient } from '../client/rest-client.js';
import type { Brand } from '../machinery/brand.js';

export interface Controller {
  start(): void;
  stop(): void | Promise<void>;
}

/** PEM certificate and key (--cluster-signing-cert-file / --cluster-signing-key-file). */
export interface SigningPair {
  certPem: string;
  keyPem: string;
  /** Where the key came from, for error messages. */
  keyFile?: string;
}

export interface ControllerContext {
  client: RestClient;
  informerClient: RestClient;
  brand: Brand;
  /** --root-ca-file, else the CA of the manager's kubeconfig. */
  rootCaPem?: string;
  /** --service-account-private-key-file's contents. */
  serviceAccountPrivateKeyPem?: string;
  /** --cluster-signing-cert-file / --cluster-signing-key-file. */
  clusterSigning?: SigningPair;
  /** --concurrent-<name>-syncs for this controller (1 when it has no such flag). */
  concurrentSyncs: number;
  /** Every --concurrent-*-syncs value, by flag stem (`namespace`, `serviceaccount`, `gc`...). */
  concurrency: ReadonlyMap<string, number>;
  log(level: 'info' | 'error', message: string): void;
}

/** Starts a controller from its context (an entry of the controller table). */
export type ControllerInit = (ctx: ControllerContext) => Controller;

/** A Status reason/cause check for `err` thrown by RestClient.expect (ApiError). */
export function hasCause(body: unknown, reason: string): boolean {
  const causes = (body as { details?: { causes?: { reason?: unknown }[] } } | undefined)?.details?.causes;
  return Array.isArray(causes) && causes.some((c) => c?.reason === reason);
}
