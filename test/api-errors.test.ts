/**
 * Errors a client can cause, as upstream reports them (Status objects with code and reason):
 * malformed bodies, size and media-type limits, unknown paths and verbs, content negotiation,
 * authentication; and a fuzz pass asserting that no bad input yields a 500 or kills the server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { rawTlsConnected, request, startTestCluster, type RawResponse, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;

before(async () => {
  cluster = await startTestCluster();
  assertOk(await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'existing', labels: { a: 'b' } }, data: { k: 'v' } }), 201);
});

after(async () => {
  await cluster?.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const MiB = 1024 * 1024;

function call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse> {
  return request(cluster, method, path, { body: body as object | undefined, headers });
}

function raw(method: string, path: string, body: string | Buffer | undefined, headers: Record<string, string> = {}): Promise<RawResponse> {
  return request(cluster, method, path, { body, headers });
}

function assertOk(r: RawResponse, code = 200): any {
  assert.equal(r.status, code, `expected ${code}, got ${r.status}: ${r.text.slice(0, 500)}`);
  return r.json;
}

function assertStatus(r: RawResponse, code: number, reason: string): any {
  assert.equal(r.status, code, `expected ${code}, got ${r.status}: ${r.text.slice(0, 500)}`);
  assert.match(String(r.headers['content-type']), /^application\/json/);
  assert.equal(r.json?.kind, 'Status', r.text.slice(0, 300));
  assert.equal(r.json.apiVersion, 'v1');
  assert.deepEqual(r.json.metadata, {});
  assert.equal(r.json.status, 'Failure');
  assert.equal(r.json.code, code);
  assert.equal(r.json.reason, reason, r.json.message);
  assert.equal(typeof r.json.message, 'string');
  return r.json;
}

async function stillServing(): Promise<void> {
  const r = await request(cluster, 'GET', '/readyz');
  assert.equal(r.status, 200, r.text);
  assert.equal(assertOk(await call('GET', `${CM}/existing`)).data.k, 'v');
}

describe('malformed bodies are 400', () => {
  const cases: [string, string, string, string, Record<string, string>?][] = [
    ['create with truncated JSON', 'POST', CM, '{"metadata":{"name":"x"'],
    ['create with garbage', 'POST', CM, 'this is not json'],
    ['create with an empty body', 'POST', CM, ''],
    ['create with trailing garbage', 'POST', CM, '{"metadata":{"name":"x"}} trailing'],
    ['update with malformed JSON', 'PUT', `${CM}/existing`, '{bad'],
    ['merge patch with malformed JSON', 'PATCH', `${CM}/existing`, '{bad', { 'content-type': 'application/merge-patch+json' }],
    ['JSON patch with malformed JSON', 'PATCH', `${CM}/existing`, '[{"op":', { 'content-type': 'application/json-patch+json' }],
    ['JSON patch that is not a list', 'PATCH', `${CM}/existing`, '{"op":"add"}', { 'content-type': 'application/json-patch+json' }],
    ['merge patch that is not an object', 'PATCH', `${CM}/existing`, '[1,2]', { 'content-type': 'application/merge-patch+json' }],
    ['delete with malformed DeleteOptions', 'DELETE', `${CM}/existing`, '{bad'],
    ['create with malformed YAML', 'POST', CM, 'metadata: {name: [', { 'content-type': 'application/yaml' }],
  ];
  for (const [title, method, path, body, headers] of cases) {
    it(title, async () => {
      const r = await raw(method, path, body, headers);
      assert.equal(r.status, 400, `${r.status} ${r.text}`);
      assert.equal(r.json?.kind, 'Status');
      assert.equal(r.json.reason, 'BadRequest');
      assert.equal(r.json.code, 400);
      await stillServing();
    });
  }

  it('a JSON patch whose operations cannot apply is 422, as upstream', async () => {
    for (const ops of ['[{"op":"frobnicate","path":"/x"}]', '[{"op":"remove","path":"/nope"}]', '[{"op":"test","path":"/data/k","value":"other"}]']) {
      const r = await raw('PATCH', `${CM}/existing`, ops, { 'content-type': 'application/json-patch+json' });
      assertStatus(r, 422, 'Invalid');
    }
  });

  it('nothing was written by any of them', async () => {
    const list = assertOk(await call('GET', CM));
    assert.deepEqual(
      list.items.map((i: any) => i.metadata.name),
      ['existing'],
    );
    assert.deepEqual(list.items[0].data, { k: 'v' });
  });
});

describe('request size', () => {
  function padded(json: string, size: number): string {
    return json + ' '.repeat(size - Buffer.byteLength(json));
  }

  it('a body of exactly 3 MiB is accepted', async () => {
    const r = await raw('POST', CM, padded('{"metadata":{"name":"exactly-3mib"}}', 3 * MiB));
    assert.equal(r.status, 201, r.text.slice(0, 300));
  });

  for (const [method, path, type] of [
    ['POST', CM, 'application/json'],
    ['PUT', `${CM}/existing`, 'application/json'],
    ['PATCH', `${CM}/existing`, 'application/merge-patch+json'],
  ] as const) {
    it(`${method} with a body over 3 MiB is 413 RequestEntityTooLarge`, async () => {
      const r = await raw(method, path, padded('{"metadata":{"name":"too-big"}}', 3 * MiB + 1), { 'content-type': type });
      assertStatus(r, 413, 'RequestEntityTooLarge');
      await stillServing();
    });
  }

  it('a 4 MiB body is 413 and stores nothing', async () => {
    const r = await call('POST', CM, { metadata: { name: 'huge' }, data: { k: 'x'.repeat(4 * MiB) } });
    assertStatus(r, 413, 'RequestEntityTooLarge');
    assertStatus(await call('GET', `${CM}/huge`), 404, 'NotFound');
  });
});

describe('media types', () => {
  const unsupported: [string, string, string, string][] = [
    ['create as text/plain', 'POST', CM, 'text/plain'],
    ['create as XML', 'POST', CM, 'application/xml'],
    ['create as form data', 'POST', CM, 'application/x-www-form-urlencoded'],
    ['update as text/plain', 'PUT', `${CM}/existing`, 'text/plain'],
    ['patch as plain JSON (no patch type)', 'PATCH', `${CM}/existing`, 'application/json'],
    ['patch as text/plain', 'PATCH', `${CM}/existing`, 'text/plain'],
  ];
  for (const [title, method, path, type] of unsupported) {
    it(`${title} is 415 UnsupportedMediaType`, async () => {
      const s = assertStatus(await raw(method, path, '{"metadata":{"name":"existing"}}', { 'content-type': type }), 415, 'UnsupportedMediaType');
      assert.match(s.message, /the body of the request was in an unknown format - accepted media types include: /);
    });
  }

  it('create accepts YAML bodies', async () => {
    const r = await raw('POST', CM, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n', { 'content-type': 'application/yaml' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.data.k, 'v');
  });

  it('a Content-Type with parameters is understood', async () => {
    const r = await raw('POST', CM, '{"metadata":{"name":"with-charset"}}', { 'content-type': 'application/json; charset=utf-8' });
    assert.equal(r.status, 201, r.text);
  });

  const notAcceptable = ['text/html', 'application/xml', 'image/png', 'text/plain'];
  for (const accept of notAcceptable) {
    it(`Accept: ${accept} is 406 NotAcceptable`, async () => {
      assertStatus(await call('GET', `${CM}/existing`, undefined, { accept }), 406, 'NotAcceptable');
      assertStatus(await call('GET', CM, undefined, { accept }), 406, 'NotAcceptable');
    });
  }

  const acceptable: [string, RegExp][] = [
    ['application/json', /^application\/json/],
    ['*/*', /^application\/json/],
    ['application/*', /^application\/json/],
    ['application/json;q=0.9', /^application\/json/],
    ['text/html, application/json', /^application\/json/],
    ['application/vnd.orch.protobuf, application/json', /^application\/(json|vnd\.orch\.protobuf)/],
    ['application/yaml', /^application\/yaml/],
  ];
  for (const [accept, type] of acceptable) {
    it(`Accept: ${accept} is served`, async () => {
      const r = await call('GET', `${CM}/existing`, undefined, { accept });
      assert.equal(r.status, 200, r.text);
      assert.match(String(r.headers['content-type']), type);
    });
  }

  it('YAML responses carry the same object as JSON', async () => {
    const json = assertOk(await call('GET', `${CM}/existing`));
    const r = await call('GET', `${CM}/existing`, undefined, { accept: 'application/yaml' });
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/yaml/);
    assert.deepEqual(parseYaml(r.text), json);
    const list = await call('GET', CM, undefined, { accept: 'application/yaml' });
    assert.equal(parseYaml(list.text).kind, 'ConfigMapList');
    const created = await call('POST', CM, { metadata: { name: 'yaml-reply' } }, { accept: 'application/yaml' });
    assert.equal(created.status, 201);
    assert.equal(parseYaml(created.text).metadata.name, 'yaml-reply');
  });

  it('errors are YAML Status objects when YAML is asked for', async () => {
    const r = await call('GET', `${CM}/missing`, undefined, { accept: 'application/yaml' });
    assert.equal(r.status, 404);
    assert.match(String(r.headers['content-type']), /^application\/yaml/);
    const s = parseYaml(r.text);
    assert.equal(s.kind, 'Status');
    assert.equal(s.reason, 'NotFound');
    assert.equal(s.code, 404);
  });

  it('pretty=true indents JSON', async () => {
    const r = await call('GET', `${CM}/existing?pretty=true`);
    assert.equal(r.status, 200);
    assert.match(r.text, /^\{\n\s+"/);
  });
});

