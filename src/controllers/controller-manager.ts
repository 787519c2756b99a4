/**
 * The controller manager's runner (upstream's StartControllers): starts every controller
 * `--controllers` selects from the controller table, each with its own client when service
 * account credentials are used, and stops them all. Leader election and serving are the
 * command's (src/cmd/); the all-in-one runs this same runner in-process.
 */
import type { RestClient } from '../client/rest-client.js';
import type { Brand } from '../machinery/brand.js';
import type { Controller, ControllerContext, SigningPair } from './controller.js';
import { CONTROLLERS, type ControllerEntry, enabledControllers } from './controller-table.js';
import { type ServiceAccountClient, serviceAccountClient } from './service-account-credentials.js';

export interface ControllerManagerOptions {
  /** The manager's own client (its kubeconfig's credentials). */
  client: RestClient;
  brand: Brand;
  /** --controllers; default `['*']`. */
  controllers?: readonly string[];
  useServiceAccountCredentials?: boolean;
  rootCaPem?: string;
  serviceAccountPrivateKeyPem?: string;
  clusterSigning?: SigningPair;
  /** --concurrent-<stem>-syncs values. */
  concurrency?: ReadonlyMap<string, number>;
  /** The controller table; default CONTROLLERS. */
  table?: ReadonlyMap<string, ControllerEntry>;
  /** The manager's user agent; controllers' clients append `/<service account>` as upstream. */
  userAgent?: string;
  log?: (level: 'info' | 'error', message: string) => void;
}

export interface RunningControllers {
  /** The names of the controllers started. */
  readonly names: readonly string[];
  stop(): Promise<void>;
}

/** Starts the selected controllers; resolves once each has been started. */
export async function startControllers(o: ControllerManagerOptions): Promise<RunningControllers> {
  const table = o.table ?? CONTROLLERS;
  const log = o.log ?? (() => {});
  const abort = new AbortController();
  const started: { name: string; controller: Controller; credentials?: ServiceAccountClient }[] = [];
  let stopping: Promise<void> | undefined;
  const stopAll = () => {
    stopping ??= (async () => {
      abort.abort();
      for (const s of started.reverse()) {
        await Promise.resolve(s.controller.stop()).catch((err) => log('error', `stopping ${s.name}: ${String(err)}`));
        s.credentials?.stop();
      }
    })();
    return stopping;
  };
  const names = enabledControllers(o.controllers ?? ['*'], table);
  for (const name of names) {
    const entry = table.get(name) as ControllerEntry;
    let credentials: ServiceAccountClient | undefined;
    if (o.useServiceAccountCredentials) {
      credentials = await serviceAccountClient(
        o.client,
        `${o.brand.group('authentication', true)}/v1`,
        o.brand.systemNamespace,
        entry.serviceAccount,
        `${o.userAgent ?? `${o.brand.word}-controller-manager`}/${entry.serviceAccount}`,
        (m) => log('error', m),
        abort.signal,
      );
    }
    const ctx: ControllerContext = {
      client: credentials?.client ?? o.client,
      informerClient: o.client,
      brand: o.brand,
      rootCaPem: o.rootCaPem,
      serviceAccountPrivateKeyPem: o.serviceAccountPrivateKeyPem,
      clusterSigning: o.clusterSigning,
      concurrentSyncs: (entry.concurrencyFlag && o.concurrency?.get(entry.concurrencyFlag)) || 1,
      concurrency: o.concurrency ?? new Map(),
      log,
    };
    try {
      const controller = entry.init(ctx);
      controller.start();
      started.push({ name, controller, credentials });
      log('info', `Started "${name}"`);
    } catch (err) {
      credentials?.stop();
      await stopAll();
      throw new Error(`error starting "${name}": ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { names, stop: stopAll };
}
