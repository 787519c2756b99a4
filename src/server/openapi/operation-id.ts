/**
 * Operation ids and tags as upstream's GetOperationIDAndTags makes them: the route's operation
 * name (`listNamespacedPod`) gets its group and version spliced in after the verb
 * (`listCoreV1NamespacedPod`), and the route is tagged `<group>_<version>` (`core_v1`).
 */

/** The verbs an operation name may start with; the shortest match wins, as upstream's trie. */
const VERBS = ['get', 'log', 'read', 'replace', 'patch', 'delete', 'deletecollection', 'watch', 'connect', 'proxy', 'list', 'create'];

/**
 * Upstream's ToValidOperationID: drops every character that is not a letter, underscore or (not
 * first) digit, capitalizing the character after each dropped one (and the first, if asked).
 */
export function toValidOperationId(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  let i = 0;
  for (const c of s) {
    const letter = c.toLowerCase() !== c.toUpperCase();
    if (letter || c === '_' || (i !== 0 && c >= '0' && c <= '9')) {
      out += capitalize ? c.toUpperCase() : c;
      capitalize = false;
    } else {
      capitalize = true;
    }
    i++;
  }
  return out;
}

/**
 * The operation id and tag of a route. `/api/...` counts as group `core`; a group's brand
 * domain is dropped (upstream drops `.k8s.io`), so ids read the same under either brand.
 */
export function operationIdAndTag(operation: string, path: string, brandDomain: string): { operationId: string; tag: string } {
  let prefix = VERBS.filter((v) => operation.startsWith(v)).sort((a, b) => a.length - b.length)[0];
  if (prefix === undefined) throw new Error(`operation names should start with a verb: ${operation}`);
  const rest = operation.slice(prefix.length);
  let parts = path
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .filter((p) => p !== '');
  if (parts[0] === 'api') parts = ['apis', 'core', ...parts.slice(1)];
  let tag: string;
  if (parts.length >= 2 && parts[0] === 'apis') {
    const group = parts[1].endsWith(`.${brandDomain}`) ? parts[1].slice(0, -(brandDomain.length + 1)) : parts[1];
    prefix += toValidOperationId(group, true);
    tag = toValidOperationId(group, false);
    if (parts.length > 2) {
      prefix += toValidOperationId(parts[2], true);
      tag += `_${toValidOperationId(parts[2], false)}`;
    }
  } else {
    tag = toValidOperationId(parts[0] ?? '', false);
  }
  return { operationId: prefix + toValidOperationId(rest, true), tag };
}
