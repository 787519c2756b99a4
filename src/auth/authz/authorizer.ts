/**
 * The authorizer chain (upstream's union): modules in order, the first allow or deny is final;
 * when nobody decides, the reasons of every module joined by newlines and their errors.
 */
import { ALLOW, type Attributes, type Authorization, type Authorizer, NO_OPINION, NO_RULES, type Rules } from '../../machinery/authorization.js';

export type { Attributes, Authorization, Authorizer, Decision, Rules } from '../../machinery/authorization.js';

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown }).then === 'function';
}

/** Modules in order; synchronous as long as every module consulted answers synchronously. */
export function unionAuthorizer(modules: readonly Authorizer[]): Authorizer {
  return {
    authorize(attrs) {
      const reasons: string[] = [];
      const errors: string[] = [];
      const from = (i: number): Authorization | Promise<Authorization> => {
        for (; i < modules.length; i++) {
          const answer = modules[i].authorize(attrs);
          if (isPromise(answer)) {
            const next = i + 1;
            return answer.then((a) => (settle(a, reasons, errors) ? a : from(next)));
          }
          if (settle(answer, reasons, errors)) return answer;
        }
        return reasons.length === 0 && errors.length === 0
          ? NO_OPINION
          : { decision: 'no-opinion', reason: reasons.join('\n'), ...(errors.length ? { error: aggregate(errors) } : {}) };
      };
      return from(0);
    },
    async rulesFor(user, namespace) {
      const out: Rules = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errors: string[] = [];
      for (const m of modules) {
        const r = await m.rulesFor(user, namespace);
        out.resourceRules.push(...r.resourceRules);
        out.nonResourceRules.push(...r.nonResourceRules);
        if (r.incomplete) out.incomplete = true;
        if (r.error) errors.push(r.error);
      }
      if (errors.length) out.error = aggregate(errors);
      return out;
    },
  };
}

/** Records a no-opinion's reason and error; true when the answer is final (allow or deny). */
function settle(a: Authorization, reasons: string[], errors: string[]): boolean {
  if (a.decision !== 'no-opinion') return true;
  if (a.reason) reasons.push(a.reason);
  if (a.error) errors.push(a.error);
  return false;
}

/** Upstream's utilerrors aggregate text: one error as itself, several (repeats once) as `[a, b]`. */
export function aggregate(errors: readonly string[]): string {
  const unique = errors.length === 1 ? errors : [...new Set(errors)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

const MASTERS = 'system:masters';

/** Members of `system:masters` may do everything, whatever the other modes say (upstream). */
export const privilegedGroupAuthorizer: Authorizer = {
  authorize: (attrs) => (attrs.user.groups.includes(MASTERS) ? ALLOW : NO_OPINION),
  // Upstream's privileged-group authorizer resolves no rules: masters' rules come from RBAC's cluster-admin binding.
  rulesFor: () => NO_RULES,
};

/** Upstream's forbidden message for a denied request (before any reason is appended). */
export function forbiddenMessage(attrs: Attributes): string {
  const who = `User ${goQuote(attrs.user.name)}`;
  if (!attrs.isResourceRequest) return `${who} cannot ${attrs.verb} path ${goQuote(attrs.path)}`;
  const res = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const scope = attrs.namespace ? ` in the namespace ${goQuote(attrs.namespace)}` : ' at the cluster scope';
  return `${who} cannot ${attrs.verb} resource ${goQuote(res)} in API group ${goQuote(attrs.apiGroup)}${scope}`;
}

/** Go's %q for the strings that reach a message (JSON's escaping agrees for printable text). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}
