/**
 * The type schemas as the published documents carry them: upstream's definitions with their
 * group-version-kinds spelled by brand, and the closure of definitions a set of routes reaches.
 */
import type { Brand } from '../../machinery/brand.js';
import { refName, type Definitions, type Schema } from '../../api/schema/index.js';

const UPSTREAM_DOMAIN = 'k8s.io';

/**
 * The served name of an upstream group: upstream's `<stem>.k8s.io` is `<stem>.<brand domain>`
 * (the inverse of upstreamGroup); groups without the domain keep their name.
 */
export function servedGroup(upstream: string, brand: Brand): string {
  return upstream.endsWith(`.${UPSTREAM_DOMAIN}`) ? `${upstream.slice(0, -UPSTREAM_DOMAIN.length)}${brand.domain}` : upstream;
}

/** The definitions with every x-kubernetes-group-version-kind group spelled by brand; the input is not modified. */
export function brandedDefinitions(definitions: Definitions, brand: Brand): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const name of Object.keys(definitions).sort()) {
    const def = definitions[name];
    const gvks = def['x-kubernetes-group-version-kind'];
    out[name] = gvks ? { ...def, 'x-kubernetes-group-version-kind': gvks.map((g) => ({ ...g, group: servedGroup(g.group, brand) })) } : def;
  }
  return out;
}

/** Names of the definitions a schema refers to, directly. */
function refsOf(schema: Schema, into: Set<string>): void {
  if (schema.$ref !== undefined) into.add(refName(schema.$ref));
  if (schema.items) refsOf(schema.items, into);
  if (schema.additionalProperties) refsOf(schema.additionalProperties, into);
  for (const p of Object.values(schema.properties ?? {})) refsOf(p, into);
}

/** The given definitions and every definition they reach through $ref, in name order; unknown names are skipped. */
export function reachableDefinitions(definitions: Definitions, roots: Iterable<string>): string[] {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (seen.has(name) || definitions[name] === undefined) continue;
    seen.add(name);
    const next = new Set<string>();
    refsOf(definitions[name], next);
    pending.push(...next);
  }
  return [...seen].sort();
}