describe('unknown paths are 404', () => {
  const paths = [
    '/nope',
    '/api/v2',
    '/api/v1/nopes',
    '/api/v1/namespaces/default/nopes',
    '/apis/nogroup',
    '/apis/nogroup/v1',
    '/apis/nogroup/v1/things',
    '/apis/apps/v2',
    '/apis/apps/v2/deployments',
    '/apis/apps/v1/nopes',
    '/apis/apps/v1beta1/deployments',
    '/api/v1/namespaces/default/configmaps/existing/nosub',
    '/api/v1/namespaces/default/configmaps/existing/status',
    '/api/v1/namespaces/default/configmaps/existing/a/b',
    '/apis/events.orch.io/v2/events',
    '/apis/events.k8s.io/v1/events',
    '/apis/scheduling.k8s.io/v1/priorityclasses',
  ];
  for (const path of paths) {
    it(`GET ${path}`, async () => {
      const r = await call('GET', path);
      assert.equal(r.status, 404, r.text);
      if (r.json !== undefined) {
        assert.equal(r.json.kind, 'Status');
        assert.equal(r.json.reason, 'NotFound');
      }
    });
  }
});

describe('unsupported verbs are 405', () => {
  const cases: [string, string, unknown?, Record<string, string>?][] = [
    ['PUT', CM, { metadata: { name: 'x' } }],
    ['PATCH', CM, { metadata: { labels: { a: 'b' } } }, { 'content-type': 'application/merge-patch+json' }],
    ['POST', `${CM}/existing`, { metadata: { name: 'existing' } }],
    ['POST', '/api/v1/configmaps', { metadata: { name: 'x', namespace: 'default' } }],
    ['DELETE', '/api/v1/configmaps'],
    ['DELETE', '/api/v1/namespaces'],
    ['POST', '/api/v1/componentstatuses', { metadata: { name: 'x' } }],
    ['DELETE', '/api/v1/componentstatuses/etcd-0'],
    ['GET', '/api/v1/namespaces/default/bindings'],
    ['DELETE', '/api/v1/namespaces/default/bindings/x'],
    ['GET', '/apis/authorization.orch.io/v1/selfsubjectaccessreviews'],
    ['DELETE', '/apis/authorization.orch.io/v1/selfsubjectaccessreviews/x'],
    ['POST', '/apis/apps/v1/namespaces/default/deployments/x/status', {}],
    ['DELETE', '/apis/apps/v1/namespaces/default/deployments/x/status'],
    ['OPTIONS', CM],
  ];
  for (const [method, path, body, headers] of cases) {
    it(`${method} ${path}`, async () => {
      const s = assertStatus(await call(method, path, body, headers), 405, 'MethodNotAllowed');
      assert.equal(s.message, 'the server does not allow this method on the requested resource');
    });
  }

  it('none of them changed anything', async () => {
    assert.deepEqual(assertOk(await call('GET', `${CM}/existing`)).metadata.labels, { a: 'b' });
    assertStatus(await call('GET', `${CM}/x`), 404, 'NotFound');
  });
});

