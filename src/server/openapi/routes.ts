/**
 * The routes the server serves, described as upstream's API installer registers them (one per
 * verb and path shape, including the deprecated `/watch/` paths), plus the discovery and
 * version routes. Both OpenAPI documents are renderings of this one table.
 */
import type { Brand } from '../../machinery/brand.js';
import type { GroupVersionKind } from '../../api/schema/index.js';
import type { Verb } from '../../api/types.js';
import type { ResourceInfo } from '../../registry/resource-info.js';
import type { GroupVersions } from '../../registry/registry.js';
import { operationIdAndTag } from './operation-id.js';
import {
  bodyParameter,
  CREATE_OPTIONS,
  DELETE_COLLECTION_LIST_OPTIONS,
  DELETE_OPTIONS,
  LIST_OPTIONS,
  NAMESPACE,
  nameParameter,
  PATCH_OPTIONS,
  PRETTY,
  type Parameter,
  UPDATE_OPTIONS,
} from './parameters.js';

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** Upstream's x-kubernetes-action values. */
export type Action = 'get' | 'list' | 'put' | 'patch' | 'post' | 'delete' | 'deletecollection' | 'watch' | 'watchlist';

export interface RouteResponse {
  code: string;
  description: string;
  /** The definition returned; absent when the definitions lack it. */
  definition?: string;
}

export interface Route {
  path: string;
  method: Method;
  operationId: string;
  tag: string;
  description: string;
  action?: Action;
  gvk?: GroupVersionKind;
  parameters: Parameter[];
  consumes: string[];
  produces: string[];
  responses: RouteResponse[];
  /** The OpenAPI v3 document the route belongs to: `api/v1`, `apis/apps/v1`, `apis/apps`, `api`, `apis`, `version`. */
  document: string;
}

