/**
 * Keys named like Object.prototype members (`constructor`, `toString`, `__proto__`, ...) are keys
 * like any other on every write path: an unknown field so named is refused under Strict, warned
 * about under Warn and dropped silently under Ignore, exactly as an unknown `cqonstructor` is; in
 * a map (ConfigMap data, annotations) it is an ordinary key that round-trips. Each write is
 * compared with the same write using a control name (the name with a `q` after its first
 * character, so equally valid or invalid as a label key), and checked against upstream's answer.
 */
import assert from 'node:assert/strict';
import { Agent } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { type RawResponse, type RequestOptions, request, startTestCluster, type TestCluster } from './helpers/cluster.js';

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

/** Kept-alive connections: thousands of requests need not each pay a TLS handshake. */
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
after(() => agent.destroy());

describe('keys named like Object.prototype members', () => {
  let cluster: TestCluster;
  let serial = 0;
  const send = (method: string, path: string, opts: RequestOptions = {}) => request(cluster, method, path, { ...opts, agent });

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
          ? await send('POST', `${coll}?${q}`, { body: JSON.stringify(obj) })
          : await send('POST', `${coll}?${q}`, { body: toYaml(obj), headers: { 'content-type': 'application/yaml' } });
    } else {
      const base = deploy ? deployment(name) : configMap(name);
      const created = await send('POST', coll, { body: base });
      assert.equal(created.status, 201, created.text);
      const rv = created.json.metadata.resourceVersion;
      if (path === 'update-json' || path === 'update-yaml' || path === 'status') {
        const obj = fullObject(where, key, name, path);
        (obj.metadata as Record<string, unknown>).resourceVersion = rv;
        const url = path === 'status' ? `${coll}/${name}/status?${q}` : `${coll}/${name}?${q}`;
        res =
          path === 'update-yaml'
            ? await send('PUT', url, { body: toYaml(obj), headers: { 'content-type': 'application/yaml' } })
            : await send('PUT', url, { body: JSON.stringify(obj) });
      } else if (path === 'apply') {
        const obj = fullObject(where, key, name, path);
        res = await send('PATCH', `${coll}/${name}?${q}&fieldManager=m&force=true`, { body: toYaml(obj), headers: { 'content-type': APPLY_YAML } });
      } else {
        const { body, type } = patchBody(path, where, key);
        res = await send('PATCH', `${coll}/${name}?${q}`, { body, headers: { 'content-type': type } });
      }
    }
    const got = await send('GET', `${coll}/${name}`);
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
      // Names run side by side (each in its own pair of namespaces), their writes one after another.
      const byName = NAMES.map(async (key, i) => {
        const nsKey = `${path}-k${i}`;
        const nsControl = `${path}-c${i}`;
        for (const ns of [nsKey, nsControl]) assert.equal((await send('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
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
      });
      await Promise.all(byName);
      assert.deepEqual(failures.sort(), []);
    });
  }
});

/** A request of an odd path (selectors, patch operations and directives, managedFields) with key in it. */
type Probe = (call: (method: string, path: string, body?: unknown, type?: string) => Promise<RawResponse>, key: string, name: string) => Promise<RawResponse>;

const CMS = '/api/v1/namespaces/default/configmaps';
const JSON_PATCH = 'application/json-patch+json';
const SMP = 'application/strategic-merge-patch+json';
const MERGE = 'application/merge-patch+json';

/** Creates a ConfigMap labelled x=y and sends a patch of the given type to it. */
const patchAfterCreate =
  (type: string, patch: (key: string) => unknown): Probe =>
  async (call, key, name) => {
    await call('POST', CMS, { ...configMap(name), metadata: { name, labels: { x: 'y' } } });
    return call('PATCH', `${CMS}/${name}`, patch(key), type);
  };

