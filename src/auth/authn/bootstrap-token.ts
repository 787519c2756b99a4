/**
 * Bootstrap tokens (`--enable-bootstrap-token-auth`), as upstream's bootstrap authenticator:
 * `<id>.<secret>` names the Secret `bootstrap-token-<id>` of type `bootstrap.<domain>/token`
 * in the system namespace; it authenticates `system:bootstrap:<id>` in `system:bootstrappers`
 * plus its valid `auth-extra-groups` while it is unexpired, not deleting and marked for
 * authentication. Every mismatch is "not mine" (the next token method may know it), never an
 * error, and the secret is compared in constant time.
 */
import { timingSafeEqual } from 'node:crypto';
import { bootstrapTokenExpired as isExpired, secretField } from '../../machinery/bootstrap-token.js';
import type { Obj } from '../../machinery/object.js';
import type { UserInfo } from '../../machinery/user.js';
import type { TokenAuthenticator } from './token.js';

const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
const BOOTSTRAPPERS = 'system:bootstrappers';

export interface BootstrapTokenOptions {
  /** Where bootstrap Secrets live (`orch-system`; compat `kube-system`). */
  namespace: string;
  /** `bootstrap.orch.io/token` (compat `bootstrap.kubernetes.io/token`). */
  secretType: string;
  /** Reads a Secret (from the watch cache), or undefined when there is none. */
  getSecret(namespace: string, name: string): Promise<Obj | undefined>;
  now?: () => number;
}

export function bootstrapTokenAuthenticator(opts: BootstrapTokenOptions): TokenAuthenticator {
  const now = opts.now ?? Date.now;
  return {
    async authenticateToken(token) {
      const m = TOKEN.exec(token);
      if (!m) return undefined;
      const [, id, secret] = m;
      const obj = await opts.getSecret(opts.namespace, `bootstrap-token-${id}`);
      if (!obj || (obj.metadata as { deletionTimestamp?: string } | undefined)?.deletionTimestamp) return undefined;
      if (obj.type !== opts.secretType || typeof obj.data !== 'object' || obj.data === null) return undefined;
      const field = (key: string): string | undefined => secretField(obj.data, key);
      const stored = field('token-secret');
      if (stored === undefined || !sameSecret(stored, secret)) return undefined;
      if (field('token-id') !== id) return undefined;
      if (isExpired(field('expiration'), now())) return undefined;
      if (field('usage-bootstrap-authentication') !== 'true') return undefined;
      const groups = groupsOf(field('auth-extra-groups'));
      if (!groups) return undefined;
      const user: UserInfo = { name: `system:bootstrap:${id}`, groups };
      return user;
    },
  };
}

/** Constant-time comparison, so response timing tells nothing of how much of a secret matched. */
function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** system:bootstrappers plus each extra group, sorted and unique; an invalid extra group rejects the token. */
function groupsOf(extra: string | undefined): string[] | undefined {
  const groups = new Set([BOOTSTRAPPERS]);
  for (const g of (extra ?? '').split(',')) {
    const group = g.trim();
    if (group === '') continue;
    if (!EXTRA_GROUP.test(group)) return undefined;
    groups.add(group);
  }
  return [...groups].sort();
}