describe('authentication', () => {
  // Anonymous requests are on (upstream's default): without credentials a request is
  // system:anonymous, whom the bootstrap policy lets read only public information.
  const paths = ['/api/v1/namespaces', `${CM}/existing`, '/api', '/apis', '/apis/apps/v1'];
  for (const path of paths) {
    it(`GET ${path} without credentials is 403 Forbidden for system:anonymous`, async () => {
      const r = await request(cluster, 'GET', path, { anonymous: true });
      const s = assertStatus(r, 403, 'Forbidden');
      assert.match(s.message ?? '', /User "system:anonymous" cannot/);
    });
    it(`GET ${path} with a token nobody knows is 401 Unauthorized`, async () => {
      const r = await request(cluster, 'GET', path, { anonymous: true, headers: { authorization: 'Bearer nobody-knows-this' } });
      assertStatus(r, 401, 'Unauthorized');
    });
  }

  it('writes without credentials are refused and change nothing', async () => {
    assertStatus(await request(cluster, 'POST', CM, { anonymous: true, body: { metadata: { name: 'anon' } } }), 403, 'Forbidden');
    assertStatus(await request(cluster, 'DELETE', `${CM}/existing`, { anonymous: true }), 403, 'Forbidden');
    assertStatus(await call('GET', `${CM}/anon`), 404, 'NotFound');
    assertOk(await call('GET', `${CM}/existing`));
  });
});