/** The definitions a route table refers to, by name (undefined when the schemas lack one). */
export interface RouteDefinitions {
  /** The definition name of a kind in a resource's group-version (the caller maps the served group to upstream's). */
  kind(info: ResourceInfo, kind: string): string | undefined;
  /** A shared meta definition such as `io.k8s.apimachinery.pkg.apis.meta.v1.Status`. */
  meta(name: string): string | undefined;
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

/** Media types of a serializer: JSON, YAML and the brand's protobuf; `stream` adds the watch framings. */
function mediaTypes(brand: Brand, stream: boolean): string[] {
  const base = ['application/json', 'application/yaml', brand.protobufMediaType];
  return stream ? [...base, 'application/json;stream=watch', `${brand.protobufMediaType};stream=watch`] : base;
}

/** Upstream's getArticleForNoun: plurals (ending in s but not ss) get none, else a/an. */
function article(noun: string): string {
  if (!noun.endsWith('ss') && noun.endsWith('s')) return ' ';
  return /^[aeiou]/i.test(noun) ? ' an ' : ' a ';
}

const title = (s: string) => (s === '' ? '' : s[0].toUpperCase() + s.slice(1));

/** One action of the installer: verb, path (relative to the group-version prefix), params, namespacing. */
interface InstallAction {
  verb: 'GET' | 'LIST' | 'PUT' | 'PATCH' | 'POST' | 'DELETE' | 'DELETECOLLECTION' | 'WATCH' | 'WATCHLIST';
  path: string;
  params: Parameter[];
  allNamespaces: boolean;
}

/** The installer's actions for a resource (subresource '') or one of its subresources, in its order. */
function installActions(info: ResourceInfo, subresource: string, verbs: ReadonlySet<Verb>, nameKind: string): InstallAction[] {
  const top = subresource === '';
  const isGetter = verbs.has('get');
  const isUpdater = verbs.has('update');
  const isPatcher = verbs.has('patch');
  const isCreater = verbs.has('create');
  const isLister = top && verbs.has('list');
  const isWatcher = top && verbs.has('watch');
  const isDeleter = top && verbs.has('delete');
  const isCollectionDeleter = top && verbs.has('deletecollection');
  const nameParams = (p: Parameter[]) => [...p, nameParameter(nameKind)];
  const scopeParams = info.namespaced ? [NAMESPACE] : [];
  const resourceBase = info.namespaced ? `namespaces/{namespace}/${info.plural}` : info.plural;
  let itemPath = `${resourceBase}/{name}`;
  let resourcePath = resourceBase;
  let resourceParams = scopeParams;
  if (!top) {
    // A subresource's routes all hang off the object: its "collection" path is the item path.
    itemPath = `${itemPath}/${subresource}`;
    resourcePath = itemPath;
    resourceParams = nameParams(scopeParams);
  }
  const out: InstallAction[] = [];
  const add = (ok: boolean, verb: InstallAction['verb'], path: string, params: Parameter[], allNamespaces = false) => {
    if (ok) out.push({ verb, path, params, allNamespaces });
  };
  add(isLister, 'LIST', resourcePath, resourceParams);
  add(isCreater, 'POST', resourcePath, resourceParams);
  add(isCollectionDeleter, 'DELETECOLLECTION', resourcePath, resourceParams);
  add(isWatcher && isLister, 'WATCHLIST', `watch/${resourcePath}`, resourceParams);
  add(isGetter, 'GET', itemPath, nameParams(scopeParams));
  add(isUpdater, 'PUT', itemPath, nameParams(scopeParams));
  add(isPatcher, 'PATCH', itemPath, nameParams(scopeParams));
  add(isDeleter, 'DELETE', itemPath, nameParams(scopeParams));
  add(isWatcher, 'WATCH', `watch/${itemPath}`, nameParams(scopeParams));
  if (info.namespaced && top) {
    add(isLister, 'LIST', info.plural, [], true);
    add(isWatcher && isLister, 'WATCHLIST', `watch/${info.plural}`, [], true);
  }
  return out;
}

/** Routes of one resource (and its subresources) as upstream's installer registers them. */
export function resourceRoutes(info: ResourceInfo, brand: Brand, defs: RouteDefinitions): Route[] {
  const prefix = info.group === '' ? `/api/${info.version}` : `/apis/${info.group}/${info.version}`;
  const document = prefix.slice(1);
  const list = defs.kind(info, info.listKind);
  const status = defs.meta(`${META}.Status`);
  const watchEvent = defs.meta(`${META}.WatchEvent`);
  const patch = defs.meta(`${META}.Patch`);
  const deleteOptions = defs.meta(`${META}.DeleteOptions`);
  const plain = mediaTypes(brand, false);
  const streaming = mediaTypes(brand, true);
  const body = (definition: string | undefined, required: boolean): Parameter[] => (definition ? [bodyParameter(definition, required)] : []);
  const routes: Route[] = [];
  const declared = new Map(info.subresources.map((s) => [s.name, s]));
  for (const sub of ['', ...declared.keys()]) {
    // Operation ids and descriptions name the parent kind; the body, responses, the group-version-kind
    // and the name parameter name the kind the subresource serves.
    const objectKind = declared.get(sub)?.kind ?? info.kind;
    const object = defs.kind(info, objectKind);
    const gvk = { group: info.group, kind: objectKind, version: info.version };
    const verbs = sub === '' ? info.verbs : new Set(declared.get(sub)?.verbs);
    for (const action of installActions(info, sub, verbs, objectKind)) {
      const namespaced = info.namespaced && !action.allNamespaces ? 'Namespaced' : '';
      const suffix = action.allNamespaces ? 'ForAllNamespaces' : '';
      const name = (verb: string, list = '') => `${verb}${namespaced}${info.kind}${title(sub)}${list}${suffix}`;
      const ofSub = (whole: string, part: string) => (sub === '' ? whole : part);
      let r: Omit<Route, 'path' | 'operationId' | 'tag' | 'document' | 'gvk'> & { operation: string };
      const ok = (code: string, description: string, definition: string | undefined): RouteResponse => ({ code, description, definition });
      switch (action.verb) {
        case 'GET':
          r = {
            operation: name('read'),
            method: 'get',
            action: 'get',
            description: ofSub(`read the specified ${info.kind}`, `read ${sub} of the specified ${info.kind}`),
            parameters: [PRETTY, ...action.params],
            consumes: ['*/*'],
            produces: plain,
            responses: [ok('200', 'OK', object)],
          };
          break;
        case 'LIST':
          r = {
            operation: name('list'),
            method: 'get',
            action: 'list',
            description: info.verbs.has('watch') ? `list or watch objects of kind ${info.kind}` : `list objects of kind ${info.kind}`,
            parameters: [PRETTY, ...LIST_OPTIONS, ...action.params],
            consumes: ['*/*'],
            produces: streaming,
            responses: [ok('200', 'OK', list)],
          };
          break;
        case 'PUT':
          r = {
            operation: name('replace'),
            method: 'put',
            action: 'put',
            description: ofSub(`replace the specified ${info.kind}`, `replace ${sub} of the specified ${info.kind}`),
            parameters: [PRETTY, ...body(object, true), ...UPDATE_OPTIONS, ...action.params],
            consumes: ['*/*'],
            produces: plain,
            responses: [ok('200', 'OK', object), ok('201', 'Created', object)],
          };
          break;
        case 'PATCH':
          r = {
            operation: name('patch'),
            method: 'patch',
            action: 'patch',
            description: ofSub(`partially update the specified ${info.kind}`, `partially update ${sub} of the specified ${info.kind}`),
            parameters: [PRETTY, ...body(patch, true), ...PATCH_OPTIONS, ...action.params],
            consumes: PATCH_TYPES,
            produces: plain,
            responses: [ok('200', 'OK', object), ok('201', 'Created', object)],
          };
          break;
        case 'POST':
          r = {
            operation: name('create'),
            method: 'post',
            action: 'post',
            description: ofSub(`create${article(info.kind)}${info.kind}`, `create ${sub} of${article(info.kind)}${info.kind}`),
            parameters: [PRETTY, ...body(object, true), ...CREATE_OPTIONS, ...action.params],
            consumes: ['*/*'],
            produces: plain,
            responses: [ok('200', 'OK', object), ok('201', 'Created', object), ok('202', 'Accepted', object)],
          };
          break;
        case 'DELETE':
          r = {
            operation: name('delete'),
            method: 'delete',
            action: 'delete',
            description: ofSub(`delete${article(info.kind)}${info.kind}`, `delete ${sub} of${article(info.kind)}${info.kind}`),
            parameters: [PRETTY, ...body(deleteOptions, false), ...DELETE_OPTIONS, ...action.params],
            consumes: ['*/*'],
            produces: plain,
            responses: [ok('200', 'OK', status), ok('202', 'Accepted', status)],
          };
          break;
        case 'DELETECOLLECTION':
          r = {
            operation: name('deletecollection'),
            method: 'delete',
            action: 'deletecollection',
            description: `delete collection of ${info.kind}`,
            parameters: [PRETTY, ...body(deleteOptions, false), ...DELETE_OPTIONS, ...DELETE_COLLECTION_LIST_OPTIONS, ...action.params],
            consumes: ['*/*'],
            produces: plain,
            responses: [ok('200', 'OK', status)],
          };
          break;
        case 'WATCH':
          r = {
            operation: name('watch'),
            method: 'get',
            action: 'watch',
            description: `watch changes to an object of kind ${info.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
            parameters: [PRETTY, ...LIST_OPTIONS, ...action.params],
            consumes: ['*/*'],
            produces: streaming,
            responses: [ok('200', 'OK', watchEvent)],
          };
          break;
        case 'WATCHLIST':
          r = {
            operation: name('watch', 'List'),
            method: 'get',
            action: 'watchlist',
            description: `watch individual changes to a list of ${info.kind}. deprecated: use the 'watch' parameter with a list operation instead.`,
            parameters: [PRETTY, ...LIST_OPTIONS, ...action.params],
            consumes: ['*/*'],
            produces: streaming,
            responses: [ok('200', 'OK', watchEvent)],
          };
          break;
      }
      const path = `${prefix}/${action.path}`;
      const { operation, ...rest } = r;
      routes.push({ ...rest, path, gvk, document, ...operationIdAndTag(operation, path, brand.domain) });
    }
  }
  return routes;
}

/** `/api/`, `/api/v1/`, `/apis/`, `/apis/<group>/`, `/apis/<group>/<version>/` and `/version/`. */
export function discoveryRoutes(groups: readonly GroupVersions[], brand: Brand, defs: RouteDefinitions): Route[] {
  const plain = mediaTypes(brand, false);
  const route = (path: string, operation: string, description: string, definition: string | undefined, document: string, types = plain): Route => ({
    path,
    method: 'get',
    description,
    parameters: [],
    consumes: types,
    produces: types,
    responses: [{ code: '200', description: 'OK', definition }],
    document,
    ...operationIdAndTag(operation, path, brand.domain),
  });
  const routes: Route[] = [];
  for (const g of groups) {
    if (g.group === '') {
      routes.push(route('/api/', 'getAPIVersions', 'get available API versions', defs.meta(`${META}.APIVersions`), 'api'));
    } else {
      routes.push(route(`/apis/${g.group}/`, 'getAPIGroup', 'get information of a group', defs.meta(`${META}.APIGroup`), `apis/${g.group}`));
    }
    for (const v of g.versions) {
      const path = g.group === '' ? `/api/${v}/` : `/apis/${g.group}/${v}/`;
      routes.push(route(path, 'getAPIResources', 'get available resources', defs.meta(`${META}.APIResourceList`), path.slice(1, -1)));
    }
  }
  routes.push(route('/apis/', 'getAPIVersions', 'get available API versions', defs.meta(`${META}.APIGroupList`), 'apis'));
  routes.push(route('/version/', 'getCodeVersion', 'get the code version', defs.meta('io.k8s.apimachinery.pkg.version.Info'), 'version', ['application/json']));
  return routes;
}
