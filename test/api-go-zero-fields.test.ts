/**
 * Built-in objects come out with the fields upstream's Go encoder always writes, whoever wrote
 * them and however little they sent: value structs (a Service's `status: {loadBalancer: {}}`, a
 * container's `resources: {}`, a pod template's `creationTimestamp: null`) and fields without
 * omitempty (a Node's `nodeInfo` strings). The expected bodies are upstream's answers to the same
 * minimal JSON (as `kubectl get -o json` shows them on a cluster without controllers). Ownership
 * follows upstream's field manager: an Update owns the empty structs it brought (`f:resources`),
 * never what the type's zero value already has; an Apply owns only what it applied.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { openWatch } from './helpers/watch-client.js';
import { kubectlFor } from './helpers/kubectl.js';

let cluster: TestCluster;
let dir: string;
before(async () => {
  // Upstream's names (the namespace finalizer), and no controllers: objects stay as the API server wrote them.
  [cluster, dir] = await Promise.all([startTestCluster({ kubernetesCompat: true, controllerNames: [] }), mkdtemp(join(tmpdir(), 'go-zero-'))]);
  // Pods need their service account (no controller makes it here).
  await create(`${NS}/serviceaccounts`, { metadata: { name: 'default' } });
});
after(async () => {
  await cluster?.close();
  await rm(dir, { recursive: true, force: true });
});

const NS = '/api/v1/namespaces/default';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

async function create(path: string, body: object, query = ''): Promise<any> {
  const res = await request(cluster, 'POST', `${path}${query}`, { body });
  assert.equal(res.status, 201, res.text);
  return res.json;
}

async function get(path: string): Promise<any> {
  const res = await request(cluster, 'GET', path);
  assert.equal(res.status, 200, res.text);
  return res.json;
}

/** The fieldsV1 of the managedFields entry of manager. */
function fieldsOf(obj: any, manager: string): any {
  const entry = obj.metadata.managedFields.find((e: { manager: string }) => e.manager === manager);
  assert.ok(entry, `${manager} has a managedFields entry`);
  return entry.fieldsV1;
}

const CONTAINER = { name: 'c', image: 'nginx' };
/** A defaulted container as upstream answers it: `resources: {}` although nobody sent it. */
const DEFAULTED_CONTAINER = {
  name: 'c',
  image: 'nginx',
  resources: {},
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  imagePullPolicy: 'Always',
};

