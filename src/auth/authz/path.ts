/** Paths allowed to everyone, before any review (a component's `--authorization-always-allow-paths`). */
import { ALLOW, type Authorization, type Authorizer } from '../../machinery/authorization.js';

/** Upstream's path authorizer (`--authorization-always-allow-paths`): exact paths, or prefixes ending in `*`. */
export function pathAuthorizer(paths: readonly string[]): Authorizer {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const p of paths) {
    const trimmed = p.startsWith('/') ? p : `/${p}`;
    if (trimmed.endsWith('*')) prefixes.push(trimmed.slice(0, -1));
    else exact.add(trimmed);
  }
  const none: Authorization = { decision: 'no-opinion', reason: '' };
  return {
    authorize(attrs) {
      if (attrs.isResourceRequest) return none;
      if (exact.has(attrs.path) || prefixes.some((p) => attrs.path.startsWith(p))) return ALLOW;
      return none;
    },
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: [...paths] }], incomplete: false }),
  };
}
