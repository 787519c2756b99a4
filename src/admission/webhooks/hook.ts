/**
 * One webhook of a Mutating/ValidatingWebhookConfiguration as the dispatcher reads it, with
 * upstream's v1 defaults applied to whatever the stored object leaves out (objects written
 * before defaulting existed, or read from another version).
 */
import { type LabelMatcher, labelSelectorFromObject, type LabelSelector, NOTHING } from '../../machinery/label-selector.js';
import { isSet, num, rec, records, type Rec, str, strings } from '../../machinery/fields.js';

export interface HookRule {
  operations: string[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  /** `*`, `Cluster` or `Namespaced`. */
  scope: string;
}

export interface HookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path: string; port: number };
  /** PEM bytes decoded from caBundle; undefined: the system's roots. */
  caPem?: string;
}

export interface Hook {
  /** The configuration's name and the hook's index in it: tells two hooks of one name apart. */
  uid: string;
  name: string;
  configuration: string;
  rules: HookRule[];
  failurePolicy: 'Fail' | 'Ignore';
  matchPolicy: 'Exact' | 'Equivalent';
  namespaceSelector: LabelMatcher;
  objectSelector: LabelMatcher;
  /** Why a selector does not compile (validation refuses such configurations; older ones may hold one). */
  selectorError?: string;
  sideEffects: string;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
  reinvocationPolicy: 'Never' | 'IfNeeded';
  clientConfig: HookClientConfig;
}

/** Upstream's default and largest timeoutSeconds. */
export const DEFAULT_TIMEOUT_SECONDS = 10;
export const MAX_TIMEOUT_SECONDS = 30;

function ruleOf(r: Rec): HookRule {
  return {
    operations: strings(r.operations),
    apiGroups: strings(r.apiGroups),
    apiVersions: strings(r.apiVersions),
    resources: strings(r.resources),
    scope: str(r.scope) || '*',
  };
}

function clientConfigOf(c: Rec): HookClientConfig {
  const out: HookClientConfig = {};
  if (typeof c.url === 'string' && c.url !== '') out.url = c.url;
  if (isSet(c.service)) {
    const s = rec(c.service);
    out.service = { namespace: str(s.namespace), name: str(s.name), path: str(s.path), port: num(s.port) || 443 };
  }
  if (typeof c.caBundle === 'string' && c.caBundle !== '') out.caPem = Buffer.from(c.caBundle, 'base64').toString('utf8');
  return out;
}

/** The hooks of one stored configuration (its `webhooks`), in order. */
export function hooksOf(config: Rec): Hook[] {
  const configuration = str(rec(config.metadata).name);
  return records(config.webhooks).map((w, i) => {
    const selectors = selectorsOf(w);
    return {
      uid: `${configuration}/${str(w.name)}/${i}`,
      name: str(w.name),
      configuration,
      rules: records(w.rules).map(ruleOf),
      failurePolicy: w.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
      matchPolicy: w.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
      ...selectors,
      sideEffects: str(w.sideEffects),
      timeoutSeconds: Math.min(MAX_TIMEOUT_SECONDS, Math.max(1, num(w.timeoutSeconds) || DEFAULT_TIMEOUT_SECONDS)),
      admissionReviewVersions: strings(w.admissionReviewVersions),
      reinvocationPolicy: w.reinvocationPolicy === 'IfNeeded' ? 'IfNeeded' : 'Never',
      clientConfig: clientConfigOf(rec(w.clientConfig)),
    };
  });
}

/** The compiled selectors (absent: everything, upstream's default), or why they do not compile. */
function selectorsOf(w: Rec): Pick<Hook, 'namespaceSelector' | 'objectSelector' | 'selectorError'> {
  const compile = (v: unknown): LabelMatcher => labelSelectorFromObject(isSet(v) ? (rec(v) as LabelSelector) : {});
  try {
    return { namespaceSelector: compile(w.namespaceSelector), objectSelector: compile(w.objectSelector) };
  } catch (e) {
    return { namespaceSelector: NOTHING, objectSelector: NOTHING, selectorError: e instanceof Error ? e.message : String(e) };
  }
}
