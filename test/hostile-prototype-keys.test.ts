/**
 * Keys named like Object.prototype members (`constructor`, `toString`, `__proto__`, ...) are keys
 * like any other on every write path: an unknown field so named is refused under Strict, warned
 * about under Warn and dropped silently under Ignore, exactly as an unknown `cqonstructor` is; in
 * a map (ConfigMap data, annotations) it is an ordinary key that round-trips. Each write is
 * compared with the same write using a control name (the name with a `q` after its first
 * character, so equally valid or invalid as a label key), and checked against upstream's answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { request, type RawResponse, startTestCluster, type TestCluster } from './helpers/cluster.js';

const NAMES = Object.getOwnPropertyNames(Object.prototype);
const MODES = ['Strict', 'Warn', 'Ignore'] as const;
type Mode = (typeof MODES)[number];
type Where = 'top' | 'metadata' | 'depth' | 'map';
const WHERES: readonly Where[] = ['top', 'metadata', 'depth', 'map'];
type Path = 'create-json' | 'create-yaml' | 'update-json' | 'update-yaml' | 'merge-patch' | 'json-patch' | 'strategic-patch' | 'apply' | 'status';
const PATHS: readonly Path[] = ['create-json', 'create-yaml', 'update-json', 'update-yaml', 'merge-patch', 'json-patch', 'strategic-patch', 'apply', 'status'];

const control = (name: string) => `${name[0]}q${name.slice(1)}`;
/** The value an unknown field gets: were it ever assigned as `__proto__`, objects would inherit `polluted`. */
const HOSTILE = { polluted: 'yes' };
const APPLY_YAML = 'application/apply-patch+yaml';

/** obj with key as an own property, even `__proto__` (an object literal would set the prototype). */
function withKey(obj: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  return obj;
}

/** A label or annotation key must start and end with an alphanumeric character. */
const validMapKey = (key: string) => /^[A-Za-z0-9]/.test(key) && /[A-Za-z0-9]$/.test(key);

function configMap(name: string): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } };
}

function container(): Record<string, unknown> {
  return { name: 'c', image: 'img:1' };
}

function deployment(name: string, c: Record<string, unknown> = container()): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { replicas: 1, selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [c] } } },
  };
}

/** The resource each location is written on: depth is a Deployment's container, the rest a ConfigMap. */
const isDeployment = (where: Where, path: Path) => where === 'depth' || path === 'status';

/** The full object with key at where (for create, update and apply). */
function fullObject(where: Where, key: string, name: string, path: Path): Record<string, unknown> {
  if (path === 'status') {
    const d = deployment(name);
    if (where === 'top') withKey(d, key, HOSTILE);
    if (where === 'metadata') withKey(d.metadata as Record<string, unknown>, key, HOSTILE);
    const condition = { type: 'Available', status: 'True' };
    if (where === 'depth') withKey(condition, key, HOSTILE);
    d.status = { replicas: 1, conditions: [condition] };
    if (where === 'map') withKey(d.metadata as Record<string, unknown>, 'annotations', withKey({}, key, 'v'));
    return d;
  }
  if (where === 'depth') return deployment(name, withKey(container(), key, HOSTILE));
  const cm = configMap(name);
  if (where === 'top') withKey(cm, key, HOSTILE);
  if (where === 'metadata') withKey(cm.metadata as Record<string, unknown>, key, HOSTILE);
  if (where === 'map') {
    withKey(cm.data as Record<string, unknown>, key, 'v');
    if (validMapKey(key)) withKey(cm.metadata as Record<string, unknown>, 'annotations', withKey({}, key, 'v'));
  }
  return cm;
}

