/**
 * The ABAC mode (upstream's pkg/auth/authorizer/abac, 1.25): a policy file read once at start,
 * one JSON policy per line. A request is allowed by the first policy whose subject, verb and
 * resource (or non-resource path) match; otherwise no opinion. ABAC never denies.
 */
import { readFileSync } from 'node:fs';
import { ALLOW, type Attributes, type Authorization, type Authorizer, type NonResourceRule, type ResourceRule } from '../../machinery/authorization.js';
import type { UserInfo } from '../../machinery/user.js';

/** One policy's spec (abac v1beta1 PolicySpec); '' where the file leaves a field out. */
export interface AbacPolicy {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  resource: string;
  namespace: string;
  nonResourcePath: string;
}

/** A policy file that cannot be used: upstream's policyLoadError text. */
export class PolicyFileError extends Error {}

const ALL = '*';
/** Upstream's user.AllAuthenticated, which v0's "everyone" becomes. */
const ALL_AUTHENTICATED = 'system:authenticated';
const NO_POLICY_MATCHED: Authorization = Object.freeze({ decision: 'no-opinion', reason: 'No policy matched.' });

/**
 * The groups a policy's apiVersion may name: upstream's `abac.authorization.kubernetes.io` and
 * the brand's (`abac.authorization.orch.io`), so an upstream policy file works unchanged.
 */
export function abacGroups(labelDomains: readonly string[]): string[] {
  return [...new Set(labelDomains.map((d) => `abac.authorization.${d}`))];
}

