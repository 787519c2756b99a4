/**
 * Discovery (legacy and aggregated), /version, the health endpoints exactly as the spec
 * describes them, HTTP/2 and HTTP/1.1 on one port, `--kubernetes-compat` names, and the
 * graceful stop (readyz fails first, watches close, then the port closes).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { request, requestH2, startTestCluster, type RawResponse, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;
let compat: TestCluster;

before(async () => {
  [cluster, compat] = await Promise.all([startTestCluster(), startTestCluster({ kubernetesCompat: true, shutdownDelayMs: 600 })]);
});

after(async () => {
  await Promise.all([cluster?.close(), compat?.close()]);
});

function get(path: string, headers?: Record<string, string>, on: TestCluster = cluster): Promise<RawResponse> {
  return request(on, 'GET', path, { headers });
}

function assertOk(r: RawResponse, code = 200): any {
  assert.equal(r.status, code, `expected ${code}, got ${r.status}: ${r.text.slice(0, 500)}`);
  return r.json;
}

type Scope = 'N' | 'C';
interface SpecType {
  group: string;
  name: string;
  kind: string;
  scope: Scope;
  shortNames?: string[];
}

/** The spec's "Resource types by group" plus the review resources, with upstream's kinds. */
const SPEC_TYPES: SpecType[] = [
  { group: '', name: 'bindings', kind: 'Binding', scope: 'N' },
  { group: '', name: 'componentstatuses', kind: 'ComponentStatus', scope: 'C', shortNames: ['cs'] },
  { group: '', name: 'configmaps', kind: 'ConfigMap', scope: 'N', shortNames: ['cm'] },
  { group: '', name: 'endpoints', kind: 'Endpoints', scope: 'N', shortNames: ['ep'] },
  { group: '', name: 'events', kind: 'Event', scope: 'N', shortNames: ['ev'] },
  { group: '', name: 'limitranges', kind: 'LimitRange', scope: 'N', shortNames: ['limits'] },
  { group: '', name: 'namespaces', kind: 'Namespace', scope: 'C', shortNames: ['ns'] },
  { group: '', name: 'nodes', kind: 'Node', scope: 'C', shortNames: ['no'] },
  { group: '', name: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', scope: 'N', shortNames: ['pvc'] },
  { group: '', name: 'persistentvolumes', kind: 'PersistentVolume', scope: 'C', shortNames: ['pv'] },
  { group: '', name: 'pods', kind: 'Pod', scope: 'N', shortNames: ['po'] },
  { group: '', name: 'podtemplates', kind: 'PodTemplate', scope: 'N' },
  { group: '', name: 'replicationcontrollers', kind: 'ReplicationController', scope: 'N', shortNames: ['rc'] },
  { group: '', name: 'resourcequotas', kind: 'ResourceQuota', scope: 'N', shortNames: ['quota'] },
  { group: '', name: 'secrets', kind: 'Secret', scope: 'N' },
  { group: '', name: 'serviceaccounts', kind: 'ServiceAccount', scope: 'N', shortNames: ['sa'] },
  { group: '', name: 'services', kind: 'Service', scope: 'N', shortNames: ['svc'] },
  { group: 'admissionregistration.orch.io', name: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', scope: 'C' },
  { group: 'admissionregistration.orch.io', name: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', scope: 'C' },
  { group: 'apiextensions.orch.io', name: 'customresourcedefinitions', kind: 'CustomResourceDefinition', scope: 'C', shortNames: ['crd', 'crds'] },
  { group: 'apiregistration.orch.io', name: 'apiservices', kind: 'APIService', scope: 'C' },
  { group: 'apps', name: 'controllerrevisions', kind: 'ControllerRevision', scope: 'N' },
  { group: 'apps', name: 'daemonsets', kind: 'DaemonSet', scope: 'N', shortNames: ['ds'] },
  { group: 'apps', name: 'deployments', kind: 'Deployment', scope: 'N', shortNames: ['deploy'] },
  { group: 'apps', name: 'replicasets', kind: 'ReplicaSet', scope: 'N', shortNames: ['rs'] },
  { group: 'apps', name: 'statefulsets', kind: 'StatefulSet', scope: 'N', shortNames: ['sts'] },
  { group: 'autoscaling', name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', scope: 'N', shortNames: ['hpa'] },
  { group: 'batch', name: 'cronjobs', kind: 'CronJob', scope: 'N', shortNames: ['cj'] },
  { group: 'batch', name: 'jobs', kind: 'Job', scope: 'N' },
  { group: 'certificates.orch.io', name: 'certificatesigningrequests', kind: 'CertificateSigningRequest', scope: 'C', shortNames: ['csr'] },
  { group: 'coordination.orch.io', name: 'leases', kind: 'Lease', scope: 'N' },
  { group: 'discovery.orch.io', name: 'endpointslices', kind: 'EndpointSlice', scope: 'N' },
  { group: 'events.orch.io', name: 'events', kind: 'Event', scope: 'N', shortNames: ['ev'] },
  { group: 'extensions', name: 'ingresses', kind: 'Ingress', scope: 'N', shortNames: ['ing'] },
  { group: 'flowcontrol.apiserver.orch.io', name: 'flowschemas', kind: 'FlowSchema', scope: 'C' },
  { group: 'flowcontrol.apiserver.orch.io', name: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', scope: 'C' },
  { group: 'networking.orch.io', name: 'ingressclasses', kind: 'IngressClass', scope: 'C' },
  { group: 'networking.orch.io', name: 'ingresses', kind: 'Ingress', scope: 'N', shortNames: ['ing'] },
  { group: 'networking.orch.io', name: 'networkpolicies', kind: 'NetworkPolicy', scope: 'N', shortNames: ['netpol'] },
  { group: 'node.orch.io', name: 'runtimeclasses', kind: 'RuntimeClass', scope: 'C' },
  { group: 'policy', name: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', scope: 'N', shortNames: ['pdb'] },
  { group: 'policy', name: 'podsecuritypolicies', kind: 'PodSecurityPolicy', scope: 'C', shortNames: ['psp'] },
  { group: 'rbac.authorization.orch.io', name: 'clusterrolebindings', kind: 'ClusterRoleBinding', scope: 'C' },
  { group: 'rbac.authorization.orch.io', name: 'clusterroles', kind: 'ClusterRole', scope: 'C' },
  { group: 'rbac.authorization.orch.io', name: 'rolebindings', kind: 'RoleBinding', scope: 'N' },
  { group: 'rbac.authorization.orch.io', name: 'roles', kind: 'Role', scope: 'N' },
  { group: 'scheduling.orch.io', name: 'priorityclasses', kind: 'PriorityClass', scope: 'C', shortNames: ['pc'] },
  { group: 'storage.orch.io', name: 'csidrivers', kind: 'CSIDriver', scope: 'C' },
  { group: 'storage.orch.io', name: 'csinodes', kind: 'CSINode', scope: 'C' },
  { group: 'storage.orch.io', name: 'storageclasses', kind: 'StorageClass', scope: 'C', shortNames: ['sc'] },
  { group: 'storage.orch.io', name: 'volumeattachments', kind: 'VolumeAttachment', scope: 'C' },
  { group: 'authentication.orch.io', name: 'tokenreviews', kind: 'TokenReview', scope: 'C' },
  { group: 'authorization.orch.io', name: 'subjectaccessreviews', kind: 'SubjectAccessReview', scope: 'C' },
  { group: 'authorization.orch.io', name: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', scope: 'C' },
  { group: 'authorization.orch.io', name: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', scope: 'C' },
  { group: 'authorization.orch.io', name: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', scope: 'N' },
];
const REVIEWS = new Set(['tokenreviews', 'subjectaccessreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'localsubjectaccessreviews']);
/** Upstream's `all` category. */
const CATEGORY_ALL = new Set([
  'pods',
  'replicationcontrollers',
  'services',
  'daemonsets',
  'deployments',
  'replicasets',
  'statefulsets',
  'horizontalpodautoscalers',
  'cronjobs',
  'jobs',
]);
const SPEC_GROUPS = [...new Set(SPEC_TYPES.map((t) => t.group).filter((g) => g !== ''))];

/** Every APIResource served, by `<group>/<resource>`, from the legacy discovery documents. */
async function servedResources(on: TestCluster = cluster): Promise<Map<string, { groupVersion: string; r: any }>> {
  const out = new Map<string, { groupVersion: string; r: any }>();
  const lists = [assertOk(await get('/api/v1', undefined, on))];
  const groups = assertOk(await get('/apis', undefined, on)).groups;
  for (const g of groups) for (const v of g.versions) lists.push(assertOk(await get(`/apis/${v.groupVersion}`, undefined, on)));
  for (const list of lists) {
    assert.equal(list.kind, 'APIResourceList');
    const group = list.groupVersion.includes('/') ? list.groupVersion.split('/')[0] : '';
    for (const r of list.resources) {
      const key = `${group}/${r.name}`;
      if (!out.has(key)) out.set(key, { groupVersion: list.groupVersion, r });
    }
  }
  return out;
}

describe('legacy discovery', () => {
  it('/api lists v1', async () => {
    const d = assertOk(await get('/api'));
    assert.equal(d.kind, 'APIVersions');
    assert.deepEqual(d.versions, ['v1']);
    assert.ok(Array.isArray(d.serverAddressByClientCIDRs));
  });

  it('/apis lists every group of the spec with a preferred version', async () => {
    const d = assertOk(await get('/apis'));
    assert.equal(d.kind, 'APIGroupList');
    const names = d.groups.map((g: any) => g.name);
    for (const g of SPEC_GROUPS) assert.ok(names.includes(g), `group ${g} served (got ${names})`);
    for (const g of d.groups) {
      assert.ok(g.versions.length > 0, g.name);
      assert.ok(
        g.versions.some((v: any) => v.groupVersion === g.preferredVersion.groupVersion),
        `${g.name}: preferred version is served`,
      );
      for (const v of g.versions) assert.equal(v.groupVersion, `${g.name}/${v.version}`);
    }
    assert.equal(names.includes(''), false, 'the core group is not in /apis');
  });

  it('each group prefers its newest stable version where one exists', async () => {
    const d = assertOk(await get('/apis'));
    const preferred = Object.fromEntries(d.groups.map((g: any) => [g.name, g.preferredVersion.version]));
    for (const g of [
      'apps',
      'batch',
      'policy',
      'rbac.authorization.orch.io',
      'events.orch.io',
      'networking.orch.io',
      'storage.orch.io',
      'scheduling.orch.io',
      'coordination.orch.io',
      'discovery.orch.io',
      'certificates.orch.io',
      'node.orch.io',
    ]) {
      assert.equal(preferred[g], 'v1', g);
    }
    // autoscaling/v2 is stable in 1.25 and preferred over v1.
    assert.equal(preferred.autoscaling, 'v2');
    assert.equal(preferred.extensions, 'v1beta1');
    assert.match(preferred['flowcontrol.apiserver.orch.io'], /^v1beta\d$/);
  });

  for (const g of SPEC_GROUPS) {
    it(`/apis/${g} is its APIGroup`, async () => {
      const d = assertOk(await get(`/apis/${g}`));
      assert.equal(d.kind, 'APIGroup');
      assert.equal(d.name, g);
      assert.ok(d.preferredVersion.groupVersion.startsWith(`${g}/`));
    });
  }

  it('every resource type of the spec is served with its kind, scope, short names and singular name', async () => {
    const served = await servedResources();
    const missing: string[] = [];
    for (const t of SPEC_TYPES) {
      const s = served.get(`${t.group}/${t.name}`);
      if (!s) {
        missing.push(`${t.group}/${t.name}`);
        continue;
      }
      const what = `${t.group || 'core'}/${t.name}`;
      assert.equal(s.r.kind, t.kind, `${what} kind`);
      assert.equal(s.r.namespaced, t.scope === 'N', `${what} namespaced`);
      assert.deepEqual([...(s.r.shortNames ?? [])].sort(), [...(t.shortNames ?? [])].sort(), `${what} shortNames`);
      assert.equal(s.r.singularName, t.kind.toLowerCase(), `${what} singularName`);
      assert.ok(Array.isArray(s.r.verbs) && s.r.verbs.length > 0, `${what} verbs`);
    }
    assert.deepEqual(missing, []);
  });

  it('verbs say what each resource supports', async () => {
    const served = await servedResources();
    const all = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
    assert.deepEqual([...served.get('/configmaps')!.r.verbs].sort(), all);
    assert.deepEqual([...served.get('apps/deployments')!.r.verbs].sort(), all);
    assert.deepEqual(
      [...served.get('/namespaces')!.r.verbs].sort(),
      all.filter((v) => v !== 'deletecollection'),
    );
    assert.deepEqual(served.get('/bindings')!.r.verbs, ['create']);
    assert.deepEqual([...served.get('/componentstatuses')!.r.verbs].sort(), ['get', 'list']);
    for (const review of REVIEWS) {
      const entry = [...served.entries()].find(([k]) => k.endsWith(`/${review}`));
      assert.ok(entry, review);
      assert.deepEqual(entry[1].r.verbs, ['create'], review);
    }
  });

  it('categories include `all` exactly on the workload types', async () => {
    const served = await servedResources();
    for (const [key, { r }] of served) {
      if (r.name.includes('/')) continue;
      const inAll = (r.categories ?? []).includes('all');
      assert.equal(inAll, CATEGORY_ALL.has(r.name) && !key.startsWith('extensions/'), `${key} categories ${JSON.stringify(r.categories)}`);
    }
    assert.ok(served.get('/pods')!.r.categories.includes('all'));
  });

  it('status subresources are listed', async () => {
    const served = await servedResources();
    for (const key of ['/pods/status', 'apps/deployments/status', '/namespaces/status', '/nodes/status', '/namespaces/finalize']) {
      const s = served.get(key);
      assert.ok(s, `${key} listed`);
    }
    assert.deepEqual([...served.get('/pods/status')!.r.verbs].sort(), ['get', 'patch', 'update']);
    assert.deepEqual(served.get('/namespaces/finalize')!.r.verbs, ['update']);
    assert.equal(served.get('/configmaps/status'), undefined);
  });

  it("stored resources carry upstream's storageVersionHash; subresources and reviews none", async () => {
    const served = await servedResources(compat);
    // The values a 1.27-1.33 apiserver serves (sha256 of the storage group/version/kind).
    const expected: [string, string][] = [
      ['/pods', 'xPOwRZ+Yhw8='],
      ['/configmaps', 'qFsyl6wFWjQ='],
      ['apps/deployments', '8aSe+NMegvE='],
      // events.k8s.io shares the core Events' storage, so it reports their hash.
      ['/events', 'r2yiGXH7wu8='],
      ['events.k8s.io/events', 'r2yiGXH7wu8='],
    ];
    for (const [key, hash] of expected) assert.equal(served.get(key)?.r.storageVersionHash, hash, key);
    assert.equal(served.get('/pods/status')?.r.storageVersionHash, undefined);
    assert.equal(served.get('authorization.k8s.io/subjectaccessreviews')?.r.storageVersionHash, undefined);
    const configmaps = (await get('/api/v1', undefined, compat)).text;
    assert.ok(configmaps.endsWith('}]}\n'), 'an APIResourceList ends as json.Encoder ends it');
    assert.match(
      configmaps,
      /\{"name":"configmaps","singularName":"configmap","namespaced":true,"kind":"ConfigMap","verbs":\[[^\]]*\],"shortNames":\["cm"\],"storageVersionHash":"qFsyl6wFWjQ="\}/,
    );
  });

  it('every listable type answers a list at its discovered path', async () => {
    const served = await servedResources();
    for (const [, { groupVersion, r }] of served) {
      if (r.name.includes('/') || !r.verbs.includes('list')) continue;
      const base = groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
      const path = r.namespaced ? `${base}/namespaces/default/${r.name}` : `${base}/${r.name}`;
      const list = assertOk(await get(path));
      assert.equal(list.kind, `${r.kind}List`, path);
      assert.ok(Array.isArray(list.items), path);
    }
  });

  it('/version answers version.Info', async () => {
    const v = assertOk(await get('/version'));
    assert.equal(v.major, '1');
    assert.match(v.minor, /^\d+\+?$/);
    assert.match(v.gitVersion, /^v1\.\d+\.\d+/);
    assert.match(v.platform, /^\w+\/\w+$/);
    for (const k of ['gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler']) assert.equal(typeof v[k], 'string', k);
    // WriteRawJSON: indented, without the encoder's newline.
    assert.equal((await get('/version')).text, JSON.stringify(v, null, 2));
  });
});

describe('aggregated discovery', () => {
  for (const version of ['v2', 'v2beta1']) {
    const accept = `application/json;g=apidiscovery.orch.io;v=${version};as=APIGroupDiscoveryList`;

    it(`/apis with Accept ${version} answers an APIGroupDiscoveryList of every group`, async () => {
      const r = await get('/apis', { accept });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], accept);
      assert.equal(r.json.kind, 'APIGroupDiscoveryList');
      assert.equal(r.json.apiVersion, `apidiscovery.orch.io/${version}`);
      const names = r.json.items.map((i: any) => i.metadata.name);
      for (const g of SPEC_GROUPS) assert.ok(names.includes(g), `${g} in ${names}`);
      const apps = r.json.items.find((i: any) => i.metadata.name === 'apps');
      const v1 = apps.versions.find((v: any) => v.version === 'v1');
      const deploy = v1.resources.find((x: any) => x.resource === 'deployments');
      assert.equal(deploy.scope, 'Namespaced');
      assert.equal(deploy.singularResource, 'deployment');
      assert.deepEqual(deploy.responseKind, { group: 'apps', version: 'v1', kind: 'Deployment' });
      assert.deepEqual(deploy.shortNames, ['deploy']);
      assert.ok(deploy.categories.includes('all'));
      assert.ok(deploy.subresources.some((s: any) => s.subresource === 'status'));
    });

    it(`/api with Accept ${version} answers the core group`, async () => {
      const r = await get('/api', { accept });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], accept);
      assert.equal(r.json.kind, 'APIGroupDiscoveryList');
      assert.equal(r.json.items.length, 1);
      const core = r.json.items[0];
      assert.equal(core.metadata.name, '');
      const pods = core.versions[0].resources.find((x: any) => x.resource === 'pods');
      assert.equal(pods.scope, 'Namespaced');
      assert.deepEqual(pods.responseKind, { group: '', version: 'v1', kind: 'Pod' });
      assert.ok(pods.categories.includes('all'));
      const ns = core.versions[0].resources.find((x: any) => x.resource === 'namespaces');
      assert.equal(ns.scope, 'Cluster');
    });
  }

  it('the first aggregated type the client lists wins; plain JSON is the fallback', async () => {
    const both =
      'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.orch.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
    assert.equal((await get('/apis', { accept: both })).json.apiVersion, 'apidiscovery.orch.io/v2');
    const unknownThenJson = 'application/json;g=apidiscovery.orch.io;v=v9;as=APIGroupDiscoveryList,application/json';
    const r = await get('/apis', { accept: unknownThenJson });
    assert.equal(r.status, 200);
    assert.equal(r.json.kind, 'APIGroupList');
    const other = await get('/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' });
    assert.equal(other.json.kind, 'APIGroupList', "another brand's discovery group is not ours");
  });

  it('without the aggregated Accept, /apis and /api are plain JSON', async () => {
    for (const accept of [undefined, 'application/json', '*/*']) {
      const apis = await get('/apis', accept ? { accept } : undefined);
      assert.equal(apis.json.kind, 'APIGroupList');
      assert.match(String(apis.headers['content-type']), /^application\/json$/);
      assert.equal((await get('/api', accept ? { accept } : undefined)).json.kind, 'APIVersions');
    }
  });
});

describe('health endpoints', () => {
  const ENDPOINTS = ['healthz', 'livez', 'readyz'] as const;

  async function checkNames(endpoint: string): Promise<string[]> {
    const r = await get(`/${endpoint}?verbose`);
    return r.text
      .trim()
      .split('\n')
      .slice(0, -1)
      .map((l) => l.replace(/^\[\+\]/, '').replace(/ ok$/, ''));
  }

  for (const endpoint of ENDPOINTS) {
    it(`/${endpoint} answers 200 ok`, async () => {
      const r = await get(`/${endpoint}`);
      assert.equal(r.status, 200);
      assert.equal(r.text, 'ok');
      assert.match(String(r.headers['content-type']), /^text\/plain/);
    });

    it(`/${endpoint}?verbose lists one [+]<name> ok line per check and ends with "${endpoint} check passed"`, async () => {
      const r = await get(`/${endpoint}?verbose`);
      assert.equal(r.status, 200);
      const lines = r.text.split('\n');
      assert.equal(lines.pop(), '', 'ends with a newline');
      assert.equal(lines.pop(), `${endpoint} check passed`);
      assert.equal(lines[0], '[+]ping ok');
      assert.ok(lines.includes('[+]log ok'));
      for (const l of lines) assert.match(l, /^\[\+\][\w/.:-]+ ok$/);
      assert.ok(
        lines.some((l) => l.startsWith('[+]poststarthook/')),
        'post-start hooks listed',
      );
      assert.ok(lines.length >= 4, 'ping, log, storage and hooks');
      // The spec's list: admission initializer, informers, extension informers/controllers, CRD
      // informer synced, bootstrap controller and roles, system priority classes, authentication
      // info, aggregator informers, API-service registration and status, auto-registration.
      for (const hook of [
        'start-kube-apiserver-admission-initializer',
        'generic-apiserver-start-informers',
        'start-apiextensions-informers',
        'start-apiextensions-controllers',
        'crd-informer-synced',
        'bootstrap-controller',
        'rbac/bootstrap-roles',
        'scheduling/bootstrap-system-priority-classes',
        'start-cluster-authentication-info-controller',
        'start-kube-aggregator-informers',
        'apiservice-registration-controller',
        'apiservice-status-available-controller',
        'kube-apiserver-autoregistration',
      ]) {
        assert.ok(lines.includes(`[+]poststarthook/${hook} ok`), `${endpoint} lacks poststarthook/${hook}`);
      }
      assert.ok(lines.includes('[+]autoregister-completion ok'));
      assert.equal(lines.includes('[+]shutdown ok'), endpoint === 'readyz', 'only readyz has the shutdown check');
    });

    it(`/${endpoint}?verbose=true also is verbose; verbose=false too (upstream checks presence)`, async () => {
      assert.match((await get(`/${endpoint}?verbose=true`)).text, /check passed/);
    });

    it(`/${endpoint}?exclude=ping reports it excluded`, async () => {
      const quiet = await get(`/${endpoint}?exclude=ping`);
      assert.equal(quiet.status, 200);
      assert.equal(quiet.text, 'ok');
      const r = await get(`/${endpoint}?verbose&exclude=ping&exclude=log`);
      assert.equal(r.status, 200);
      const lines = r.text.trim().split('\n');
      assert.equal(lines[0], '[+]ping excluded: ok');
      assert.ok(lines.includes('[+]log excluded: ok'));
      assert.ok(!lines.includes('[+]ping ok'));
      assert.equal(lines[lines.length - 1], `${endpoint} check passed`);
    });

    it(`/${endpoint}?exclude of an unknown check warns and still passes`, async () => {
      const r = await get(`/${endpoint}?verbose&exclude=nope`);
      assert.equal(r.status, 200);
      assert.match(r.text, /warn: some health checks cannot be excluded: no matches for "nope"/);
    });

    it(`/${endpoint}/<name> answers every check listed by verbose`, async () => {
      const names = await checkNames(endpoint);
      assert.ok(names.length > 0);
      for (const name of names) {
        const r = await get(`/${endpoint}/${name}`);
        assert.equal(r.status, 200, `/${endpoint}/${name}: ${r.status} ${r.text}`);
        assert.equal(r.text, 'ok', `/${endpoint}/${name}`);
      }
    });

    it(`/${endpoint}/<unknown> is 404`, async () => {
      assert.equal((await get(`/${endpoint}/no-such-check`)).status, 404);
    });
  }

  it('/livez/ping and /readyz/ping answer ok', async () => {
    for (const p of ['/livez/ping', '/readyz/ping', '/healthz/ping']) {
      const r = await get(p);
      assert.equal(r.status, 200);
      assert.equal(r.text, 'ok');
    }
  });

  it('the system priority classes exist once the server is ready', async () => {
    const pcs = assertOk(await get('/apis/scheduling.orch.io/v1/priorityclasses'));
    const byName = Object.fromEntries(pcs.items.map((p: any) => [p.metadata.name, p]));
    assert.equal(byName['system-node-critical']?.value, 2000001000);
    assert.equal(byName['system-cluster-critical']?.value, 2000000000);
  });
});

describe('HTTP/2 and HTTP/1.1 on one port', () => {
  it('HTTP/2 (ALPN h2) serves health and resources', async () => {
    const h = await requestH2(cluster, '/readyz');
    assert.equal(h.alpn, 'h2');
    assert.equal(h.status, 200);
    assert.equal(h.text, 'ok');
    const ns = await requestH2(cluster, '/api/v1/namespaces/default');
    assert.equal(ns.status, 200);
    assert.equal(JSON.parse(ns.text).metadata.name, 'default');
  });

  it('HTTP/1.1 (ALPN http/1.1) serves health and resources', async () => {
    const url = new URL(cluster.url);
    const once = (path: string) =>
      new Promise<{ status: number; version: string; alpn: string | false | null; text: string }>((resolve, reject) => {
        const opts: https.RequestOptions & { ALPNProtocols: string[] } = {
          host: url.hostname,
          port: url.port,
          path,
          method: 'GET',
          agent: false,
          ALPNProtocols: ['http/1.1'],
          ca: cluster.caPem,
          cert: cluster.adminCertPem,
          key: cluster.adminKeyPem,
        };
        const req = https.request(opts, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              version: res.httpVersion,
              alpn: (res.socket as import('node:tls').TLSSocket).alpnProtocol,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    const r = await once('/readyz');
    assert.equal(r.version, '1.1');
    assert.equal(r.alpn, 'http/1.1');
    assert.equal(r.status, 200);
    assert.equal(r.text, 'ok');
    const ns = await once('/api/v1/namespaces/default');
    assert.equal(JSON.parse(ns.text).metadata.name, 'default');
  });

  it('HTTP/2 and HTTP/1.1 see the same data', async () => {
    assertOk(await request(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'via-h1' } } }), 201);
    const h = await requestH2(cluster, '/api/v1/namespaces/default/configmaps/via-h1');
    assert.equal(h.status, 200);
    assert.equal(JSON.parse(h.text).metadata.name, 'via-h1');
  });
});

describe('--kubernetes-compat', () => {
  it('serves Kubernetes group names and no orch.io group', async () => {
    const r = await get('/apis', undefined, compat);
    const names: string[] = r.json.groups.map((g: any) => g.name);
    for (const g of SPEC_GROUPS) {
      const k8s = g.replace(/orch\.io$/, 'k8s.io');
      assert.ok(names.includes(k8s), `${k8s} in ${names}`);
    }
    assert.ok(!r.text.includes('orch.io'), 'no orch.io anywhere in /apis');
    assert.ok(!(await get('/api/v1', undefined, compat)).text.includes('orch'), 'no orch in /api/v1');
  });

  it('serves resources under the Kubernetes group paths only', async () => {
    assertOk(await get('/apis/rbac.authorization.k8s.io/v1/clusterroles', undefined, compat));
    assertOk(await get('/apis/events.k8s.io/v1/namespaces/default/events', undefined, compat));
    assert.equal((await get('/apis/rbac.authorization.orch.io/v1/clusterroles', undefined, compat)).status, 404);
  });

  it('creates default, kube-system, kube-public and kube-node-lease', async () => {
    const names = assertOk(await get('/api/v1/namespaces', undefined, compat))
      .items.map((i: any) => i.metadata.name)
      .sort();
    assert.deepEqual(names, ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  });

  it('has the system priority classes', async () => {
    const pcs = assertOk(await get('/apis/scheduling.k8s.io/v1/priorityclasses', undefined, compat));
    assert.deepEqual(pcs.items.map((p: any) => p.metadata.name).sort(), ['system-cluster-critical', 'system-node-critical']);
  });

  it('aggregated discovery uses apidiscovery.k8s.io', async () => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
    const r = await get('/apis', { accept }, compat);
    assert.equal(r.headers['content-type'], accept);
    assert.equal(r.json.apiVersion, 'apidiscovery.k8s.io/v2');
  });

  it('new namespaces carry the kubernetes finalizer; kube-system may not be deleted', async () => {
    const ns = assertOk(await request(compat, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'compat-ns' } } }), 201);
    assert.deepEqual(ns.spec.finalizers, ['kubernetes']);
    for (const name of ['kube-system', 'kube-public', 'default']) {
      assert.equal((await request(compat, 'DELETE', `/api/v1/namespaces/${name}`)).status, 403, name);
    }
  });
});

describe('graceful stop', () => {
  it('readyz fails first while livez stays ok, watches close, then the port closes', async () => {
    // A watch open across the stop must end, not hang.
    const watch = request(compat, 'GET', '/api/v1/namespaces/default/configmaps?watch=true');
    await new Promise((r) => setTimeout(r, 100));
    const stopping = compat.stop();
    await new Promise((r) => setTimeout(r, 150));
    const ready = await get('/readyz?verbose', undefined, compat);
    assert.equal(ready.status, 500, ready.text);
    assert.match(ready.text, /^\[-\]shutdown failed/m);
    assert.match(ready.text, /readyz check failed\n$/);
    assert.equal((await get('/readyz', undefined, compat)).status, 500);
    const single = await get('/readyz/shutdown', undefined, compat);
    assert.equal(single.status, 500);
    const live = await get('/livez', undefined, compat);
    assert.equal(live.status, 200, 'still live while draining');
    const w = await watch;
    assert.equal(w.status, 200, 'the watch ended cleanly');
    await stopping;
    await assert.rejects(get('/readyz', undefined, compat), /ECONNREFUSED|ECONNRESET|socket hang up/);
  });
});
