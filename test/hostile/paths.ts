/**
 * Bad paths: percent-encoding (valid, invalid, encoded slashes and NULs), `..` segments, doubled
 * slashes, very long names, names and namespaces that disagree with the body, methods a path
 * does not serve, subresources that do not exist, odd query strings. Only 4xx (or, where the
 * path still names a real object, its ordinary answer); the lane's objects change only through
 * a write that was accepted.
 */
import { configMap, JSON_TYPE, MERGE_TYPE } from './bodies.js';
import type { Family, HostileCase, LaneContext } from './hostile-case.js';
import type { Rng } from './prng.js';
import { freshName } from './writes.js';

/** Object paths that may or may not resolve to the lane's ConfigMap, never to another lane's. */
function oddObjectPaths(ctx: LaneContext): string[] {
  const ns = ctx.ns;
  return [
    `/api/v1/namespaces/${ns}/configmaps/%63m`,
    `/api/v1/namespaces/${ns}/configmaps/c%6D`,
    `/api/v1/namespaces/${ns}/configmaps/cm%2F`,
    `/api/v1/namespaces/${ns}/configmaps/cm%00`,
    `/api/v1/namespaces/${ns}/configmaps/%ZZ`,
    `/api/v1/namespaces/${ns}/configmaps/%E0%A4%A`,
    `/api/v1/namespaces/${ns}/configmaps/%`,
    `/api/v1/namespaces/${ns}/configmaps/../configmaps/cm`,
    `/api/v1/namespaces/${ns}/configmaps/%2e%2e/configmaps/cm`,
    `/api/v1/namespaces/${ns}/configmaps/./cm`,
    `/api/v1/namespaces/${ns}/configmaps/cm/..`,
    `/api/v1/namespaces/${ns}/configmaps/%2E%2E`,
    `/api/v1/namespaces/x/../${ns}/configmaps/cm`,
    `//api//v1//namespaces//${ns}//configmaps//cm`,
    `/api/v1/namespaces/${ns}/configmaps/cm/`,
    `/api/v1/namespaces/${ns}/configmaps/cm/status`,
    `/api/v1/namespaces/${ns}/configmaps/cm/bogus/extra`,
    `/api/v1/namespaces/${ns}/configmaps/${'c'.repeat(254)}`,
    `/api/v1/namespaces/${ns}/configmaps/${'c'.repeat(8000)}`,
    `/api/v1/namespaces/${ns}/configmaps/${'%41'.repeat(3000)}`,
    `/api/v1/namespaces/${'n'.repeat(300)}/configmaps/cm`,
    `/api/v1/namespaces/${ns.toUpperCase()}/configmaps/cm`,
    `/api/v1/namespaces/${ns}/CONFIGMAPS/cm`,
    `/api/v9/namespaces/${ns}/configmaps/cm`,
    `/apis/bogus.example.com/v1/namespaces/${ns}/things/cm`,
    `/apis/apps/v1/namespaces/${ns}/configmaps/cm`,
    `/api/v1/namespaces/${ns}/configmaps/cm?${'&'.repeat(100)}=x&%ZZ=1&=&a=%`,
    `/api/v1/namespaces/${ns}/configmaps/cm?${Array.from({ length: 2000 }, (_, i) => `p${i}=1`).join('&')}`,
    `/api/v1/namespaces/${ns}/configmaps/cm#frag`,
  ];
}

export const paths: Family = {
  name: 'paths',
  owner: 'request info and routing',
  weight: 8,
  generate(rng: Rng, ctx: LaneContext): HostileCase {
    const family = 'paths';
    const kind = rng.pick(['read', 'read', 'write', 'delete', 'method', 'name-mismatch', 'bad-name'] as const);
    const path = rng.pick(oddObjectPaths(ctx));
    switch (kind) {
      case 'read':
        return { family, variant: `GET ${path.slice(0, 80)}`, method: rng.pick(['GET', 'HEAD']), path, expect: 'any' };
      case 'write':
        return {
          family,
          variant: `PATCH ${path.slice(0, 80)}`,
          method: 'PATCH',
          path,
          headers: { 'content-type': MERGE_TYPE },
          body: '{"data":{"viaOddPath":"1"}}',
          expect: 'any',
          target: ctx.cm,
        };
      case 'delete':
        return { family, variant: `DELETE ${path.slice(0, 80)}`, method: 'DELETE', path, expect: 'any', target: ctx.cm };
      case 'method': {
        const [method, p] = rng.pick<[string, string]>([
          ['POST', ctx.cm],
          ['PUT', ctx.cms],
          ['PATCH', ctx.cms],
          ['POST', `${ctx.pod}/status`],
          ['GET', `${ctx.pod}/binding`],
          ['DELETE', `${ctx.pod}/binding`],
          ['GET', `${ctx.nsObj}/finalize`],
          ['OPTIONS', ctx.cm],
          ['PROPFIND', ctx.cm],
          ['POST', '/api/v1'],
          ['DELETE', '/api'],
        ]);
        const body = method === 'GET' || method === 'OPTIONS' ? undefined : JSON.stringify(configMap('cm', ctx.ns));
        return {
          family,
          variant: `${method} ${p.replace(ctx.ns, 'NS')}`,
          method,
          path: p,
          headers: body ? { 'content-type': JSON_TYPE } : {},
          body,
          expect: method === 'OPTIONS' ? 'any' : 'refuse',
          target: ctx.cm,
        };
      }
      case 'name-mismatch': {
        // The name or namespace in the body disagrees with the URL: 400 BadRequest upstream.
        const which = rng.pick(['name', 'namespace'] as const);
        const obj = configMap(which === 'name' ? 'other' : 'cm', which === 'namespace' ? 'default' : ctx.ns);
        return rng.chance(0.5)
          ? {
              family,
              variant: `PUT with a different ${which} in the body`,
              method: 'PUT',
              path: ctx.cm,
              headers: { 'content-type': JSON_TYPE },
              body: JSON.stringify(obj),
              expect: 'refuse',
              target: ctx.cm,
            }
          : which === 'namespace'
            ? {
                family,
                variant: 'create with a different namespace in the body',
                method: 'POST',
                path: ctx.cms,
                headers: { 'content-type': JSON_TYPE },
                body: JSON.stringify(obj),
                expect: 'refuse',
                creates: '/api/v1/namespaces/default/configmaps/cm',
              }
            : {
                family,
                variant: 'PUT create with a different name',
                method: 'PUT',
                path: `${ctx.cms}/${freshName(rng)}`,
                headers: { 'content-type': JSON_TYPE },
                body: JSON.stringify(obj),
                expect: 'refuse',
              };
      }
      case 'bad-name': {
        const name = rng.pick(['', '.', '..', 'UPPER', 'a_b', 'a/b', 'a%2Fb', '-a', 'a-', 'c'.repeat(254), 'constructor', '__proto__', '名前', 'a..b', ' a']);
        const valid = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name) && name.length <= 253 && !name.includes('..');
        const obj = configMap(name, ctx.ns);
        return {
          family,
          variant: `create named ${JSON.stringify(name.slice(0, 20))}`,
          method: 'POST',
          path: ctx.cms,
          headers: { 'content-type': JSON_TYPE },
          body: JSON.stringify(obj),
          expect: valid ? 'any' : 'refuse',
          ...(valid ? { creates: `${ctx.cms}/${name}` } : {}),
        };
      }
    }
  },
};
