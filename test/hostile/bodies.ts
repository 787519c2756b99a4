/**
 * The lane fixtures and the content types every family writes in. Hostile values are raw JSON
 * text fragments (a 200,000-deep array cannot be built as a JS object and stringified), so
 * bodies are assembled as text around them.
 */
import { stringify as yamlStringify } from 'yaml';
import { encodeProtobufObject } from '../../src/codec/protobuf/index.js';
import type { LaneContext } from './hostile-case.js';

export const JSON_TYPE = 'application/json';
export const YAML_TYPE = 'application/yaml';
export const PROTOBUF_TYPE = 'application/vnd.orch.protobuf';
export const MERGE_TYPE = 'application/merge-patch+json';
export const JSON_PATCH_TYPE = 'application/json-patch+json';
export const SMP_TYPE = 'application/strategic-merge-patch+json';
export const APPLY_TYPE = 'application/apply-patch+yaml';

export type Obj = Record<string, unknown>;

export function configMap(name: string, ns: string): Obj {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels: { app: 'hostile' } }, data: { a: '1', b: 'two' } };
}

export function pod(name: string, ns: string): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app: 'hostile' } },
    spec: { containers: [{ name: 'c', image: 'busybox', env: [{ name: 'A', value: '1' }] }] },
  };
}

export function deployment(name: string, ns: string): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels: { app: 'hostile' } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'hostile' } },
      template: { metadata: { labels: { app: 'hostile' } }, spec: { containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 80 }] }] } },
    },
  };
}

export function namespace(name: string): Obj {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { app: 'hostile' } } };
}

/** The fixture body stored at a lane path (recreated by the runner before a case needs it). */
export function fixtureFor(ctx: LaneContext, path: string): Obj | undefined {
  if (path === ctx.cm) return configMap('cm', ctx.ns);
  if (path === ctx.pod) return pod('pod', ctx.ns);
  if (path === ctx.deploy) return deployment('deploy', ctx.ns);
  if (path === ctx.nsObj) return namespace(ctx.nsObjName);
  return undefined;
}

/** An object in one of the three object encodings. */
export function encode(obj: Obj, type: string): string | Buffer {
  if (type === YAML_TYPE || type === APPLY_TYPE) return yamlStringify(obj);
  if (type === PROTOBUF_TYPE) return Buffer.from(encodeProtobufObject(obj));
  return JSON.stringify(obj);
}

/**
 * An object's JSON text with `fragment` (raw JSON) spliced in as the value of `key` inside the
 * object found at `at` (a path of keys; [] is the top level). JSON text is also valid YAML.
 */
export function splice(obj: Obj, at: readonly string[], key: string, fragment: string): string {
  const marker = '"@@hostile-fragment@@"';
  const copy = structuredClone(obj);
  let cur: Obj = copy;
  for (const k of at) {
    if (typeof cur[k] !== 'object' || cur[k] === null) cur[k] = {};
    cur = cur[k] as Obj;
  }
  cur[key] = '@@hostile-fragment@@';
  const text = JSON.stringify(copy);
  const i = text.indexOf(marker);
  return text.slice(0, i) + fragment + text.slice(i + marker.length);
}

/** A JSON patch document adding `fragment` (raw JSON) at `path`. */
export function jsonPatchAdd(path: string, fragment: string): string {
  return `[{"op":"add","path":${JSON.stringify(path)},"value":${fragment}}]`;
}
