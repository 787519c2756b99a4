/**
 * From the server's authorization settings (flags) to the authorizer chain: the privileged
 * group `system:masters` first, then each `--authorization-mode` in order, built over the
 * registry (RBAC objects, the Node graph) or its files (ABAC policy, webhook kubeconfig).
 */
import { nodeRules } from '../api/rbac/node-rules.js';
import { abacAuthorizer, abacGroups, readPolicyFile } from '../auth/authz/abac.js';
import { alwaysAllow, alwaysDeny } from '../auth/authz/always.js';
import { type Authorizer, privilegedGroupAuthorizer, unionAuthorizer } from '../auth/authz/authorizer.js';
import { nodeAuthorizer } from '../auth/authz/node.js';
import { webhookAuthorizer } from '../auth/authz/webhook.js';
import { type Brand, KUBERNETES_BRAND } from '../machinery/brand.js';
import { readKubeconfig } from '../pki/kubeconfig-read.js';
import type { Registry } from '../registry/registry.js';
import { nodeGraphSource } from './node-graph-source.js';
import { rbacAuthorizer } from '../auth/authz/rbac/rbac-authorizer.js';
import type { PolicyIndex } from '../auth/authz/rbac/policy-index.js';
import { rbacGroup } from '../api/rbac/rbac-validation.js';
import { type RbacSource, rbacSource } from './rbac-source.js';

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** What every real cluster sets (upstream's bare default is AlwaysAllow). */
export const DEFAULT_AUTHORIZATION_MODES: readonly AuthorizationMode[] = ['Node', 'RBAC'];

export interface AuthorizationSettings {
  /** `--authorization-mode`, in order. */
  modes: readonly AuthorizationMode[];
  /** `--authorization-policy-file` (ABAC). */
  policyFile?: string;
  /** `--authorization-webhook-*`. */
  webhook?: { kubeconfigPath: string; version: 'v1' | 'v1beta1'; authorizedTtlMs: number; unauthorizedTtlMs: number };
}

/** One mode as the server runs it: its authorizer and, for modes fed by the registry, their start and stop. */
export interface ModeModule {
  authorizer: Authorizer;
  /** Resolves when the mode has read what it needs (RBAC objects, the Node graph). */
  start?(): Promise<void>;
  stop?(): void;
}

export interface ModeContext {
  settings: AuthorizationSettings;
  registry: Registry;
  brand: Brand;
  /** The RBAC objects in memory, fed whatever the modes (the escalation checks of RBAC writes read them too). */
  rbac: RbacSource;
}

type ModeBuilder = (ctx: ModeContext) => ModeModule;

const BUILDERS: Record<AuthorizationMode, ModeBuilder> = {
  AlwaysAllow: () => ({ authorizer: alwaysAllow }),
  AlwaysDeny: () => ({ authorizer: alwaysDeny }),
  ABAC: abacMode,
  Webhook: webhookMode,
  RBAC: ({ rbac, brand }) => ({ authorizer: rbacAuthorizer(rbac.index, rbacGroup(brand)) }),
  Node: nodeMode,
};

/** ABAC over `--authorization-policy-file`, read once: a bad line stops start-up with its number. */
function abacMode({ settings, brand }: ModeContext): ModeModule {
  if (!settings.policyFile) throw new Error("authorization-mode ABAC's authorization policy file not passed");
  // Upstream's own group and the brand's both name a Policy, so upstream files work unchanged.
  const groups = abacGroups([brand.labelDomain, KUBERNETES_BRAND.labelDomain]);
  return { authorizer: abacAuthorizer(readPolicyFile(settings.policyFile, groups)) };
}

/** The SubjectAccessReview webhook of `--authorization-webhook-config-file`. */
function webhookMode({ settings, brand }: ModeContext): ModeModule {
  const hook = settings.webhook;
  if (!hook) throw new Error("authorization-mode Webhook's authorization config file not passed");
  const authorizer = webhookAuthorizer({
    connection: readKubeconfig(hook.kubeconfigPath),
    // The brand's group, as the token webhook sends TokenReviews: authorization.k8s.io under --kubernetes-compat.
    group: brand.group('authorization', true),
    version: hook.version,
    authorizedTtlMs: hook.authorizedTtlMs,
    unauthorizedTtlMs: hook.unauthorizedTtlMs,
  });
  return { authorizer, stop: () => authorizer.close() };
}

/** The Node mode over a graph of pods, volumes and attachments fed by the watch caches. */
function nodeMode({ registry, brand }: ModeContext): ModeModule {
  const source = nodeGraphSource(registry, brand);
  return {
    authorizer: nodeAuthorizer({
      graph: source.graph,
      rules: nodeRules(brand),
      groups: { coordination: brand.group('coordination', true), storage: brand.group('storage', true) },
      nodeLeaseNamespace: brand.nodeLeaseNamespace,
    }),
    start: () => source.start(),
    stop: () => source.stop(),
  };
}

/** Upstream's validation of the authorization flags: every problem, one per line. */
export function validateAuthorizationSettings(s: { modes: readonly string[]; policyFile?: string; webhookConfigFile?: string }): string[] {
  const errors: string[] = [];
  if (s.modes.length === 0) errors.push('at least one authorization-mode must be passed');
  for (const m of s.modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(m)) errors.push(`authorization-mode "${m}" is not a valid mode`);
    if (m === 'ABAC' && !s.policyFile) errors.push("authorization-mode ABAC's authorization policy file not passed");
    if (m === 'Webhook' && !s.webhookConfigFile) errors.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (s.policyFile && !s.modes.includes('ABAC')) errors.push('cannot specify --authorization-policy-file without mode ABAC');
  if (s.webhookConfigFile && !s.modes.includes('Webhook')) errors.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (new Set(s.modes).size !== s.modes.length) errors.push(`authorization-mode "[${s.modes.join(' ')}]" has mode specified more than once`);
  return errors;
}

export interface BuiltAuthorization {
  authorizer: Authorizer;
  start(): Promise<void>;
  stop(): void;
}

/**
 * The chain: `system:masters`, then the modes; throws start-up errors (a bad policy file...).
 * `rbacIndex` is what the RBAC objects are loaded into (the server's escalation checks share it).
 */
export function authorizationFor(settings: AuthorizationSettings, registry: Registry, brand: Brand, rbacIndex?: PolicyIndex): BuiltAuthorization {
  const ctx: ModeContext = { settings, registry, brand, rbac: rbacSource(registry, brand, rbacIndex) };
  const modules = settings.modes.map((m) => BUILDERS[m](ctx));
  return {
    authorizer: unionAuthorizer([privilegedGroupAuthorizer, ...modules.map((m) => m.authorizer)]),
    start: async () => {
      await Promise.all([ctx.rbac.start(), ...modules.map((m) => m.start?.())]);
    },
    stop: () => {
      ctx.rbac.stop();
      for (const m of modules) m.stop?.();
    },
  };
}
