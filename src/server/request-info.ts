/**
 * Parses a request path into the attributes authorization and routing need, following
 * upstream's RequestInfoFactory: `/api/v1/...` and `/apis/<group>/<version>/...`.
 */
import type { Verb } from '../api/types.js';
import { queryBool } from '../machinery/go-bool.js';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** Resource verb (get, list, watch, create, ...) or the lower-case HTTP method. */
  verb: Verb | string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  parts: string[];
}

/** Splits a path into its segments, ignoring empty ones. */
function splitPath(path: string): string[] {
  const out = path.split('/');
  // Cheaper than a regex trim on the hot path: drop the empty segments of leading, trailing or doubled slashes.
  return out.includes('') ? out.filter((s) => s !== '') : out;
}

/** A percent-decoded path segment; malformed escapes stay as they are (never throws). */
function decodeSegment(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Request info of a path and method; never throws, odd paths become non-resource requests. */
export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
  let parts = splitPath(path);
  if (parts.length < 1 || (parts[0] !== 'api' && parts[0] !== 'apis')) return info;
  info.apiPrefix = parts[0];
  parts = parts.slice(1);
  if (info.apiPrefix === 'apis') {
    if (parts.length < 1) return info;
    info.apiGroup = parts[0];
    parts = parts.slice(1);
  }
  if (parts.length < 1) return info;
  info.apiVersion = parts[0];
  parts = parts.slice(1);
  if (parts.length < 1) return info;
  info.isResourceRequest = true;

  switch (method) {
    case 'POST':
      info.verb = 'create';
      break;
    case 'GET':
    case 'HEAD':
      info.verb = 'get';
      break;
    case 'PUT':
      info.verb = 'update';
      break;
    case 'PATCH':
      info.verb = 'patch';
      break;
    case 'DELETE':
      info.verb = 'delete';
      break;
    default:
      info.verb = '';
  }

  // The deprecated `/watch/` prefix (upstream still serves it): a GET under it is a watch.
  const watchPrefix = parts[0] === 'watch';
  if (watchPrefix) {
    parts = parts.slice(1);
    if (info.verb === 'get') info.verb = 'watch';
  }
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      info.namespace = decodeSegment(parts[1]);
      // /namespaces/<name> and /namespaces/<name>/<subresource> address the namespace itself.
      if (parts.length > 2 && !(parts.length === 3 && (parts[2] === 'status' || parts[2] === 'finalize'))) {
        parts = parts.slice(2);
      }
    }
  }
  info.parts = parts.map(decodeSegment);
  if (info.parts.length >= 3) info.subresource = info.parts[2];
  if (info.parts.length >= 2) info.name = info.parts[1];
  if (info.parts.length >= 1) info.resource = info.parts[0];

  if (info.name === '' && info.verb === 'get') {
    info.verb = queryBool(query.getAll('watch')) ? 'watch' : 'list';
  }
  if (info.name === '' && info.verb === 'delete') info.verb = 'deletecollection';
  return info;
}
