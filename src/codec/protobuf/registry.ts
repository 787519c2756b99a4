/**
 * Which Protobuf message serializes which apiVersion/kind. Adding a type is: add its message to
 * a .proto under ./proto/ and one line to REGISTRY.
 *
 * Lookup is by group *stem* + version + kind, so a branded group matches under either brand
 * (`events.orch.io/v1` and `events.k8s.io/v1` are both stem `events`); the core group is ''.
 * Kind-only lines ('*') serve the meta types every group version carries (Status, DeleteOptions).
 */
import type protobuf from 'protobufjs';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import { UnsupportedProtobufType } from './errors.js';
import { kubernetesProtoRoot } from './proto-root.js';

const CORE = 'k8s.io.api.core.v1';
const EVENTS = 'k8s.io.api.events.v1';
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** [group stem ('' = core, '*' = any), version ('*' = any), kind, fully qualified message]. */
const REGISTRY: ReadonlyArray<readonly [string, string, string, string]> = [
  ['', 'v1', 'ConfigMap', `${CORE}.ConfigMap`],
  ['', 'v1', 'ConfigMapList', `${CORE}.ConfigMapList`],
  ['', 'v1', 'Event', `${CORE}.Event`],
  ['', 'v1', 'EventList', `${CORE}.EventList`],
  ['', 'v1', 'Namespace', `${CORE}.Namespace`],
  ['', 'v1', 'NamespaceList', `${CORE}.NamespaceList`],
  ['', 'v1', 'Secret', `${CORE}.Secret`],
  ['', 'v1', 'SecretList', `${CORE}.SecretList`],
  ['', 'v1', 'ServiceAccount', `${CORE}.ServiceAccount`],
  ['', 'v1', 'ServiceAccountList', `${CORE}.ServiceAccountList`],
  ['events', 'v1', 'Event', `${EVENTS}.Event`],
  ['events', 'v1', 'EventList', `${EVENTS}.EventList`],
  ['*', '*', 'Status', `${META}.Status`],
  ['*', '*', 'DeleteOptions', `${META}.DeleteOptions`],
];

const BRAND_SUFFIXES = [`.${KUBERNETES_BRAND.domain}`, `.${ORCH_BRAND.domain}`];

/** The group without its brand domain: `events.k8s.io` -> `events`, `apps` -> `apps`, '' -> ''. */
export function groupStem(group: string): string {
  for (const suffix of BRAND_SUFFIXES) {
    if (group.endsWith(suffix)) return group.slice(0, -suffix.length);
  }
  return group;
}

/** Splits `group/version` (or core `v1`) into its parts; never throws. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

const byKey = new Map<string, string>(REGISTRY.map(([stem, version, kind, message]) => [`${stem}/${version}/${kind}`, message]));
const typeCache = new Map<string, protobuf.Type>();

function messageNameFor(apiVersion: string, kind: string): string | undefined {
  const { group, version } = parseApiVersion(apiVersion);
  return byKey.get(`${groupStem(group)}/${version}/${kind}`) ?? byKey.get(`*/*/${kind}`);
}

/** True when apiVersion/kind has a Protobuf message; never throws and loads no files. */
export function isProtobufSupported(apiVersion: string, kind: string): boolean {
  return messageNameFor(apiVersion, kind) !== undefined;
}

/** The message type for apiVersion/kind; throws UnsupportedProtobufType when there is none. */
export function protobufTypeFor(apiVersion: string, kind: string): protobuf.Type {
  const name = messageNameFor(apiVersion, kind);
  if (name === undefined) throw new UnsupportedProtobufType(apiVersion, kind);
  // Keyed by message name, not by the client's apiVersion, so the cache stays bounded.
  let type = typeCache.get(name);
  if (type === undefined) {
    type = kubernetesProtoRoot().lookupType(name);
    typeCache.set(name, type);
  }
  return type;
}

/** Every registered line, for tests and discovery; read-only. */
export function registeredProtobufTypes(): ReadonlyArray<readonly [string, string, string, string]> {
  return REGISTRY;
}