/** A patch putting key at where, in the patch type's own form. */
function patchBody(path: Path, where: Where, key: string): { body: string; type: string } {
  if (path === 'json-patch') {
    const pointer = {
      top: `/${key}`,
      metadata: `/metadata/${key}`,
      depth: `/spec/template/spec/containers/0/${key}`,
      map: `/data/${key}`,
    }[where];
    return { body: JSON.stringify([{ op: 'add', path: pointer, value: where === 'map' ? 'v' : HOSTILE }]), type: 'application/json-patch+json' };
  }
  const type = path === 'merge-patch' ? 'application/merge-patch+json' : 'application/strategic-merge-patch+json';
  let patch: Record<string, unknown>;
  if (where === 'top') patch = withKey({}, key, HOSTILE);
  else if (where === 'metadata') patch = { metadata: withKey({}, key, HOSTILE) };
  else if (where === 'map') patch = { data: withKey({}, key, 'v') };
  // A merge patch replaces the list; a strategic one merges the item by its name.
  else patch = { spec: { template: { spec: { containers: [withKey(path === 'merge-patch' ? container() : { name: 'c' }, key, HOSTILE)] } } } };
  return { body: JSON.stringify(patch), type };
}

interface Outcome {
  status: number;
  reason?: string;
  message?: string;
  warnings: string[];
  /** The object read back after the write (volatile metadata removed), or the GET's status. */
  stored: unknown;
}

function warningsOf(res: RawResponse): string[] {
  const w = res.headers.warning;
  return (Array.isArray(w) ? w : w === undefined ? [] : [w]).sort();
}

function stable(obj: unknown): unknown {
  if (typeof obj !== 'object' || obj === null) return obj;
  const copy = structuredClone(obj) as Record<string, any>;
  const meta = copy.metadata ?? {};
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'generation']) delete meta[k];
  for (const e of meta.managedFields ?? []) delete e.time;
  return copy;
}

