/**
 * Groups routes into path items as upstream's OpenAPI builder does: the non-body parameters
 * every route of a path shares move up to the path item, and parameters are sorted by name
 * and location.
 */
import type { Parameter } from './parameters.js';
import type { Route } from './routes.js';

export interface PathItemRoutes {
  path: string;
  /** Parameters shared by every operation of the path. */
  parameters: Parameter[];
  /** Each route with the parameters left to its operation. */
  operations: { route: Route; parameters: Parameter[] }[];
}

const key = (p: Parameter) => `${p.in}\u0000${p.name}`;

/** Upstream's sortParameters: by name, then location. */
export function sortParameters(params: Parameter[]): Parameter[] {
  return params.sort((a, b) => (a.name !== b.name ? (a.name < b.name ? -1 : 1) : a.in < b.in ? -1 : a.in > b.in ? 1 : 0));
}

/** Path items of routes, in path order. */
export function pathItems(routes: readonly Route[]): PathItemRoutes[] {
  const byPath = new Map<string, Route[]>();
  for (const r of routes) {
    const list = byPath.get(r.path);
    if (list) list.push(r);
    else byPath.set(r.path, [r]);
  }
  const out: PathItemRoutes[] = [];
  for (const path of [...byPath.keys()].sort()) {
    const group = byPath.get(path) as Route[];
    const counts = new Map<string, number>();
    const last = new Map<string, Parameter>();
    for (const r of group) {
      for (const p of r.parameters) {
        counts.set(key(p), (counts.get(key(p)) ?? 0) + 1);
        last.set(key(p), p);
      }
    }
    const common = new Set([...counts].filter(([k, n]) => n === group.length && last.get(k)?.in !== 'body').map(([k]) => k));
    out.push({
      path,
      parameters: sortParameters([...common].map((k) => last.get(k) as Parameter)),
      operations: group.map((route) => ({ route, parameters: sortParameters(route.parameters.filter((p) => !common.has(key(p)))) })),
    });
  }
  return out;
}
