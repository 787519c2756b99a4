/**
 * Label selectors, field selectors (generic and per type) and paginated lists, as a client
 * sees them: which objects come back, and the 400s for bad input.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, startTestCluster, type RawResponse, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;

const NS = 'sel';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

function call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse> {
  return request(cluster, method, path, { body: body as object | undefined, headers });
}

function assertOk(r: RawResponse, code = 200): any {
  assert.equal(r.status, code, `expected ${code}, got ${r.status}: ${r.text.slice(0, 500)}`);
  return r.json;
}

function assertBadRequest(r: RawResponse): string {
  assert.equal(r.status, 400, `expected 400, got ${r.status}: ${r.text.slice(0, 500)}`);
  assert.equal(r.json?.kind, 'Status');
  assert.equal(r.json.reason, 'BadRequest');
  assert.equal(r.json.code, 400);
  return r.json.message as string;
}

async function names(path: string, query: Record<string, string>): Promise<string[]> {
  const q = new URLSearchParams(query).toString();
  const list = assertOk(await call('GET', `${path}?${q}`));
  return list.items.map((i: any) => i.metadata.name).sort();
}

before(async () => {
  cluster = await startTestCluster();
  assertOk(await call('POST', '/api/v1/namespaces', { metadata: { name: NS } }), 201);
  const objs: [string, Record<string, string>][] = [
    ['a', { env: 'prod', tier: 'web' }],
    ['b', { env: 'dev', tier: 'web' }],
    ['c', { env: 'prod' }],
    ['d', {}],
    ['e', { env: 'qa', tier: 'db', 'example.com/team': 'blue' }],
  ];
  for (const [name, labels] of objs) assertOk(await call('POST', CM, { metadata: { name, labels } }), 201);
  // Same names elsewhere, to show selectors never cross the namespace of the path.
  assertOk(await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'a', labels: { env: 'prod', tier: 'web' } } }), 201);
});

after(async () => {
  await cluster?.close();
});

describe('label selectors', () => {
  const cases: [string, string[]][] = [
    ['env=prod', ['a', 'c']],
    ['env==prod', ['a', 'c']],
    ['env!=prod', ['b', 'd', 'e']],
    ['env in (prod,dev)', ['a', 'b', 'c']],
    ['env in (prod)', ['a', 'c']],
    ['env notin (prod,dev)', ['d', 'e']],
    ['tier', ['a', 'b', 'e']],
    ['!tier', ['c', 'd']],
    ['env=prod,tier=web', ['a']],
    ['env in (prod),!tier', ['c']],
    ['env,tier notin (web)', ['c', 'e']],
    ['example.com/team=blue', ['e']],
    ['env=nothing', []],
    // `()` is the set of the empty string, as upstream's parser reads it.
    ['env notin ()', ['a', 'b', 'c', 'd', 'e']],
    ['env in ()', []],
    ['  env = prod  ', ['a', 'c']],
    ['', ['a', 'b', 'c', 'd', 'e']],
  ];
  for (const [selector, expected] of cases) {
    it(`${JSON.stringify(selector)} selects ${JSON.stringify(expected)}`, async () => {
      assert.deepEqual(await names(CM, { labelSelector: selector }), expected);
    });
  }

  it('applies across all namespaces too', async () => {
    const list = assertOk(await call('GET', `/api/v1/configmaps?labelSelector=${encodeURIComponent('env=prod,tier=web')}`));
    assert.deepEqual(list.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`).sort(), ['default/a', `${NS}/a`]);
  });

  const bad: [string, RegExp][] = [
    ['env in (prod', /unable to parse requirement|expected/],
    ['env in prod', /expected: '\('/],
    ['env=prod=x', /found '=', expected|invalid/],
    ['!env=prod', /expected/],
    ['env=(x)', /expected/],
    ['bad key=x', /expected|Invalid/],
    ['-env=x', /Invalid value: "-env"/],
    ['env=-bad', /Invalid value: "-bad"/],
    [`env=${'v'.repeat(64)}`, /must be no more than 63 characters/],
    ['env,', /expected: identifier after ','/],
  ];
  for (const [selector, why] of bad) {
    it(`${JSON.stringify(selector)} is 400 naming the problem`, async () => {
      const msg = assertBadRequest(await call('GET', `${CM}?labelSelector=${encodeURIComponent(selector)}`));
      assert.match(msg, why);
    });
  }
});

describe('field selectors', () => {
  before(async () => {
    const pods: [string, Record<string, unknown>][] = [
      ['p1', { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] }],
      ['p2', { nodeName: 'n2', containers: [{ name: 'c', image: 'x' }] }],
      ['p3', { containers: [{ name: 'c', image: 'x' }] }],
    ];
    for (const [name, spec] of pods) assertOk(await call('POST', `/api/v1/namespaces/${NS}/pods`, { metadata: { name }, spec }), 201);
    const p2 = assertOk(await call('GET', `/api/v1/namespaces/${NS}/pods/p2`));
    assertOk(await call('PUT', `/api/v1/namespaces/${NS}/pods/p2/status`, { ...p2, status: { phase: 'Running' } }));

    const events: [string, string, string, string][] = [
      ['ev1', 'x', 'Started', 'Normal'],
      ['ev2', 'y', 'Failed', 'Warning'],
      ['ev3', 'x', 'Failed', 'Warning'],
    ];
    for (const [name, obj, reason, type] of events) {
      assertOk(
        await call('POST', `/api/v1/namespaces/${NS}/events`, {
          metadata: { name },
          involvedObject: { kind: 'Pod', name: obj, namespace: NS },
          reason,
          type,
          message: 'm',
          source: { component: 'test' },
        }),
        201,
      );
    }
    assertOk(await call('POST', `/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 's1' }, type: 'Opaque' }), 201);
    assertOk(await call('POST', `/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 's2' }, type: 'example.com/custom' }), 201);
  });

  const cases: [string, string, string, string[]][] = [
    // [title, collection, selector, expected names]
    ['metadata.name on configmaps', CM, 'metadata.name=a', ['a']],
    ['metadata.name with ==', CM, 'metadata.name==b', ['b']],
    ['metadata.name with !=', CM, 'metadata.name!=a', ['b', 'c', 'd', 'e']],
    ['two terms (and)', CM, 'metadata.name!=a,metadata.name!=b', ['c', 'd', 'e']],
    ['metadata.namespace', CM, `metadata.namespace=${NS}`, ['a', 'b', 'c', 'd', 'e']],
    ['metadata.namespace on another namespace', CM, 'metadata.namespace=default', []],
    ['pods spec.nodeName', `/api/v1/namespaces/${NS}/pods`, 'spec.nodeName=n1', ['p1']],
    ['pods spec.nodeName empty (unscheduled)', `/api/v1/namespaces/${NS}/pods`, 'spec.nodeName=', ['p3']],
    ['pods spec.nodeName !=', `/api/v1/namespaces/${NS}/pods`, 'spec.nodeName!=n1', ['p2', 'p3']],
    ['pods status.phase Running', `/api/v1/namespaces/${NS}/pods`, 'status.phase=Running', ['p2']],
    ['pods status.phase Pending (the default)', `/api/v1/namespaces/${NS}/pods`, 'status.phase=Pending', ['p1', 'p3']],
    ['pods scheduled and pending', `/api/v1/namespaces/${NS}/pods`, 'spec.nodeName!=,status.phase=Pending', ['p1']],
    ['events involvedObject.name', `/api/v1/namespaces/${NS}/events`, 'involvedObject.name=x', ['ev1', 'ev3']],
    ['events involvedObject.kind', `/api/v1/namespaces/${NS}/events`, 'involvedObject.kind=Pod', ['ev1', 'ev2', 'ev3']],
    ['events reason', `/api/v1/namespaces/${NS}/events`, 'reason=Failed', ['ev2', 'ev3']],
    ['events type', `/api/v1/namespaces/${NS}/events`, 'type=Normal', ['ev1']],
    ['events object, reason and type', `/api/v1/namespaces/${NS}/events`, 'involvedObject.name=x,reason=Failed,type=Warning', ['ev3']],
    ['events source', `/api/v1/namespaces/${NS}/events`, 'source=test', ['ev1', 'ev2', 'ev3']],
    ['events.orch.io regarding.name', `/apis/events.orch.io/v1/namespaces/${NS}/events`, 'regarding.name=x', ['ev1', 'ev3']],
    ['events.orch.io reason and type', `/apis/events.orch.io/v1/namespaces/${NS}/events`, 'reason=Failed,type=Warning', ['ev2', 'ev3']],
    ['secrets type', `/api/v1/namespaces/${NS}/secrets`, 'type=example.com/custom', ['s2']],
    ['secrets type Opaque', `/api/v1/namespaces/${NS}/secrets`, 'type=Opaque', ['s1']],
    ['namespaces status.phase', '/api/v1/namespaces', 'status.phase=Active,metadata.name=sel', ['sel']],
  ];
  for (const [title, path, selector, expected] of cases) {
    it(`${title}: ${JSON.stringify(selector)}`, async () => {
      assert.deepEqual(await names(path, { fieldSelector: selector }), expected);
    });
  }

  it('field and label selectors combine', async () => {
    assert.deepEqual(await names(CM, { fieldSelector: 'metadata.name!=a', labelSelector: 'env=prod' }), ['c']);
  });

  it('metadata.namespace across all namespaces', async () => {
    const list = assertOk(await call('GET', `/api/v1/configmaps?fieldSelector=${encodeURIComponent(`metadata.namespace=${NS},metadata.name=a`)}`));
    assert.deepEqual(
      list.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`),
      [`${NS}/a`],
    );
  });

  it('pods spec.nodeName across all namespaces (what a node agent watches)', async () => {
    const list = assertOk(await call('GET', `/api/v1/pods?fieldSelector=${encodeURIComponent('spec.nodeName=n2')}`));
    assert.deepEqual(
      list.items.map((i: any) => i.metadata.name),
      ['p2'],
    );
  });

  const unsupported: [string, string, string][] = [
    ['configmaps', CM, 'data.x'],
    ['configmaps spec', CM, 'spec.nodeName'],
    ['pods', `/api/v1/namespaces/${NS}/pods`, 'spec.bogus'],
    ['secrets', `/api/v1/namespaces/${NS}/secrets`, 'data'],
    ['core events', `/api/v1/namespaces/${NS}/events`, 'regarding.name'],
    ['events.orch.io', `/apis/events.orch.io/v1/namespaces/${NS}/events`, 'involvedObject.name'],
    ['namespaces (cluster-scoped: no metadata.namespace)', '/api/v1/namespaces', 'metadata.namespace'],
  ];
  for (const [title, path, field] of unsupported) {
    it(`unsupported field ${field} on ${title} is 400 field label not supported`, async () => {
      const msg = assertBadRequest(await call('GET', `${path}?fieldSelector=${encodeURIComponent(`${field}=x`)}`));
      assert.equal(msg, `field label not supported: ${field}`);
    });
  }

  const malformed: [string, RegExp][] = [
    ['metadata.name', /invalid selector: 'metadata.name'; can't understand 'metadata.name'/],
    ['metadata.name=a\\', /invalid escape sequence/],
    ['metadata.name=a\\x', /invalid escape sequence/],
    ['metadata.name=a,b', /can't understand 'b'/],
  ];
  for (const [selector, why] of malformed) {
    it(`malformed field selector ${JSON.stringify(selector)} is 400`, async () => {
      const msg = assertBadRequest(await call('GET', `${CM}?fieldSelector=${encodeURIComponent(selector)}`));
      assert.match(msg, why);
    });
  }

  it('escaped values match literally', async () => {
    assertOk(await call('POST', CM, { metadata: { name: 'f', annotations: { x: 'y' } } }), 201);
    assert.deepEqual(await names(CM, { fieldSelector: 'metadata.name=f\\,g' }), []);
    assert.deepEqual(await names(CM, { fieldSelector: 'metadata.name=f' }), ['f']);
    assertOk(await call('DELETE', `${CM}/f`));
  });
});

describe('pagination', () => {
  const PNS = 'pages';
  const PCM = `/api/v1/namespaces/${PNS}/configmaps`;
  const TOTAL = 23;

  before(async () => {
    assertOk(await call('POST', '/api/v1/namespaces', { metadata: { name: PNS } }), 201);
    for (let i = 0; i < TOTAL; i++) {
      assertOk(await call('POST', PCM, { metadata: { name: `cm-${String(i).padStart(2, '0')}`, labels: { parity: i % 2 === 0 ? 'even' : 'odd' } } }), 201);
    }
  });

  async function pages(
    path: string,
    limit: number,
    query: Record<string, string> = {},
    onPage?: (n: number) => Promise<void>,
  ): Promise<{ names: string[]; rvs: string[]; chunks: any[] }> {
    const all: string[] = [];
    const rvs: string[] = [];
    const chunks: any[] = [];
    let cont = '';
    for (let n = 0; n < 100; n++) {
      const q = new URLSearchParams({ ...query, limit: String(limit), ...(cont ? { continue: cont } : {}) });
      const list = assertOk(await call('GET', `${path}?${q}`));
      chunks.push(list);
      assert.ok(list.items.length <= limit, `chunk of ${list.items.length} > limit ${limit}`);
      all.push(...list.items.map((i: any) => i.metadata.name));
      rvs.push(list.metadata.resourceVersion);
      cont = list.metadata.continue ?? '';
      if (onPage) await onPage(n);
      if (!cont) return { names: all, rvs, chunks };
    }
    assert.fail('pagination did not end');
  }

  for (const limit of [1, 5, 7, 23, 50]) {
    it(`limit=${limit} returns every object exactly once, at one resourceVersion`, async () => {
      const { names: got, rvs, chunks } = await pages(PCM, limit);
      assert.equal(got.length, TOTAL);
      assert.equal(new Set(got).size, TOTAL, 'no duplicates');
      assert.deepEqual([...got].sort(), got, 'in key order');
      assert.equal(new Set(rvs).size, 1, `one resourceVersion across chunks: ${rvs}`);
      assert.equal(chunks.length, Math.ceil(TOTAL / limit) || 1);
      if (limit < TOTAL) assert.equal(chunks[0].metadata.remainingItemCount, TOTAL - limit);
      assert.equal(chunks[chunks.length - 1].metadata.continue, undefined);
    });
  }

  it('the chunks are a consistent snapshot: later writes do not show', async () => {
    let k = 0;
    const { names: got, rvs } = await pages(PCM, 4, {}, async (n) => {
      if (n === 0) {
        // Created after the first chunk, sorting before and after the cursor; deleted too.
        assertOk(await call('POST', PCM, { metadata: { name: 'cm-00a' } }), 201);
        assertOk(await call('POST', PCM, { metadata: { name: 'cm-zz' } }), 201);
        assertOk(await call('DELETE', `${PCM}/cm-20`));
        k++;
      }
    });
    assert.equal(k, 1);
    assert.equal(got.length, TOTAL);
    assert.ok(!got.includes('cm-00a') && !got.includes('cm-zz'), 'objects created after the first chunk are not listed');
    assert.ok(got.includes('cm-20'), 'an object deleted after the first chunk is still listed');
    assert.equal(new Set(rvs).size, 1);
    // Restore.
    assertOk(await call('DELETE', `${PCM}/cm-00a`));
    assertOk(await call('DELETE', `${PCM}/cm-zz`));
    assertOk(await call('POST', PCM, { metadata: { name: 'cm-20', labels: { parity: 'even' } } }), 201);
  });

  it('pagination with a label selector returns every match once', async () => {
    const { names: got } = await pages(PCM, 3, { labelSelector: 'parity=odd' });
    assert.equal(got.length, 11);
    assert.equal(new Set(got).size, 11);
  });

  it('pagination across all namespaces returns every object once', async () => {
    const full = assertOk(await call('GET', '/api/v1/configmaps'));
    const { names: got, rvs } = await pages('/api/v1/configmaps', 6);
    assert.equal(got.length, full.items.length);
    assert.equal(new Set(rvs).size, 1);
  });

  it('a tampered continue token is 400', async () => {
    const first = assertOk(await call('GET', `${PCM}?limit=5`));
    const token: string = first.metadata.continue;
    assert.ok(token);
    const decoded = Buffer.from(token, 'base64url').toString('utf8');
    const tampered = [
      'not-a-token',
      `${token}!!`,
      Buffer.from('{"nonsense":true}').toString('base64url'),
      Buffer.from(decoded.replace(/"rv":\d+/, '"rv":0')).toString('base64url'),
      Buffer.from(decoded.replace(/"start":"[^"]*"/, '"start":"../../secrets/"')).toString('base64url'),
      Buffer.from('[]').toString('base64url'),
    ];
    for (const t of tampered) {
      const r = await call('GET', `${PCM}?limit=5&continue=${encodeURIComponent(t)}`);
      assertBadRequest(r);
    }
  });

  it('continue with a resourceVersion other than 0 is 400', async () => {
    const first = assertOk(await call('GET', `${PCM}?limit=5`));
    assertBadRequest(
      await call('GET', `${PCM}?limit=5&continue=${encodeURIComponent(first.metadata.continue)}&resourceVersion=${first.metadata.resourceVersion}`),
    );
    assertOk(await call('GET', `${PCM}?limit=5&continue=${encodeURIComponent(first.metadata.continue)}&resourceVersion=0`));
  });

  it('a continue token of another namespace does not leak its objects', async () => {
    const first = assertOk(await call('GET', `${PCM}?limit=5`));
    const r = await call('GET', `${CM}?limit=5&continue=${encodeURIComponent(first.metadata.continue)}`);
    if (r.status === 200) {
      for (const i of r.json.items) assert.equal(i.metadata.namespace, NS);
    } else {
      assertBadRequest(r);
    }
  });

  for (const limit of ['abc', '1.5', '99999999999999999999']) {
    it(`limit=${limit} is 400`, async () => {
      assertBadRequest(await call('GET', `${PCM}?limit=${limit}`));
    });
  }

  it('limit=0 lists everything', async () => {
    const list = assertOk(await call('GET', `${PCM}?limit=0`));
    assert.equal(list.items.length, TOTAL);
    assert.equal(list.metadata.continue, undefined);
  });
});
