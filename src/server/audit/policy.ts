/**
 * The audit Policy (`--audit-policy-file`, upstream's apiserver/pkg/audit/policy): reading and
 * validating the file with upstream's errors, and evaluating a request's attributes against the
 * rules, first match wins (upstream's policyRuleEvaluator). Rules are compiled once into sets so
 * a request costs a few set lookups; user-supplied names never meet plain-object lookups.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { Attributes } from '../../machinery/authorization.js';
import type { Brand } from '../../machinery/brand.js';
import { type FieldError, fieldErrorBody, invalid, notSupported, PrintedValue, required } from '../../machinery/status.js';
import { goStringSlice, isDNS1123Subdomain } from '../../machinery/validation.js';

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

/** What the policy decides for one request. */
export interface RequestAuditConfig {
  level: Level;
  omitStages: ReadonlySet<Stage>;
  omitManagedFields: boolean;
}

interface GroupResources {
  group: string;
  resources: string[];
  resourceNames: string[];
}

interface CompiledRule {
  config: RequestAuditConfig;
  users?: ReadonlySet<string>;
  userGroups?: ReadonlySet<string>;
  verbs?: ReadonlySet<string>;
  namespaces?: ReadonlySet<string>;
  resources: GroupResources[];
  nonResourceURLs: string[];
}

/** `Request` and above record the request body; `RequestResponse` the response body too. */
export function levelAtLeast(level: Level, floor: Level): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(floor);
}

/** A loaded policy: evaluate() gives the first matching rule's level, or None with the policy's stages. */
export class AuditPolicy {
  private readonly rules: CompiledRule[];
  private readonly fallback: RequestAuditConfig;

  constructor(raw: RawPolicy) {
    const policyStages = raw.omitStages ?? [];
    const policyOmitManagedFields = raw.omitManagedFields ?? false;
    this.fallback = { level: 'None', omitStages: new Set(policyStages), omitManagedFields: policyOmitManagedFields };
    // Upstream unions the policy's omitStages into every rule's.
    this.rules = (raw.rules ?? []).map((r) => ({
      config: {
        level: r.level as Level,
        omitStages: new Set([...policyStages, ...(r.omitStages ?? [])]),
        omitManagedFields: r.omitManagedFields ?? policyOmitManagedFields,
      },
      users: setOf(r.users),
      userGroups: setOf(r.userGroups),
      verbs: setOf(r.verbs),
      namespaces: setOf(r.namespaces),
      resources: (r.resources ?? []).map((g) => ({ group: g.group ?? '', resources: g.resources ?? [], resourceNames: g.resourceNames ?? [] })),
      nonResourceURLs: r.nonResourceURLs ?? [],
    }));
  }

  /** The first rule matching the request decides; none matching: level None. */
  evaluate(attrs: Attributes): RequestAuditConfig {
    for (const rule of this.rules) if (ruleMatches(rule, attrs)) return rule.config;
    return this.fallback;
  }
}

function setOf(values: string[] | undefined): ReadonlySet<string> | undefined {
  return values && values.length > 0 ? new Set(values) : undefined;
}

function ruleMatches(r: CompiledRule, attrs: Attributes): boolean {
  if (r.users && !r.users.has(attrs.user.name)) return false;
  if (r.userGroups && !(attrs.user.groups ?? []).some((g) => r.userGroups?.has(g))) return false;
  if (r.verbs && !r.verbs.has(attrs.verb)) return false;
  if (r.namespaces || r.resources.length > 0) return resourceMatches(r, attrs);
  if (r.nonResourceURLs.length > 0) return !attrs.isResourceRequest && r.nonResourceURLs.some((spec) => pathMatches(attrs.path, spec));
  return true;
}

/** `*`, an exact path, or a prefix before a trailing `*`. */
function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(r: CompiledRule, attrs: Attributes): boolean {
  if (!attrs.isResourceRequest) return false;
  // Cluster-scoped resources have the empty namespace, which a rule may list.
  if (r.namespaces && !r.namespaces.has(attrs.namespace)) return false;
  if (r.resources.length === 0) return true;
  const { resource, subresource, name } = attrs;
  const combined = subresource === '' ? resource : `${resource}/${subresource}`;
  for (const gr of r.resources) {
    if (gr.group !== attrs.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (subresource !== '' && res.startsWith('*/') && res.slice(2) === subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === resource) return true;
    }
  }
  return false;
}