const PROBES: Record<string, Probe> = {
  'label selector: exists': (call, key) => call('GET', `${CMS}?labelSelector=${encodeURIComponent(key)}`),
  'label selector: does not exist': (call, key) => call('GET', `${CMS}?labelSelector=${encodeURIComponent(`!${key}`)}`),
  'label selector: not equal': (call, key) => call('GET', `${CMS}?labelSelector=${encodeURIComponent(`${key}!=z`)}`),
  'field selector': (call, key) => call('GET', `${CMS}?fieldSelector=${encodeURIComponent(`metadata.${key}=z`)}`),
  'URL: subresource': (call, key) => call('PUT', `${CMS}/x/${encodeURIComponent(key)}`, {}),
  'URL: resource': (call, key) => call('GET', `/api/v1/namespaces/default/${encodeURIComponent(key)}`),
  'URL: group and version': (call, key) => call('GET', `/apis/${encodeURIComponent(key)}/v1`),
  'URL: version': (call, key) => call('GET', `/apis/apps/${encodeURIComponent(key)}`),
  'query parameter values': (call, key) => call('DELETE', `${CMS}/nope?propagationPolicy=${encodeURIComponent(key)}`),
  'content type': (call, key) => call('POST', CMS, {}, `application/${key}`),
  'CronJob schedule with the name as a duration unit': (call, key, name) =>
    call('POST', '/apis/batch/v1/namespaces/default/cronjobs', {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name },
      spec: { schedule: `@every 1${key}`, jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } } } },
    }),
  'JSON patch: remove an absent key': patchAfterCreate(JSON_PATCH, (key) => [{ op: 'remove', path: `/metadata/labels/${key}` }]),
  'JSON patch: replace an absent key': patchAfterCreate(JSON_PATCH, (key) => [{ op: 'replace', path: `/data/${key}`, value: 'v' }]),
  'JSON patch: copy from an absent key': patchAfterCreate(JSON_PATCH, (key) => [{ op: 'copy', from: `/data/${key}`, path: '/data/b' }]),
  'JSON patch: test an absent key': patchAfterCreate(JSON_PATCH, (key) => [{ op: 'test', path: `/data/${key}`, value: null }]),
  'JSON patch: add below an absent key': patchAfterCreate(JSON_PATCH, (key) => [{ op: 'add', path: `/data/${key}/x`, value: 'v' }]),
  'JSON patch: move a key': patchAfterCreate(JSON_PATCH, (key) => [
    { op: 'add', path: `/data/${key}`, value: 'v' },
    { op: 'move', from: `/data/${key}`, path: `/metadata/annotations` },
  ]),
  'strategic patch: $setElementOrder': patchAfterCreate(SMP, (key) => withKey({}, `$setElementOrder/${key}`, [])),
  'strategic patch: $deleteFromPrimitiveList': patchAfterCreate(SMP, (key) => ({ metadata: withKey({}, `$deleteFromPrimitiveList/${key}`, ['a']) })),
  'strategic patch: $retainKeys': patchAfterCreate(SMP, (key) => ({ data: withKey({ $retainKeys: [key] }, key, 'v') })),
  'strategic patch: delete an absent key': patchAfterCreate(SMP, (key) => ({ data: withKey({}, key, null) })),
  'merge patch: delete an absent key': patchAfterCreate(MERGE, (key) => ({ data: withKey({}, key, null) })),
  'managedFields naming the key': patchAfterCreate(MERGE, (key) => ({
    metadata: {
      managedFields: [
        {
          manager: 'x',
          operation: 'Update',
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: withKey({ 'f:data': withKey({}, `f:${key}`, {}) }, `f:${key}`, {}),
        },
      ],
    },
  })),
  'apply twice, the second dropping the key': async (call, key, name) => {
    const applied = (data: Record<string, unknown>) => toYaml({ ...configMap(name), data });
    await call('PATCH', `${CMS}/${name}?fieldManager=z`, applied(withKey({ a: '1' }, key, 'v')), APPLY_YAML);
    return call('PATCH', `${CMS}/${name}?fieldManager=z`, applied({ b: '2' }), APPLY_YAML);
  },
  'Secret stringData': (call, key, name) =>
    call('POST', '/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: withKey({}, key, 'v') }),
  'Pod nodeSelector and resource names': (call, key, name) =>
    call('POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { nodeSelector: withKey({}, key, 'v'), containers: [{ name: 'c', image: 'i', resources: { requests: withKey({}, key, '1') } }] },
    }),
  'events/v1 Event with the key as a field': (call, key, name) =>
    call(
      'POST',
      '/apis/events.orch.io/v1/namespaces/default/events',
      withKey(
        {
          apiVersion: 'events.orch.io/v1',
          kind: 'Event',
          metadata: { name },
          eventTime: '2020-01-01T00:00:00.000000Z',
          reportingController: 'a/b',
          reportingInstance: 'i',
          action: 'A',
          reason: 'R',
          type: 'Normal',
          regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
        },
        key,
        1,
      ),
    ),
};