describe('no bad input yields a 500', () => {
  /** Deterministic PRNG (mulberry32), so a failure can be replayed. */
  function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const rand = prng(20240601);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

  const SEGMENTS = [
    'api',
    'apis',
    'v1',
    'v2',
    'v1beta1',
    'apps',
    'namespaces',
    'default',
    'nope',
    'configmaps',
    'pods',
    'deployments',
    'status',
    'finalize',
    'bindings',
    'componentstatuses',
    'events',
    'events.orch.io',
    'storage.orch.io',
    'storageclasses',
    'existing',
    'x',
    '',
    '..',
    '.',
    '%2F',
    '%00',
    '%ZZ',
    '%',
    '%E0%A4%A',
    '%C3%BC',
    'a'.repeat(300),
    'proxy',
    'scale',
    'healthz',
    'livez',
    'readyz',
    'version',
    'openapi',
    'rbac.authorization.orch.io',
    'clusterroles',
    'secrets',
    'authorization.orch.io',
    'selfsubjectaccessreviews',
    'tokenreviews',
    'authentication.orch.io',
    'orch-system',
    'A',
    '-',
    'a.b',
    '%20',
    '~',
    "'",
    '"',
    '<script>',
  ];
  const PREFIXES = [
    [],
    ['api', 'v1'],
    ['api', 'v1', 'namespaces', 'default'],
    ['apis', 'apps', 'v1', 'namespaces', 'default'],
    ['apis', 'storage.orch.io', 'v1'],
  ];
  const QUERIES = [
    'limit=abc',
    'limit=-5',
    'limit=3',
    'limit=1e99',
    'limit=99999999999999999999',
    'continue=%25%25',
    'continue=eyJ9',
    'labelSelector=%3D%3D',
    'labelSelector=a%20in%20(',
    'fieldSelector=x',
    'fieldSelector=metadata.name%3D%5C',
    'dryRun=All',
    'dryRun=x',
    'pretty=true',
    'pretty=1',
    'propagationPolicy=x',
    'gracePeriodSeconds=-1',
    'gracePeriodSeconds=x',
    'resourceVersion=abc',
    'resourceVersion=-1',
    'resourceVersionMatch=Exact',
    'resourceVersionMatch=x&resourceVersion=1',
    'timeoutSeconds=x',
    'verbose',
    'exclude=ping',
    'fieldManager=%00',
    'fieldManager=fuzz',
    'fieldManager=fuzz&force=true',
    'force=maybe',
    'orphanDependents=x',
    '%ZZ=1',
    'a=%ZZ',
  ];
  const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'GET', 'POST', 'PUT', 'PATCH'];
  const TYPES = [
    'application/json',
    'application/yaml',
    'application/merge-patch+json',
    'application/json-patch+json',
    'text/plain',
    '',
    'application/json; charset=utf-8',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
    'application/vnd.orch.protobuf',
    'multipart/form-data; boundary=x',
  ];
  const ACCEPTS = [
    '',
    'application/json',
    'application/yaml',
    '*/*',
    'text/html',
    'application/json;as=Table;g=meta.orch.io;v=v1beta1',
    'application/vnd.orch.protobuf',
    ';;;',
    'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList',
  ];
  const WEIRD: unknown[] = [
    null,
    true,
    0,
    -1,
    1e308,
    '',
    'x',
    [],
    [null],
    {},
    { a: null },
    'ü',
    '\u0000',
    'x'.repeat(1000),
    [{}],
    { '': '' },
    { __proto__: { polluted: 1 } } as unknown,
    { constructor: { prototype: { polluted: 1 } } },
    2 ** 53 + 2,
    -0,
    [[[[[]]]]],
  ];
  const META_KEYS = [
    'name',
    'generateName',
    'namespace',
    'labels',
    'annotations',
    'finalizers',
    'ownerReferences',
    'managedFields',
    'uid',
    'resourceVersion',
    'generation',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'selfLink',
  ];

  function weirdObject(): Record<string, unknown> {
    const meta: Record<string, unknown> = { name: pick(['fuzz', 'existing', 'Fuzz!', '', 'a'.repeat(300), 'fuzz-x']) };
    for (let i = 0, n = Math.floor(rand() * 4); i < n; i++) meta[pick(META_KEYS)] = pick(WEIRD);
    const obj: Record<string, unknown> = { metadata: meta };
    if (rand() < 0.3) obj.apiVersion = pick(['v1', 'apps/v1', 'x', 5, null]);
    if (rand() < 0.3) obj.kind = pick(['ConfigMap', 'Deployment', 'Status', '', 7, {}]);
    if (rand() < 0.5) obj[pick(['data', 'spec', 'status', 'items', 'rules'])] = pick(WEIRD);
    if (rand() < 0.2) obj.metadata = pick(WEIRD);
    return obj;
  }

  function deep(n: number): string {
    return `{"metadata":{"name":"deep"},"data":${'['.repeat(n)}${']'.repeat(n)}}`;
  }

  function body(): string | Buffer | undefined {
    const r = rand();
    if (r < 0.1) return undefined;
    if (r < 0.45) return JSON.stringify(weirdObject());
    if (r < 0.55)
      return JSON.stringify(
        pick([
          [{ op: 'add', path: '/metadata/labels', value: pick(WEIRD) }],
          [{ op: 'remove', path: pick(['/metadata', '/metadata/name', '', '/', '/x/y']) }],
          [{ op: 'replace', path: '/metadata', value: pick(WEIRD) }],
          [{ op: 'move', from: '/metadata', path: '/metadata/x' }],
          [{ op: 'copy', from: '/metadata/name', path: '/metadata/namespace' }],
          [
            { op: 'test', path: '/kind', value: 'ConfigMap' },
            { op: 'add', path: '/metadata/finalizers', value: pick(WEIRD) },
          ],
          [{ op: 'add', path: '/metadata/finalizers/-', value: pick(WEIRD) }],
          [pick(WEIRD)],
        ]),
      );
    if (r < 0.62) return JSON.stringify(weirdObject()).slice(0, Math.floor(rand() * 40));
    if (r < 0.7) return Buffer.from(Array.from({ length: Math.floor(rand() * 200) }, () => Math.floor(rand() * 256)));
    if (r < 0.75) return deep(pick([100, 5000, 50000]));
    if (r < 0.8)
      return pick([
        'a: &a [*a]',
        'a: &a ["x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
        '!!binary x',
        '--- 1\n--- 2',
        'metadata: !!js/function "f(){}"',
        '? [a]\n: b',
        'metadata:\n  name: y\n  labels: [1, 2]',
      ]);
    return JSON.stringify(pick(WEIRD));
  }

  function path(): string {
    const segs = [...pick(PREFIXES)];
    for (let i = 0, n = Math.floor(rand() * 5); i < n; i++) segs.push(pick(SEGMENTS));
    let p = `/${segs.join('/')}`;
    if (rand() < 0.5) {
      const qs: string[] = [];
      for (let i = 0, n = 1 + Math.floor(rand() * 3); i < n; i++) qs.push(pick(QUERIES));
      p += `?${qs.join('&')}`;
    }
    return p;
  }

  function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
    return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms).unref())]);
  }

  it('a request line the HTTP parser refuses is answered with a 4xx (400 Bad Request), not a dropped connection', async () => {
    // Raw (unescaped) bytes a client library would never send; upstream's Go server answers 400.
    for (const target of ['/a b', '/\u00fc']) {
      const socket = await rawTlsConnected(cluster);
      let reply = '';
      socket.on('data', (d: Buffer) => {
        reply += d.toString('latin1');
      });
      const closed = new Promise<void>((resolve) => {
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
      socket.write(Buffer.concat([Buffer.from('GET '), Buffer.from(target, 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')]));
      await withTimeout(closed, 5_000, `raw ${target}`);
      // Go answers a malformed request line 400; raw UTF-8 it may route (404). Never silence.
      assert.match(reply, /^HTTP\/1\.1 4\d\d /, `reply to ${JSON.stringify(target)}: ${JSON.stringify(reply.slice(0, 80))}`);
    }
    await stillServing();
  });

  it('targeted edge cases answer below 500', async () => {
    const cases: [string, string, (string | Buffer)?, Record<string, string>?][] = [
      ['GET', `${CM}/%E0%A4%A`],
      ['GET', '/api/v1/namespaces/%ZZ/configmaps'],
      ['GET', '/apis/%/v1'],
      ['DELETE', `${CM}/%`],
      ['GET', `${CM}?limit=99999999999999999999`],
      ['GET', `${CM}?limit=1e99`],
      ['POST', CM, deep(50000)],
      ['PUT', `${CM}/existing`, deep(50000)],
      ['PATCH', `${CM}/existing`, deep(50000), { 'content-type': 'application/merge-patch+json' }],
      [
        'POST',
        CM,
        'a: &a ["x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
        { 'content-type': 'application/yaml' },
      ],
      ['POST', CM, 'metadata: !!binary eA==', { 'content-type': 'application/yaml' }],
      ['POST', CM, '{"metadata":{"name":"proto","labels":{"__proto__":"x"}}}'],
      ['PATCH', `${CM}/existing`, '{"__proto__":{"polluted":true}}', { 'content-type': 'application/merge-patch+json' }],
      ['PATCH', `${CM}/existing`, '[{"op":"add","path":"/metadata/__proto__/x","value":1}]', { 'content-type': 'application/json-patch+json' }],
    ];
    const failures: string[] = [];
    for (const [method, p, b, h] of cases) {
      const r = await withTimeout(raw(method, p, b, h ?? {}), 10_000, `${method} ${p}`);
      if (r.status >= 500) failures.push(`${method} ${p} ${String(b ?? '').slice(0, 60)} -> ${r.status} ${r.text.slice(0, 200)}`);
    }
    assert.deepEqual(failures, []);
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
    await stillServing();
  });

  it('400 random requests all answer below 500, and the server stays ready', async () => {
    const failures: string[] = [];
    const requests: [string, string, string | Buffer | undefined, Record<string, string>][] = [];
    for (let i = 0; i < 400; i++) {
      const method = pick(METHODS);
      const headers: Record<string, string> = {};
      const type = pick(TYPES);
      if (type !== '') headers['content-type'] = type;
      const accept = pick(ACCEPTS);
      if (accept !== '') headers.accept = accept;
      requests.push([method, path(), method === 'GET' || method === 'HEAD' ? (rand() < 0.1 ? body() : undefined) : body(), headers]);
    }
    const CONCURRENCY = 16;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const [method, p, b, h] = requests[next++];
          const what = `${method} ${p} [${JSON.stringify(h)}] ${String(b ?? '').slice(0, 80)}`;
          try {
            const r = await withTimeout(raw(method, p, b, h), 10_000, what);
            if (r.status >= 500) failures.push(`${what} -> ${r.status} ${r.text.slice(0, 200)}`);
          } catch (e) {
            failures.push(`${what} -> ${(e as Error).message}`);
          }
        }
      }),
    );
    assert.deepEqual(failures, []);
    await stillServing();
  });

  it('every object the fuzz left stored is valid for its type: a PUT of it unchanged answers 200', async () => {
    const collections = ['/api/v1/namespaces/default/configmaps', '/apis/apps/v1/namespaces/default/deployments', '/apis/storage.orch.io/v1/storageclasses'];
    const refused: string[] = [];
    for (const collection of collections) {
      for (const item of assertOk(await call('GET', collection)).items as { metadata: { name: string } }[]) {
        const put = await call('PUT', `${collection}/${item.metadata.name}`, item);
        if (put.status !== 200) refused.push(`${collection}/${item.metadata.name} -> ${put.status} ${put.text.slice(0, 200)}`);
      }
    }
    assert.deepEqual(refused, []);
  });
});

describe('bodies as upstream encodes them', () => {
  it('a Status is in Go struct order and ends with a newline, byte for byte', async () => {
    const missing = await call('GET', `${CM}/missing`);
    assert.equal(
      missing.text,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"missing\\" not found","reason":"NotFound","details":{"name":"missing","kind":"configmaps"},"code":404}\n',
    );
    const badLimit = await call('GET', `${CM}?limit=abc`);
    assert.equal(
      badLimit.text,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"strconv.ParseInt: parsing \\"abc\\": invalid syntax","reason":"BadRequest","code":400}\n',
    );
    assertOk(await call('POST', CM, { metadata: { name: 'short-lived' } }), 201);
    const deleted = await call('DELETE', `${CM}/short-lived`);
    assert.equal(deleted.status, 200);
    assert.ok(deleted.text.endsWith('}\n'), deleted.text);
  });
});