describe('keys named like Object.prototype members', () => {
  let cluster: TestCluster;
  let serial = 0;

  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory' });
  });
  after(() => cluster?.close());

  const collection = (ns: string, deploy: boolean) => (deploy ? `/apis/apps/v1/namespaces/${ns}/deployments` : `/api/v1/namespaces/${ns}/configmaps`);

  /** Runs one write and reads the object back. */
  async function write(path: Path, mode: Mode, where: Where, key: string, ns: string, name: string): Promise<Outcome> {
    const deploy = isDeployment(where, path);
    const coll = collection(ns, deploy);
    const q = `fieldValidation=${mode}`;
    let res: RawResponse;
    if (path === 'create-json' || path === 'create-yaml') {
      const obj = fullObject(where, key, name, path);
      res =
        path === 'create-json'
          ? await request(cluster, 'POST', `${coll}?${q}`, { body: JSON.stringify(obj) })
          : await request(cluster, 'POST', `${coll}?${q}`, { body: toYaml(obj), headers: { 'content-type': 'application/yaml' } });
    } else {
      const base = deploy ? deployment(name) : configMap(name);
      const created = await request(cluster, 'POST', coll, { body: base });
      assert.equal(created.status, 201, created.text);
      const rv = created.json.metadata.resourceVersion;
      if (path === 'update-json' || path === 'update-yaml' || path === 'status') {
        const obj = fullObject(where, key, name, path);
        (obj.metadata as Record<string, unknown>).resourceVersion = rv;
        const url = path === 'status' ? `${coll}/${name}/status?${q}` : `${coll}/${name}?${q}`;
        res =
          path === 'update-yaml'
            ? await request(cluster, 'PUT', url, { body: toYaml(obj), headers: { 'content-type': 'application/yaml' } })
            : await request(cluster, 'PUT', url, { body: JSON.stringify(obj) });
      } else if (path === 'apply') {
        const obj = fullObject(where, key, name, path);
        res = await request(cluster, 'PATCH', `${coll}/${name}?${q}&fieldManager=m&force=true`, { body: toYaml(obj), headers: { 'content-type': APPLY_YAML } });
      } else {
        const { body, type } = patchBody(path, where, key);
        res = await request(cluster, 'PATCH', `${coll}/${name}?${q}`, { body, headers: { 'content-type': type } });
      }
    }
    const got = await request(cluster, 'GET', `${coll}/${name}`);
    return {
      status: res.status,
      ...(res.status >= 300 ? { reason: res.json?.reason, message: res.json?.message ?? res.text } : {}),
      warnings: warningsOf(res),
      stored: got.status === 200 ? stable(got.json) : got.status,
    };
  }

  /** The outcome as text with the key, the namespace and object names made neutral. */
  function neutral(o: Outcome, key: string, ns: string): string {
    return JSON.stringify(o).split(key).join('KEY').split(ns).join('NS');
  }

  /** What upstream answers, checked on the prototype name's own outcome. */
  function expectUpstream(o: Outcome, path: Path, mode: Mode, where: Where, key: string): void {
    assert.ok(o.status < 500, `5xx: ${o.message}`);
    const storedText = JSON.stringify(o.stored);
    if (where === 'map' && path === 'status') {
      // The status subresource keeps the object's metadata as it was: the annotation is not taken.
      assert.equal(o.status, 200, o.message);
      assert.equal((o.stored as Record<string, any>).metadata.annotations, undefined);
      return;
    }
    if (where === 'map') {
      // An ordinary key of a map: stored as given in every mode, with no warning.
      assert.ok(o.status < 300, `map key refused: ${o.status} ${o.message}`);
      assert.deepEqual(o.warnings, []);
      const stored = o.stored as Record<string, any>;
      assert.ok(Object.hasOwn(stored.data ?? stored.metadata.annotations, key), `map key lost: ${storedText}`);
      assert.equal((stored.data ?? stored.metadata.annotations)[key], 'v');
      if (stored.data !== undefined) assert.deepEqual(Object.keys(stored.data).sort(), ['a', key].sort());
      return;
    }
    // An unknown field: never stored, whatever the answer.
    assert.ok(!storedText.includes(JSON.stringify(key)) && !storedText.includes(`"f:${key}"`), `unknown field stored: ${storedText}`);
    assert.ok(!storedText.includes('polluted'), storedText);
    const field = {
      top: key,
      metadata: `metadata.${key}`,
      depth: path === 'status' ? `status.conditions[0].${key}` : `spec.template.spec.containers[0].${key}`,
    }[where];
    if (path === 'apply') {
      // Apply refuses a field its type lacks in every mode, as structured-merge-diff does.
      assert.equal(o.status, 400, o.message);
      assert.match(o.message ?? '', /^failed to create typed patch object .*field not declared in schema/);
      return;
    }
    const warning = `299 - "unknown field \\"${field}\\""`;
    if (mode === 'Strict') {
      const isPatch = path === 'merge-patch' || path === 'json-patch' || path === 'strategic-patch';
      assert.equal(o.status, isPatch ? 422 : 400, o.message);
      assert.ok(o.message?.endsWith(`strict decoding error: unknown field "${field}"`), o.message);
    } else {
      assert.ok(o.status === 200 || o.status === 201, `${o.status} ${o.message}`);
      assert.deepEqual(o.warnings, mode === 'Warn' ? [warning] : []);
    }
  }

  for (const path of PATHS) {
    it(`${path}: every Object.prototype name, every mode and place, answers as an ordinary name does`, async () => {
      const failures: string[] = [];
      for (const [i, key] of NAMES.entries()) {
        const nsKey = `${path}-k${i}`;
        const nsControl = `${path}-c${i}`;
        for (const ns of [nsKey, nsControl])
          assert.equal((await request(cluster, 'POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
        for (const mode of MODES) {
          for (const where of WHERES) {
            const label = `${path} ${mode} ${where} ${key}`;
            const name = `o${serial++}`;
            const mine = await write(path, mode, where, key, nsKey, name);
            const theirs = await write(path, mode, where, control(key), nsControl, name);
            try {
              assert.equal(neutral(mine, key, nsKey), neutral(theirs, control(key), nsControl));
              expectUpstream(mine, path, mode, where, key);
            } catch (e) {
              failures.push(`${label}: ${e instanceof Error ? e.message.split('\n').slice(0, 6).join(' | ') : e}`);
            }
          }
        }
      }
      assert.deepEqual(failures, []);
    });
  }
});
