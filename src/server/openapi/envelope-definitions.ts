/**
 * Definitions the published documents refer to that describe no stored type: the PATCH body,
 * the watch event, and the discovery and version documents (upstream's meta/v1 and version
 * types, with their texts). They complete the type schemas only where those lack the name, so a
 * definition generated into api/schema always wins.
 */
import type { Definitions, GroupVersionKind, Schema } from '../../api/schema/index.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const ref = (name: string, description?: string): Schema => (description ? { $ref: `#/definitions/${name}`, description } : { $ref: `#/definitions/${name}` });
const text = (description: string): Schema => ({ type: 'string', description });
const strings = (description: string): Schema => ({ type: 'array', items: { type: 'string' }, description });

const API_VERSION = text(
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
);
const KIND = text(
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
);
const SERVER_ADDRESSES: Schema = {
  type: 'array',
  items: ref(`${META}.ServerAddressByClientCIDR`),
  description:
    'a map of client CIDR to server address that is serving this group. This is to help clients reach servers in the most network-efficient way possible. Clients can use the appropriate server address as per the CIDR that they match. In case of multiple matches, clients should use the longest matching CIDR. The server returns only those CIDRs that it thinks that the client can match. For example: the master will return an internal IP CIDR only, if the client reaches the server using an internal IP. Server looks at X-Forwarded-For header or X-Real-Ip header or request.RemoteAddr (in that order) to get the client IP.',
};
const core = (kind: string): GroupVersionKind[] => [{ group: '', version: 'v1', kind }];