/** Reads a policy file; throws PolicyFileError naming the file and line of the first bad policy. */
export function readPolicyFile(path: string, groups: readonly string[]): AbacPolicy[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new PolicyFileError(`error reading policy file ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parsePolicies(text, path, groups);
}

/** Parses a policy file's text (upstream's NewFromFile): blank and `#` lines skipped, v0 lines converted. */
export function parsePolicies(text: string, path: string, groups: readonly string[]): AbacPolicy[] {
  const policies: AbacPolicy[] = [];
  const lines = text.split('\n');
  // A trailing newline ends the last line; it does not start another.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, i) => {
    // Upstream reads lines with a bufio.Scanner, which gives up on a line longer than 64 KiB.
    if (Buffer.byteLength(raw) > MAX_LINE_BYTES) throw new PolicyFileError(`error reading policy file ${path}: bufio.Scanner: token too long`);
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    try {
      policies.push(decodePolicy(line, groups));
    } catch (e) {
      throw new PolicyFileError(`error reading policy file ${path}, line ${i + 1}: ${line}: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  return policies;
}

/** bufio.MaxScanTokenSize. */
const MAX_LINE_BYTES = 64 * 1024;

type Json = Record<string, unknown>;

/** One line: a versioned Policy, or an unversioned (v0) one converted as upstream converts it. */
function decodePolicy(line: string, groups: readonly string[]): AbacPolicy {
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch (e) {
    throw new Error(`couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new Error(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(doc)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const obj = doc as Json;
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  // Upstream decodes what lacks a version or kind as the legacy unversioned policy.
  if (apiVersion === '' || kind === '') return fromV0(fields(obj, 'Policy', V0_FIELDS));
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  if (!groups.includes(group) || (version !== 'v1beta1' && version !== 'v0') || kind !== 'Policy') {
    throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`);
  }
  if (version === 'v0') return fromV0(fields(obj, 'Policy', V0_FIELDS));
  const spec = obj.spec === undefined || obj.spec === null ? {} : obj.spec;
  if (typeof spec !== 'object' || Array.isArray(spec))
    throw new Error(`json: cannot unmarshal ${jsonType(spec)} into Go struct field Policy.spec of type abac.PolicySpec`);
  return fields(spec as Json, 'Policy.spec', SPEC_FIELDS);
}

const SPEC_FIELDS = ['user', 'group', 'readonly', 'apiGroup', 'resource', 'namespace', 'nonResourcePath'] as const;
const V0_FIELDS = ['user', 'group', 'readonly', 'resource', 'namespace'] as const;

/** The typed fields of a spec, with Go's decoding errors for values of the wrong JSON type. */
function fields(obj: Json, where: string, names: readonly string[]): AbacPolicy {
  const out: AbacPolicy = { user: '', group: '', readonly: false, apiGroup: '', resource: '', namespace: '', nonResourcePath: '' };
  for (const name of names) {
    const v = Object.hasOwn(obj, name) ? obj[name] : undefined;
    if (v === undefined || v === null) continue;
    if (name === 'readonly') {
      if (typeof v !== 'boolean') throw new Error(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${where}.readonly of type bool`);
      out.readonly = v;
    } else {
      if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${where}.${name} of type string`);
      (out as unknown as Record<string, string>)[name] = v;
    }
  }
  return out;
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Upstream's v0 → v1beta1 conversion. */
function fromV0(v0: AbacPolicy): AbacPolicy {
  const out: AbacPolicy = { ...v0, apiGroup: ALL, nonResourcePath: '' };
  // In v0 a rule without user and group, or with `*` for either, is for every authenticated user.
  if (v0.user === '' && v0.group === '') out.group = ALL_AUTHENTICATED;
  if (v0.user === ALL || v0.group === ALL) {
    out.group = ALL_AUTHENTICATED;
    out.user = '';
  }
  if (v0.namespace === '') out.namespace = ALL;
  if (v0.resource === '') out.resource = ALL;
  // Leaving namespace and resource blank also allowed non-resource paths.
  if (v0.namespace === '' && v0.resource === '') out.nonResourcePath = ALL;
  return out;
}

/** Upstream's subjectMatches: a policy naming neither user nor group matches nobody. */
function subjectMatches(p: AbacPolicy, user: UserInfo): boolean {
  let matched = false;
  if (p.user !== '') {
    if (p.user !== ALL && p.user !== user.name) return false;
    matched = true;
  }
  if (p.group !== '') {
    if (p.group !== ALL && !user.groups.includes(p.group)) return false;
    matched = true;
  }
  return matched;
}

const isReadOnly = (verb: string): boolean => verb === 'get' || verb === 'list' || verb === 'watch';

function matches(p: AbacPolicy, a: Attributes): boolean {
  if (!subjectMatches(p, a.user)) return false;
  if (!isReadOnly(a.verb) && p.readonly) return false;
  if (a.isResourceRequest) {
    return (
      (p.namespace === ALL || p.namespace === a.namespace) &&
      (p.resource === ALL || p.resource === a.resource) &&
      (p.apiGroup === ALL || p.apiGroup === a.apiGroup)
    );
  }
  const path = p.nonResourcePath;
  if (path === ALL || path === a.path) return true;
  return path.endsWith('*') && a.path.startsWith(path.replace(/\*+$/, ''));
}

const verbsOf = (readonly: boolean): string[] => (readonly ? ['get', 'list', 'watch'] : [ALL]);

/** The mode over parsed policies. */
export function abacAuthorizer(policies: readonly AbacPolicy[]): Authorizer {
  return {
    authorize(attrs) {
      for (const p of policies) if (matches(p, attrs)) return ALLOW;
      return NO_POLICY_MATCHED;
    },
    rulesFor(user, namespace) {
      const resourceRules: ResourceRule[] = [];
      const nonResourceRules: NonResourceRule[] = [];
      for (const p of policies) {
        if (!subjectMatches(p, user) || (p.namespace !== ALL && p.namespace !== namespace)) continue;
        if (p.resource !== '') resourceRules.push({ verbs: verbsOf(p.readonly), apiGroups: [p.apiGroup], resources: [p.resource] });
        if (p.nonResourcePath !== '') nonResourceRules.push({ verbs: verbsOf(p.readonly), nonResourceURLs: [p.nonResourcePath] });
      }
      return { resourceRules, nonResourceRules, incomplete: false };
    },
  };
}