interface RawRule {
  level?: string;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: { group?: string; resources?: string[]; resourceNames?: string[] }[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

interface RawPolicy {
  apiVersion?: string;
  kind?: string;
  rules?: RawRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** Upstream's LoadPolicyFromFile: the policy, or an Error with upstream's message. */
export function loadPolicyFile(path: string, brand: Brand): AuditPolicy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`loading audit policy file: failed to read file path "${path}": ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return parsePolicy(text, brand);
  } catch (e) {
    throw new Error(`loading audit policy file: ${e instanceof Error ? e.message : String(e)}: from file ${path}`);
  }
}

/** Upstream's LoadPolicyFromBytes over YAML or JSON text; throws its errors. */
export function parsePolicy(text: string, brand: Brand): AuditPolicy {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new Error(`failed decoding: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  const groupVersion = `${brand.group('audit', true)}/v1`;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new Error(`failed decoding: Object 'Kind' is missing in '${JSON.stringify(doc ?? null)}'`);
  const raw = doc as RawPolicy;
  if (typeof raw.kind !== 'string' || raw.kind === '') throw new Error(`failed decoding: Object 'Kind' is missing in '${JSON.stringify(doc)}'`);
  if (raw.apiVersion !== groupVersion || raw.kind !== 'Policy') {
    // Only v1 is served since 1.24: the v1alpha1 and v1beta1 policies were removed.
    throw new Error(`failed decoding: no kind ${JSON.stringify(raw.kind)} is registered for version ${JSON.stringify(raw.apiVersion ?? '')}`);
  }
  checkTypes(raw);
  const errors = validatePolicy(raw);
  if (errors.length > 0) {
    const parts = errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
    throw new Error(parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`);
  }
  if ((raw.rules ?? []).length === 0) throw new Error('loaded illegal policy with 0 rules');
  return new AuditPolicy(raw);
}

const STRING_LISTS = ['users', 'userGroups', 'verbs', 'namespaces', 'nonResourceURLs', 'omitStages'] as const;

/** What Go's typed decoding refuses: a field of the wrong JSON type. */
function checkTypes(raw: RawPolicy): void {
  const refuse = (field: string, want: string, got: unknown) => {
    const kind = Array.isArray(got) ? 'array' : got === null ? 'null' : typeof got;
    throw new Error(`failed decoding: json: cannot unmarshal ${kind} into Go struct field ${field} of type ${want}`);
  };
  const strings = (v: unknown, field: string) => {
    if (v === undefined || v === null) return;
    if (!Array.isArray(v)) refuse(field, '[]string', v);
    for (const s of v as unknown[]) if (typeof s !== 'string') refuse(field, 'string', s);
  };
  const bool = (v: unknown, field: string) => {
    if (v !== undefined && v !== null && typeof v !== 'boolean') refuse(field, 'bool', v);
  };
  if (raw.rules !== undefined && raw.rules !== null && !Array.isArray(raw.rules)) refuse('Policy.rules', '[]v1.PolicyRule', raw.rules);
  strings(raw.omitStages, 'Policy.omitStages');
  bool(raw.omitManagedFields, 'Policy.omitManagedFields');
  for (const rule of raw.rules ?? []) {
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) refuse('Policy.rules', 'v1.PolicyRule', rule);
    if (rule.level !== undefined && typeof rule.level !== 'string') refuse('PolicyRule.rules.level', 'v1.Level', rule.level);
    for (const key of STRING_LISTS) strings(rule[key], `PolicyRule.rules.${key}`);
    bool(rule.omitManagedFields, 'PolicyRule.rules.omitManagedFields');
    if (rule.resources !== undefined && rule.resources !== null && !Array.isArray(rule.resources))
      refuse('PolicyRule.rules.resources', '[]v1.GroupResources', rule.resources);
    for (const gr of rule.resources ?? []) {
      if (gr === null || typeof gr !== 'object' || Array.isArray(gr)) refuse('PolicyRule.rules.resources', 'v1.GroupResources', gr);
      if (gr.group !== undefined && typeof gr.group !== 'string') refuse('GroupResources.rules.resources.group', 'string', gr.group);
      strings(gr.resources, 'GroupResources.rules.resources.resources');
      strings(gr.resourceNames, 'GroupResources.rules.resources.resourceNames');
    }
  }
}

/** Upstream's audit validation.ValidatePolicy. */
function validatePolicy(raw: RawPolicy): FieldError[] {
  const errs: FieldError[] = [...validateOmitStages(raw.omitStages, 'omitStages')];
  (raw.rules ?? []).forEach((rule, i) => {
    const at = `rules[${i}]`;
    if (rule.level === undefined || rule.level === '') errs.push(required(`${at}.level`, ''));
    else if (!(LEVELS as readonly string[]).includes(rule.level)) errs.push(notSupported(`${at}.level`, rule.level, [...LEVELS]));
    (rule.nonResourceURLs ?? []).forEach((url, j) => {
      if (url === '*') return;
      if (!url.startsWith('/')) errs.push(invalid(`${at}.nonResourceURLs[${j}]`, url, "non-resource URL rules must begin with a '/' character"));
      if (url !== '' && url.slice(0, -1).includes('*')) {
        errs.push(invalid(`${at}.nonResourceURLs[${j}]`, url, "non-resource URL wildcards '*' must be the final character of the rule"));
      }
    });
    for (const gr of rule.resources ?? []) {
      const group = gr.group ?? '';
      if (group !== '') {
        const msgs = isDNS1123Subdomain(group);
        if (msgs.length > 0) errs.push(invalid(`${at}.resources.group`, group, msgs.join(',')));
      }
      if ((gr.resourceNames ?? []).length > 0 && (gr.resources ?? []).length === 0) {
        errs.push(
          invalid(`${at}.resources.resourceNames`, new PrintedValue(goStringSlice(gr.resourceNames)), 'using resourceNames requires at least one resource'),
        );
      }
    }
    errs.push(...validateOmitStages(rule.omitStages, `${at}.omitStages`));
    if ((rule.nonResourceURLs ?? []).length > 0 && ((rule.resources ?? []).length > 0 || (rule.namespaces ?? []).length > 0)) {
      errs.push(
        invalid(
          `${at}.nonResourceURLs`,
          new PrintedValue(goStringSlice(rule.nonResourceURLs)),
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    }
  });
  return errs;
}

function validateOmitStages(stages: readonly string[] | undefined, at: string): FieldError[] {
  const out: FieldError[] = [];
  (stages ?? []).forEach((s, i) => {
    if (!(STAGES as readonly string[]).includes(s)) out.push(invalid(`${at}[${i}]`, s, `allowed stages are ${STAGES.join(',')}`));
  });
  return out;
}