const ENVELOPES: Record<string, Schema> = {
  [`${META}.Patch`]: { type: 'object', description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.' },
  [`${META}.WatchEvent`]: {
    type: 'object',
    description: 'Event represents a single event to a watched resource.',
    properties: {
      type: { type: 'string' },
      object: ref(
        'io.k8s.apimachinery.pkg.runtime.RawExtension',
        'Object is:\n * If Type is Added or Modified: the new state of the object.\n * If Type is Deleted: the state of the object immediately before deletion.\n * If Type is Error: *Status is recommended; other types may make sense\n   depending on context.',
      ),
    },
    required: ['type', 'object'],
  },
  [`${META}.ServerAddressByClientCIDR`]: {
    type: 'object',
    description:
      'ServerAddressByClientCIDR helps the client to determine the server address that they should use, depending on the clientCIDR that they match.',
    properties: {
      clientCIDR: text('The CIDR with which clients can match their IP to figure out the server address that they should use.'),
      serverAddress: text('Address of this server, suitable for a client that matches the above CIDR. This can be a hostname, hostname:port, IP or IP:port.'),
    },
    required: ['clientCIDR', 'serverAddress'],
  },
  [`${META}.GroupVersionForDiscovery`]: {
    type: 'object',
    description: 'GroupVersion contains the "group/version" and "version" string of a version. It is made a struct to keep extensibility.',
    properties: {
      groupVersion: text('groupVersion specifies the API group and version in the form "group/version"'),
      version: text('version specifies the version in the form of "version". This is to save the clients the trouble of splitting the GroupVersion.'),
    },
    required: ['groupVersion', 'version'],
  },
  [`${META}.APIVersions`]: {
    type: 'object',
    description:
      'APIVersions lists the versions that are available, to allow clients to discover the API at /api, which is the root path of the legacy v1 API.',
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      serverAddressByClientCIDRs: SERVER_ADDRESSES,
      versions: strings('versions are the api versions that are available.'),
    },
    required: ['versions', 'serverAddressByClientCIDRs'],
    'x-kubernetes-group-version-kind': core('APIVersions'),
  },
  [`${META}.APIGroup`]: {
    type: 'object',
    description: 'APIGroup contains the name, the supported versions, and the preferred version of a group.',
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      name: text('name is the name of the group.'),
      preferredVersion: ref(
        `${META}.GroupVersionForDiscovery`,
        'preferredVersion is the version preferred by the API server, which probably is the storage version.',
      ),
      serverAddressByClientCIDRs: SERVER_ADDRESSES,
      versions: { type: 'array', items: ref(`${META}.GroupVersionForDiscovery`), description: 'versions are the versions supported in this group.' },
    },
    required: ['name', 'versions'],
    'x-kubernetes-group-version-kind': core('APIGroup'),
  },
  [`${META}.APIGroupList`]: {
    type: 'object',
    description: 'APIGroupList is a list of APIGroup, to allow clients to discover the API at /apis.',
    properties: {
      apiVersion: API_VERSION,
      groups: { type: 'array', items: ref(`${META}.APIGroup`), description: 'groups is a list of APIGroup.' },
      kind: KIND,
    },
    required: ['groups'],
    'x-kubernetes-group-version-kind': core('APIGroupList'),
  },
  [`${META}.APIResource`]: {
    type: 'object',
    description: 'APIResource specifies the name of a resource and whether it is namespaced.',
    properties: {
      categories: strings("categories is a list of the grouped resources this resource belongs to (e.g. 'all')"),
      group: text(
        'group is the preferred group of the resource.  Empty implies the group of the containing resource list. For subresources, this may have a different value, for example: Scale".',
      ),
      kind: text("kind is the kind for the resource (e.g. 'Foo' is the kind for a resource 'foo')"),
      name: text('name is the plural name of the resource.'),
      namespaced: { type: 'boolean', description: 'namespaced indicates if a resource is namespaced or not.' },
      shortNames: strings('shortNames is a list of suggested short names of the resource.'),
      singularName: text(
        'singularName is the singular name of the resource.  This allows clients to handle plural and singular opaquely. The singularName is more correct for reporting status on a single item and both singular and plural are allowed from the kubectl CLI interface.',
      ),
      storageVersionHash: text(
        'The hash value of the storage version, the version this resource is converted to when written to the data store. Value must be treated as opaque by clients. Only equality comparison on the value is valid. This is an alpha feature and may change or be removed in the future. The field is populated by the apiserver only if the StorageVersionHash feature gate is enabled. This field will remain optional even if it graduates.',
      ),
      verbs: strings('verbs is a list of supported kube verbs (this includes get, list, watch, create, update, patch, delete, deletecollection, and proxy)'),
      version: text(
        'version is the preferred version of the resource.  Empty implies the version of the containing resource list For subresources, this may have a different value, for example: v1 (while inside a v1beta1 version of the core resource\'s group)".',
      ),
    },
    required: ['name', 'singularName', 'namespaced', 'kind', 'verbs'],
  },
  [`${META}.APIResourceList`]: {
    type: 'object',
    description:
      'APIResourceList is a list of APIResource, it is used to expose the name of the resources supported in a specific group and version, and if the resource is namespaced.',
    properties: {
      apiVersion: API_VERSION,
      groupVersion: text('groupVersion is the group and version this APIResourceList is for.'),
      kind: KIND,
      resources: { type: 'array', items: ref(`${META}.APIResource`), description: 'resources contains the name of the resources and if they are namespaced.' },
    },
    required: ['groupVersion', 'resources'],
    'x-kubernetes-group-version-kind': core('APIResourceList'),
  },
  'io.k8s.apimachinery.pkg.version.Info': {
    type: 'object',
    description: "Info contains versioning information. how we'll want to distribute that information.",
    properties: Object.fromEntries(
      ['buildDate', 'compiler', 'gitCommit', 'gitTreeState', 'gitVersion', 'goVersion', 'major', 'minor', 'platform'].map((k) => [k, { type: 'string' }]),
    ),
    required: ['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform'],
  },
};

/**
 * The type schemas completed with the envelope definitions they lack. The watch event is
 * registered in every served group-version (upstream group names), as upstream registers it.
 */
export function withEnvelopes(definitions: Definitions, groupVersions: readonly { group: string; version: string }[]): Definitions {
  const out: Record<string, Schema> = { ...definitions };
  for (const [name, schema] of Object.entries(ENVELOPES)) {
    if (out[name] !== undefined) continue;
    out[name] =
      name === `${META}.WatchEvent` ? { ...schema, 'x-kubernetes-group-version-kind': groupVersions.map((gv) => ({ ...gv, kind: 'WatchEvent' })) } : schema;
  }
  return out;
}