describe('keys named like Object.prototype members on the other paths', () => {
  let cluster: TestCluster;
  let serial = 0;
  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory' });
  });
  after(() => cluster?.close());

  const call = (method: string, path: string, body?: unknown, type = 'application/json') =>
    request(cluster, method, path, {
      agent,
      body: typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? {} : { 'content-type': type },
    });

  /** The answer and what is stored under name afterwards (ConfigMap, Secret, Pod or Event). */
  async function outcome(probe: Probe, key: string, name: string): Promise<string> {
    const res = await probe(call, key, name);
    const stored = [];
    for (const coll of [CMS, '/api/v1/namespaces/default/secrets', '/api/v1/namespaces/default/pods', '/api/v1/namespaces/default/events']) {
      const got = await call('GET', `${coll}/${name}`);
      if (got.status === 200) stored.push(stable(got.json));
    }
    const text = JSON.stringify({
      status: res.status,
      body: res.status >= 300 ? res.json?.message : res.json?.items?.length,
      warnings: warningsOf(res),
      stored,
    });
    assert.ok(res.status < 500, text);
    assert.ok(!text.includes('polluted'), text);
    return (
      text
        .split(name)
        .join('NAME')
        .replace(/"uid":"[^"]*"/g, '')
        .replace(/"(eventTime|lastTimestamp|firstTimestamp)":"[^"]*"/g, '')
        // A patch error quotes the patched object's JSON, which carries each object's own identity.
        .replace(/\\+"(uid|resourceVersion|creationTimestamp|time)\\+":\\+"[^"\\]*\\+"/g, '')
    );
  }

  for (const [title, probe] of Object.entries(PROBES)) {
    it(`${title}: every Object.prototype name answers as an ordinary name does`, async () => {
      const failures: string[] = [];
      await Promise.all(
        NAMES.map(async (key) => {
          const mine = await outcome(probe, key, `p${serial++}`);
          const theirs = await outcome(probe, control(key), `p${serial++}`);
          if (mine.split(key).join('KEY') !== theirs.split(control(key)).join('KEY')) failures.push(`${key}:\n  ${mine}\n  ${theirs}`);
        }),
      );
      assert.deepEqual(failures.sort(), []);
    });
  }

  it('a label named like a member is selected by its own value only', async () => {
    for (const key of NAMES.filter(validMapKey)) {
      const name = `l${serial++}`;
      const created = await call('POST', CMS, { ...configMap(name), metadata: { name, labels: withKey({}, key, 'x') } });
      assert.equal(created.status, 201, created.text);
      const names = async (selector: string) =>
        ((await call('GET', `${CMS}?labelSelector=${encodeURIComponent(selector)}`)).json.items as Array<{ metadata: { name: string } }>).map(
          (i) => i.metadata.name,
        );
      assert.ok((await names(`${key}=x`)).includes(name));
      assert.ok((await names(key)).includes(name));
      assert.ok(!(await names(`!${key}`)).includes(name));
      assert.ok(!(await names(`${key}=y`)).includes(name));
      assert.deepEqual(await names(`${key},${control(key)}`), []);
    }
  });
});
