/**
 * Manifest fixtures for end-to-end tests: rendered from test/fixtures with `{{name}}`
 * placeholders, parsed like kubectl does (multi-document YAML), and created through the REST
 * API when a test needs objects without going through kubectl.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { ControlPlane } from '../../src/cmd/control-plane.js';
import { request } from './cluster.js';

/** test/fixtures, from the compiled helper in dist/test/helpers. */
const FIXTURES = new URL('../../../test/fixtures/', import.meta.url).pathname;

/** The fixture's text with every `{{key}}` replaced by vars[key]; an unknown key throws. */
export async function renderFixture(relPath: string, vars: Record<string, string>): Promise<string> {
  const text = await readFile(join(FIXTURES, relPath), 'utf8');
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in vars)) throw new Error(`${relPath}: no value for {{${key}}}`);
    return vars[key];
  });
}

/** Renders a fixture into dir under the same file name and returns the written path. */
export async function writeFixture(relPath: string, vars: Record<string, string>, dir: string, name = relPath.replace(/\//g, '-')): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, await renderFixture(relPath, vars));
  return path;
}

/** The objects of a multi-document YAML text, in order (empty documents skipped). */
export function parseManifests(text: string): any[] {
  return parseAllDocuments(text)
    .map((d) => d.toJSON())
    .filter((o) => o !== null && o !== undefined);
}

/** Plural resource names of the kinds the fixtures use. */
const PLURALS: Record<string, string> = {
  ConfigMap: 'configmaps',
  CronJob: 'cronjobs',
  Deployment: 'deployments',
  Event: 'events',
  Job: 'jobs',
  Namespace: 'namespaces',
  Node: 'nodes',
  Pod: 'pods',
  PriorityClass: 'priorityclasses',
  Role: 'roles',
  RoleBinding: 'rolebindings',
  Secret: 'secrets',
  Service: 'services',
  ServiceAccount: 'serviceaccounts',
};
const CLUSTER_SCOPED: ReadonlySet<string> = new Set(['Namespace', 'Node', 'PriorityClass']);

/** The REST path of obj's collection, or of obj itself with `named`. */
export function objectPath(obj: { apiVersion: string; kind: string; metadata: { name?: string; namespace?: string } }, named = true): string {
  const plural = PLURALS[obj.kind];
  if (!plural) throw new Error(`no plural known for kind ${obj.kind}`);
  const root = obj.apiVersion.includes('/') ? `/apis/${obj.apiVersion}` : `/api/${obj.apiVersion}`;
  const ns = CLUSTER_SCOPED.has(obj.kind) ? '' : `/namespaces/${obj.metadata.namespace ?? 'default'}`;
  return `${root}${ns}/${plural}${named ? `/${obj.metadata.name}` : ''}`;
}

/** Creates obj through the API (JSON) and returns the stored object; any status but 201 throws. */
export async function createObject(cluster: ControlPlane, obj: any): Promise<any> {
  const r = await request(cluster, 'POST', objectPath(obj, false), { body: obj });
  assert.equal(r.status, 201, `create ${obj.kind} ${obj.metadata.name}: ${r.text}`);
  return r.json;
}

/** Reads obj back through the API; any status but 200 throws. */
export async function readObject(cluster: ControlPlane, obj: any): Promise<any> {
  const r = await request(cluster, 'GET', objectPath(obj));
  assert.equal(r.status, 200, `get ${obj.kind} ${obj.metadata.name}: ${r.text}`);
  return r.json;
}

/** Applies a JSON merge patch through the API and returns the result; any status but 200 throws. */
export async function mergePatch(cluster: ControlPlane, obj: any, patch: object): Promise<any> {
  const r = await request(cluster, 'PATCH', objectPath(obj), { body: patch, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(r.status, 200, `patch ${obj.kind} ${obj.metadata.name}: ${r.text}`);
  return r.json;
}

/** A timestamp as Go's metav1.Time marshals it (RFC 3339, whole seconds). */
export function rfc3339(d = new Date()): string {
  return d.toISOString().replace(/\.\d+Z$/, 'Z');
}

/** A one-container pod (busybox), with spec overrides. */
export function pod(namespace: string, name: string, spec: object = {}): any {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [{ name: 'main', image: 'busybox:1.36' }], ...spec } };
}

/** A core v1 Event about an object, as a kubelet or the scheduler records it (first and last seen now). */
export function eventAbout(
  namespace: string,
  name: string,
  involvedObject: object,
  e: { type: string; reason: string; message: string; component: string },
): any {
  const now = rfc3339();
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace },
    involvedObject,
    type: e.type,
    reason: e.reason,
    message: e.message,
    source: { component: e.component },
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
  };
}