describe('fields Go always writes', () => {
  it('a Service: status.loadBalancer {} in the create answer, GET, LIST, watch and kubectl -o yaml', async () => {
    const watch = await openWatch(cluster, `${NS}/services?watch=1&fieldSelector=metadata.name=web`);
    try {
      const created = await create(`${NS}/services`, { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }], selector: { app: 'web' } } });
      assert.deepEqual(created.status, { loadBalancer: {} });
      assert.deepEqual((await get(`${NS}/services/web`)).status, { loadBalancer: {} });
      const items = (await get(`${NS}/services?fieldSelector=metadata.name=web`)).items;
      assert.deepEqual(items[0].status, { loadBalancer: {} });
      const added = await watch.next();
      assert.equal(added.type, 'ADDED');
      assert.deepEqual(added.object.status, { loadBalancer: {} });
      // targetPort is defaulted to the port before Go writes the IntOrString.
      assert.deepEqual(created.spec.ports, [{ port: 80, protocol: 'TCP', targetPort: 80 }]);
      // The empty status is the type's zero value: no writer owns it.
      assert.equal(fieldsOf(created, 'unknown')['f:status'], undefined);
    } finally {
      watch.close();
    }
    const yaml = await kubectlFor('1.33', cluster, join(dir, 'cache')).ok(['get', 'svc', 'web', '-o', 'yaml']);
    assert.match(yaml, /\nstatus:\n {2}loadBalancer: \{\}\n/);
  });

  it('a Deployment: the template keeps creationTimestamp: null, containers resources: {}', async () => {
    const created = await create(DEPLOYMENTS, {
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [CONTAINER] } } },
    });
    const expectedSpec = {
      replicas: 1,
      selector: { matchLabels: { app: 'd' } },
      template: {
        metadata: { creationTimestamp: null, labels: { app: 'd' } },
        spec: {
          containers: [DEFAULTED_CONTAINER],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    };
    assert.deepEqual(created.spec, expectedSpec);
    assert.deepEqual(created.status, {});
    const read = await get(`${DEPLOYMENTS}/d`);
    assert.deepEqual(read.spec, expectedSpec);
    assert.deepEqual(read.status, {});
    // As upstream's kubectl-create entries: the container's empty resources are owned (the zero
    // Deployment has no containers), the template's null creationTimestamp is not (it has one).
    const template = fieldsOf(read, 'unknown')['f:spec']['f:template'];
    assert.deepEqual(template['f:metadata'], { 'f:labels': { '.': {}, 'f:app': {} } });
    assert.deepEqual(template['f:spec']['f:containers']['k:{"name":"c"}']['f:resources'], {});
    assert.equal(fieldsOf(read, 'unknown')['f:status'], undefined);
  });

  it('a Pod: containers resources: {} (owned by its Update writer), status as the registry set it', async () => {
    const created = await create(
      `${NS}/pods`,
      { metadata: { name: 'p' }, spec: { containers: [CONTAINER], automountServiceAccountToken: false } },
      '?fieldManager=writer',
    );
    assert.deepEqual(created.spec.containers, [DEFAULTED_CONTAINER]);
    assert.deepEqual(created.status, { phase: 'Pending', qosClass: 'BestEffort' });
    assert.deepEqual(fieldsOf(created, 'writer')['f:spec']['f:containers']['k:{"name":"c"}']['f:resources'], {});
  });

  it('a Namespace and a ConfigMap: nothing to add', async () => {
    const ns = await create('/api/v1/namespaces', { metadata: { name: 'plain' } });
    assert.deepEqual(ns.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(ns.status, { phase: 'Active' });
    const cm = await create(`${NS}/configmaps`, { metadata: { name: 'cm' }, data: { a: '1' } });
    assert.deepEqual(Object.keys(cm), ['kind', 'apiVersion', 'metadata', 'data']);
  });

  it('a Node: spec {} and the status fields without omitempty', async () => {
    const node = await create('/api/v1/nodes', { metadata: { name: 'n1' } });
    assert.deepEqual(node.spec, {});
    assert.deepEqual(node.status, {
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: {
        machineID: '',
        systemUUID: '',
        bootID: '',
        kernelVersion: '',
        osImage: '',
        containerRuntimeVersion: '',
        kubeletVersion: '',
        kubeProxyVersion: '',
        operatingSystem: '',
        architecture: '',
      },
    });
    // The zero Node has them too: the creator owns nothing (its name is not tracked), no entry at all.
    assert.equal(node.metadata.managedFields, undefined);
  });

  it('server-side apply owns only what it applied; a re-apply and a GET-modify-PUT change nothing else', async () => {
    const applied = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'applied' },
      spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [CONTAINER] } } },
    };
    const apply = (body: object) =>
      request(cluster, 'PATCH', `${DEPLOYMENTS}/applied?fieldManager=tool`, { body, headers: { 'content-type': 'application/apply-patch+yaml' } });
    const first = await apply(applied);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.json.spec.template.metadata.creationTimestamp, null);
    assert.deepEqual(first.json.spec.template.spec.containers, [DEFAULTED_CONTAINER]);
    assert.deepEqual(first.json.status, {});
    assert.deepEqual(fieldsOf(first.json, 'tool'), {
      'f:spec': {
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    });
    const again = await apply(applied);
    assert.equal(again.status, 200);
    assert.equal(again.json.metadata.resourceVersion, first.json.metadata.resourceVersion);
    const put = await request(cluster, 'PUT', `${DEPLOYMENTS}/applied?fieldManager=editor`, { body: again.json });
    assert.equal(put.status, 200);
    assert.equal(put.json.metadata.resourceVersion, first.json.metadata.resourceVersion);
    assert.equal(
      put.json.metadata.managedFields.some((e: { manager: string }) => e.manager === 'editor'),
      false,
    );
  });

  it('kubectl apply then diff: no difference, client-side and server-side', async () => {
    const kubectl = kubectlFor('1.33', cluster, join(dir, 'cache'));
    const manifest = join(dir, 'diff.yaml');
    await writeFile(
      manifest,
      [
        'apiVersion: v1',
        'kind: Service',
        'metadata: {name: diffed}',
        'spec: {ports: [{port: 80}], selector: {app: diffed}}',
        '---',
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: diffed}',
        'spec:',
        '  selector: {matchLabels: {app: diffed}}',
        '  template:',
        '    metadata: {labels: {app: diffed}}',
        '    spec: {containers: [{name: c, image: nginx}]}',
        '',
      ].join('\n'),
    );
    await kubectl.ok(['apply', '-f', manifest]);
    const clientSide = await kubectl.run(['diff', '-f', manifest]);
    assert.equal(clientSide.code, 0, clientSide.stdout + clientSide.stderr);
    await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-f', manifest]);
    const serverSide = await kubectl.run(['diff', '--server-side', '--force-conflicts', '-f', manifest]);
    assert.equal(serverSide.code, 0, serverSide.stdout + serverSide.stderr);
  });
});
