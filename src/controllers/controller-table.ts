/**
 * The controllers the controller manager knows, by upstream's `--controllers` names: how each
 * starts, the service account it acts as under --use-service-account-credentials (bound to its
 * `system:controller:<account>` role by the bootstrap policy), its --concurrent-*-syncs stem,
 * and whether it runs only when named (upstream's ControllersDisabledByDefault).
 * Controllers built elsewhere join by an entry in CONTROLLERS: `garbagecollector`,
 * `csrsigning`, `csrapproving`, `tokencleaner`, `bootstrapsigner` as upstream names them.
 */
import { ClusterRoleAggregationController } from './clusterrole-aggregation.js';
import type { ControllerInit } from './controller.js';
import { NamespaceController } from './namespace-controller.js';
import { GarbageCollector } from './garbage-collector/index.js';
import { RootCaCertPublisher } from './root-ca-cert-publisher.js';
import { ServiceAccountsController } from './serviceaccount-controller.js';

export interface ControllerEntry {
  init: ControllerInit;
  /** The service account (in the system namespace) whose role authorizes this controller. */
  serviceAccount: string;
  /** The stem of its `--concurrent-<stem>-syncs` flag, if it has one. */
  concurrencyFlag?: string;
}

/** Upstream's ControllersDisabledByDefault: these run only when named in --controllers. */
export const DISABLED_BY_DEFAULT: ReadonlySet<string> = new Set(['bootstrapsigner', 'tokencleaner']);

/** The controller table, by name; a Map so that --controllers values never meet object keys. */
export const CONTROLLERS = new Map<string, ControllerEntry>([
  [
    'namespace',
    {
      serviceAccount: 'namespace-controller',
      concurrencyFlag: 'namespace',
      init: (ctx) => new NamespaceController(ctx),
    },
  ],
  ['serviceaccount', { serviceAccount: 'service-account-controller', concurrencyFlag: 'serviceaccount', init: (ctx) => new ServiceAccountsController(ctx) }],
  ['root-ca-cert-publisher', { serviceAccount: 'root-ca-cert-publisher', init: (ctx) => new RootCaCertPublisher(ctx) }],
  [
    'garbagecollector',
    {
      serviceAccount: 'generic-garbage-collector',
      concurrencyFlag: 'gc',
      init: (ctx) =>
        new GarbageCollector({
          client: ctx.client,
          brand: ctx.brand,
          // Upstream's --concurrent-gc-syncs default (20) when the manager was given none.
          workers: ctx.concurrency.get('gc'),
          onError: (err) => ctx.log('error', `garbage collector: ${err instanceof Error ? err.message : String(err)}`),
        }),
    },
  ],
  [
    'clusterrole-aggregation',
    {
      serviceAccount: 'clusterrole-aggregation-controller',
      init: (ctx) => new ClusterRoleAggregationController({ client: ctx.client, groupVersion: `${ctx.brand.group('rbac.authorization', true)}/v1` }),
    },
  ],
]);

/**
 * Upstream's IsControllerEnabled over `--controllers` values: a name (or `-name`) decides for
 * itself, the first one wins; otherwise `*` enables every controller not disabled by default.
 */
export function isControllerEnabled(name: string, selection: readonly string[], disabledByDefault: boolean): boolean {
  let star = false;
  for (const s of selection) {
    if (s === name) return true;
    if (s === `-${name}`) return false;
    if (s === '*') star = true;
  }
  return star && !disabledByDefault;
}

/** Upstream's check of --controllers: every name (without `-`) must be known. */
export function validateControllerSelection(selection: readonly string[], known: ReadonlyMap<string, unknown> = CONTROLLERS): string | undefined {
  for (const s of selection) {
    if (s === '*') continue;
    const name = s.startsWith('-') ? s.slice(1) : s;
    if (!known.has(name)) return `"${name}" is not in the list of known controllers`;
  }
  return undefined;
}

/** The names --controllers selects, in table order. */
export function enabledControllers(selection: readonly string[], table: ReadonlyMap<string, ControllerEntry> = CONTROLLERS): string[] {
  return [...table].filter(([name]) => isControllerEnabled(name, selection, DISABLED_BY_DEFAULT.has(name))).map(([name]) => name);
}
