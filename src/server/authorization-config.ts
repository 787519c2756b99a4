/**
 * From the server's authorization settings (flags) to the authorizer chain: the privileged
 * group `system:masters` first, then each `--authorization-mode` in order, built over the
 * registry (RBAC objects, the Node graph) or its files (ABAC policy, webhook kubeconfig).
 */
import { alwaysAllow, alwaysDeny } from '../auth/authz/always.js';
import { type Authorizer, privilegedGroupAuthorizer, unionAuthorizer } from '../auth/authz/authorizer.js';
import type { Brand } from '../machinery/brand.js';
import type { Registry } from '../registry/registry.js';
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
  ABAC: unbuilt('ABAC'),
  Webhook: unbuilt('Webhook'),
  RBAC: ({ rbac, brand }) => ({ authorizer: rbacAuthorizer(rbac.index, rbacGroup(brand)) }),
  Node: unbuilt('Node'),
};

function unbuilt(mode: string): ModeBuilder {
  return () => {
    throw new Error(`authorization mode ${mode} is not available in this build`);
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
