/**
 * API aggregation end to end: a tiny aggregated API server started here (HTTPS on loopback,
 * serving wardle.example.com/v1alpha1 flunders) is registered by an APIService pointing at an
 * ExternalName Service; orch checks it (Available=True), lists it in discovery, and proxies
 * kubectl's requests to it with the caller's identity in the front-proxy headers and orch's
 * proxy client certificate, which the server verifies against the request-header CA orch
 * publishes. Unauthorized callers are refused by orch; a stopped server is Available=False
 * with upstream's reason and answered 503. Built-in group versions have Local APIServices;
 * a CRD's versions get APIServices while it exists.
 */
import assert from 'node:assert/strict';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import { ensureCertificates } from '../src/pki/certificates.js';
import { eventually, request } from './helpers/cluster.js';
import { assertOk } from './helpers/invalid.js';
import { kubectlWorkspace, parseTable, rowNamed } from './helpers/kubectl.js';

const GROUP = 'wardle.example.com';
const VERSION = 'v1alpha1';
const APISERVICE = `${VERSION}.${GROUP}`;
const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';
const NAMESPACE = 'wardle';

/** What the aggregated server saw of each request: path, identity headers, whether orch's client certificate was verified. */
interface Seen {
  path: string;
  user: string | undefined;
  groups: string[];
  extra: Record<string, string[]>;
  authorization: string | undefined;
  proxyCertificate: string | undefined;
}

const flunder = (name: string) => ({
  apiVersion: `${GROUP}/${VERSION}`,
  kind: 'Flunder',
  metadata: { name, namespace: NAMESPACE, uid: `uid-${name}`, resourceVersion: '1', creationTimestamp: '2024-01-02T03:04:05Z' },
  spec: { reference: name },
});

const RESOURCE_LIST = {
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: `${GROUP}/${VERSION}`,
  resources: [
    { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list', 'watch'], shortNames: ['fl'] },
    { name: 'flunders/status', singularName: '', namespaced: true, kind: 'Flunder', verbs: ['get'] },
  ],
};

/** Every value of a header, as sent (one per line). */
function headerValues(req: IncomingMessage, name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === name) out.push(req.rawHeaders[i + 1]);
  return out;
}

/** The wardle server: discovery, list, get and a watch that sends one event and stays open; refuses a client orch's CA did not sign. */
function wardleServer(certPem: string, keyPem: string, requestHeaderCaPem: string, seen: Seen[]): https.Server {
  return https.createServer({ cert: certPem, key: keyPem, ca: requestHeaderCaPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const socket = req.socket as TLSSocket;
    const peer = socket.authorized ? String(socket.getPeerCertificate().subject?.CN) : undefined;
    const extra: Record<string, string[]> = {};
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const m = /^x-remote-extra-(.+)$/i.exec(req.rawHeaders[i]);
      if (m) extra[decodeURIComponent(m[1]).toLowerCase()] = [...(extra[decodeURIComponent(m[1]).toLowerCase()] ?? []), req.rawHeaders[i + 1]];
    }
    const url = new URL(req.url ?? '/', 'https://wardle');
    seen.push({
      path: url.pathname,
      user: headerValues(req, 'x-remote-user')[0],
      groups: headerValues(req, 'x-remote-group'),
      extra,
      authorization: req.headers.authorization,
      proxyCertificate: peer,
    });
    const json = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    // As a real aggregated server: only the front proxy may name the user in headers.
    if (peer !== 'front-proxy-client') return json(401, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401 });
    const base = `/apis/${GROUP}/${VERSION}`;
    const collection = `${base}/namespaces/${NAMESPACE}/flunders`;
    if (url.pathname === base) return json(200, RESOURCE_LIST);
    if (url.pathname === collection && url.searchParams.get('watch') === 'true') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${JSON.stringify({ type: 'ADDED', object: flunder('alpha') })}\n`);
      return; // stays open: the watch ends when the client goes
    }
    if (url.pathname === collection) {
      return json(200, {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'FlunderList',
        metadata: { resourceVersion: '1' },
        items: [flunder('alpha'), flunder('beta')],
      });
    }
    const named = /^\/apis\/wardle\.example\.com\/v1alpha1\/namespaces\/wardle\/flunders\/([a-z]+)$/.exec(url.pathname);
    if (named && (named[1] === 'alpha' || named[1] === 'beta')) return json(200, flunder(named[1]));
    return json(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
  });
}

describe('API aggregation', () => {
  const ws = kubectlWorkspace({ storageBackend: 'memory', kubernetesCompat: true });
  const kubectl = ws.kubectl('1.33');
  const seen: Seen[] = [];
  let server: https.Server;
  let port: number;
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    request(ws.cluster, method, path, { ...(body === undefined ? {} : { body: body as object }), ...(headers ? { headers } : {}) });
  const available = async () =>
    (await call('GET', `${APISERVICES}/${APISERVICE}`)).json?.status?.conditions?.find((c: { type: string }) => c.type === 'Available');

  before(async () => {
    // The aggregated server trusts the request-header CA orch publishes, as a real one reads it.
    const authn = assertOk(await call('GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication'));
    const requestHeaderCa: string = authn.data['requestheader-client-ca-file'];
    assert.match(requestHeaderCa, /BEGIN CERTIFICATE/);
    assert.equal(authn.data['requestheader-allowed-names'], '["front-proxy-client"]');
    const pki = await ensureCertificates(join(ws.dir, 'wardle-pki'), { hosts: ['localhost', `api.${NAMESPACE}.svc`], ips: ['127.0.0.1'] });
    server = wardleServer(pki.serverCertPem, pki.serverKeyPem, requestHeaderCa, seen);
    // A watch over WebSocket: the server greets with one event, naming who orch says is calling.
    const wss = new WebSocketServer({ server });
    wss.on('connection', (socket, req) => {
      socket.send(JSON.stringify({ type: 'ADDED', object: flunder('alpha'), caller: headerValues(req, 'x-remote-user')[0] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    assertOk(await call('POST', '/api/v1/namespaces', { metadata: { name: NAMESPACE } }), 201);
    // Endpoints may not be loopback addresses: a local server is reached through an ExternalName Service.
    assertOk(
      await call('POST', `/api/v1/namespaces/${NAMESPACE}/services`, { metadata: { name: 'api' }, spec: { type: 'ExternalName', externalName: 'localhost' } }),
      201,
    );
    assertOk(
      await call('POST', APISERVICES, {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: APISERVICE },
        spec: {
          group: GROUP,
          version: VERSION,
          service: { namespace: NAMESPACE, name: 'api', port },
          caBundle: Buffer.from(pki.caCertPem).toString('base64'),
          groupPriorityMinimum: 1000,
          versionPriority: 15,
        },
      }),
      201,
    );
  });

  after(() => {
    server?.closeAllConnections();
    server?.close();
  });

  it('checks the server: Available=True, Passed, as the aggregator identity', async () => {
    assert.ok(await eventually(async () => (await available())?.status === 'True', 10_000), JSON.stringify(await available()));
    const condition = await available();
    assert.equal(condition.reason, 'Passed');
    assert.equal(condition.message, 'all checks passed');
    const check = seen.find((s) => s.path === `/apis/${GROUP}/${VERSION}` && s.user === 'system:kube-aggregator');
    assert.ok(check, 'the availability check reached the server');
    assert.deepEqual(check.groups, ['system:masters']);
    assert.equal(check.proxyCertificate, 'front-proxy-client');
    const table = parseTable(await kubectl.ok(['get', 'apiservice', APISERVICE]));
    assert.deepEqual(rowNamed(table.rows, APISERVICE)?.slice(1, 3), [`${NAMESPACE}/api`, 'True']);
  });

  it('lists the group in discovery, legacy and aggregated', async () => {
    const apis = assertOk(await call('GET', '/apis'));
    const wardle = apis.groups.find((g: { name: string }) => g.name === GROUP);
    assert.deepEqual(wardle, {
      name: GROUP,
      versions: [{ groupVersion: `${GROUP}/${VERSION}`, version: VERSION }],
      preferredVersion: { groupVersion: `${GROUP}/${VERSION}`, version: VERSION },
    });
    assert.equal(assertOk(await call('GET', `/apis/${GROUP}`)).kind, 'APIGroup');
    const aggregated = await call('GET', '/apis', undefined, { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
    const item = aggregated.json.items.find((i: { metadata: { name: string } }) => i.metadata.name === GROUP);
    assert.equal(item.versions[0].version, VERSION);
    assert.equal(item.versions[0].freshness, 'Current');
    assert.deepEqual(item.versions[0].resources[0], {
      resource: 'flunders',
      responseKind: { group: GROUP, version: VERSION, kind: 'Flunder' },
      scope: 'Namespaced',
      singularResource: 'flunder',
      verbs: ['get', 'list', 'watch'],
      shortNames: ['fl'],
      subresources: [{ subresource: 'status', responseKind: { group: GROUP, version: VERSION, kind: 'Flunder' }, verbs: ['get'] }],
    });
  });

  it('kubectl get flunders goes through orch with the caller identity, never its credentials', async () => {
    seen.length = 0;
    const table = parseTable(await kubectl.ok(['get', 'flunders', '-n', NAMESPACE]));
    assert.deepEqual(
      table.rows.map((r) => r[0]),
      ['alpha', 'beta'],
    );
    assert.match(await kubectl.ok(['get', 'fl', 'beta', '-n', NAMESPACE, '-o', 'jsonpath={.spec.reference}']), /^beta$/);
    // An older kubectl finds it too.
    assert.deepEqual(
      parseTable(await ws.kubectl('1.27').ok(['get', 'flunders', '-n', NAMESPACE])).rows.map((r) => r[0]),
      ['alpha', 'beta'],
    );
    const requests = seen.filter((s) => s.path.includes('/flunders'));
    assert.ok(requests.length >= 2, JSON.stringify(seen));
    for (const s of requests) {
      assert.equal(s.user, 'admin');
      assert.deepEqual(s.groups, ['system:masters', 'system:authenticated']);
      assert.equal(s.proxyCertificate, 'front-proxy-client');
      assert.equal(s.authorization, undefined);
    }
  });

  it('an impersonated user and extras are what the server sees; X-Remote-* from the client are dropped', async () => {
    // orch authorizes alice's group first (RBAC on the aggregated resource), then proxies.
    assertOk(
      await call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NAMESPACE}/roles`, {
        metadata: { name: 'flunder-reader' },
        rules: [{ apiGroups: [GROUP], resources: ['flunders'], verbs: ['get', 'list', 'watch'] }],
      }),
      201,
    );
    assertOk(
      await call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NAMESPACE}/rolebindings`, {
        metadata: { name: 'flunder-readers' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'flunder-reader' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'wardle-readers' }],
      }),
      201,
    );
    seen.length = 0;
    const r = await call('GET', `/apis/${GROUP}/${VERSION}/namespaces/${NAMESPACE}/flunders/alpha`, undefined, {
      'Impersonate-User': 'alice',
      'Impersonate-Group': 'wardle-readers',
      'Impersonate-Extra-Scopes': 'view',
      'Impersonate-Extra-Odd%2Fkey': 'x',
      'X-Remote-User': 'mallory',
      'X-Remote-Group': 'system:masters',
    });
    assert.equal(r.status, 200, r.text);
    const s = seen.find((x) => x.path.endsWith('/flunders/alpha'));
    assert.ok(s);
    assert.equal(s.user, 'alice');
    assert.deepEqual(s.groups, ['wardle-readers', 'system:authenticated']);
    assert.deepEqual(s.extra, { scopes: ['view'], 'odd/key': ['x'] });
  });

  it('a user without permission is refused by orch before anything is proxied', async () => {
    seen.length = 0;
    const r = await kubectl.run(['get', 'flunders', '-n', NAMESPACE, '--as', 'mallory']);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /Error from server \(Forbidden\): flunders\.wardle\.example\.com is forbidden: User "mallory" cannot list resource "flunders" in API group "wardle\.example\.com" in the namespace "wardle"/,
    );
    assert.equal(seen.filter((s) => s.user === 'mallory').length, 0);
  });

  it('a watch streams through as the server writes it', async () => {
    const watch = kubectl.start(['get', 'flunders', '-n', NAMESPACE, '--watch', '--output-watch-events']);
    try {
      const line = await watch.waitForLine('stdout', /ADDED\s+alpha/, 10_000);
      assert.match(line, /ADDED\s+alpha/);
    } finally {
      await watch.stop();
    }
  });

  it('a watch over WebSocket is upgraded by the aggregated server and piped through', async () => {
    const url = new URL(`/apis/${GROUP}/${VERSION}/namespaces/${NAMESPACE}/flunders?watch=true`, ws.cluster.url);
    url.protocol = 'wss:';
    const socket = new WebSocket(url, ['base64.binary.k8s.io'], { ca: ws.cluster.caPem, cert: ws.cluster.adminCertPem, key: ws.cluster.adminKeyPem });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        socket.once('message', (data) => resolve(String(data)));
        socket.once('error', reject);
        socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      });
      const event = JSON.parse(first);
      assert.equal(event.type, 'ADDED');
      assert.equal(event.object.metadata.name, 'alpha');
      assert.equal(event.caller, 'admin');
    } finally {
      socket.terminate();
    }
  });

  it('has a Local APIService for each built-in group version, and one per CRD version while the CRD exists', async () => {
    const apps = assertOk(await call('GET', `${APISERVICES}/v1.apps`));
    assert.deepEqual(apps.spec, { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
    assert.equal(apps.metadata.labels['kube-aggregator.kubernetes.io/automanaged'], 'onstart');
    const core = assertOk(await call('GET', `${APISERVICES}/v1.`));
    assert.deepEqual(
      core.status.conditions.map((c: Record<string, string>) => [c.type, c.status, c.reason, c.message]),
      [['Available', 'True', 'Local', 'Local APIServices are always available']],
    );
    // Deleted or edited, an automanaged one is put back as the server wants it.
    assertOk(await call('DELETE', `${APISERVICES}/v1.apps`));
    assertOk(await call('PATCH', `${APISERVICES}/v1.batch`, { spec: { versionPriority: 1 } }, { 'content-type': 'application/merge-patch+json' }));
    assert.ok(
      await eventually(async () => {
        const [a, b] = await Promise.all([call('GET', `${APISERVICES}/v1.apps`), call('GET', `${APISERVICES}/v1.batch`)]);
        return (
          a.status === 200 &&
          a.json.metadata.uid !== apps.metadata.uid &&
          a.json.status?.conditions?.[0]?.status === 'True' &&
          b.json.spec.versionPriority === 15
        );
      }),
      'not restored',
    );
    const table = parseTable(await kubectl.ok(['get', 'apiservices']));
    assert.deepEqual(rowNamed(table.rows, 'v1.apps')?.slice(1, 3), ['Local', 'True']);
    assert.deepEqual(rowNamed(table.rows, 'v1.rbac.authorization.k8s.io')?.slice(1, 3), ['Local', 'True']);
    const health = await call('GET', '/readyz?verbose');
    for (const check of [
      'poststarthook/start-kube-aggregator-informers',
      'poststarthook/apiservice-registration-controller',
      'poststarthook/apiservice-status-available-controller',
      'poststarthook/kube-apiserver-autoregistration',
      'autoregister-completion',
    ]) {
      assert.ok(health.text.includes(`[+]${check} ok`), health.text);
    }

    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gizmos.toys.example.com' },
      spec: {
        group: 'toys.example.com',
        scope: 'Namespaced',
        names: { plural: 'gizmos', kind: 'Gizmo' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
          { name: 'v2', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    };
    assertOk(await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd), 201);
    assert.ok(await eventually(async () => (await call('GET', `${APISERVICES}/v1.toys.example.com`)).json?.status?.conditions?.[0]?.reason === 'Local'));
    const gizmos = assertOk(await call('GET', `${APISERVICES}/v1.toys.example.com`));
    assert.deepEqual(gizmos.spec, { group: 'toys.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 });
    assert.equal(gizmos.metadata.labels['kube-aggregator.kubernetes.io/automanaged'], 'true');
    assert.equal((await call('GET', `${APISERVICES}/v2.toys.example.com`)).status, 404);
    assertOk(await call('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.toys.example.com'));
    assert.ok(await eventually(async () => (await call('GET', `${APISERVICES}/v1.toys.example.com`)).status === 404));
  });

  it('refuses an APIService whose name is not <version>.<group>, as upstream validates', async () => {
    const r = await call('POST', APISERVICES, {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.wrong.example.com' },
      spec: { group: 'right.example.com', version: 'v1', service: { namespace: 'x', name: 'y' }, groupPriorityMinimum: 0, versionPriority: 10 },
    });
    assert.equal(r.status, 422);
    assert.match(
      r.json.message,
      /metadata\.name: Invalid value: "v1\.wrong\.example\.com": must be `spec\.version\+"\."\+spec\.group`: "v1\.right\.example\.com"/,
    );
    assert.match(r.json.message, /spec\.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000/);
  });

  it('a stopped server is Available=False (FailedDiscoveryCheck) and answered 503', async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    // A change of the APIService is checked at once (else within upstream's 30 s resync).
    assertOk(
      await call(
        'PATCH',
        `${APISERVICES}/${APISERVICE}`,
        { metadata: { annotations: { touched: 'now' } } },
        { 'content-type': 'application/merge-patch+json' },
      ),
    );
    assert.ok(await eventually(async () => (await available())?.status === 'False', 15_000), JSON.stringify(await available()));
    const condition = await available();
    assert.equal(condition.reason, 'FailedDiscoveryCheck');
    const url = `https://localhost:${port}/apis/${GROUP}/${VERSION}`;
    assert.match(
      condition.message,
      new RegExp(`^failing or missing response from ${url}: Get "${url}": dial tcp (127\\.0\\.0\\.1|\\[::1\\]):${port}: connect: connection refused$`),
    );
    const r = await call('GET', `/apis/${GROUP}/${VERSION}/namespaces/${NAMESPACE}/flunders`);
    assert.equal(r.status, 503);
    assert.equal(r.text, 'service unavailable\n');
    const k = await kubectl.run(['get', `flunders.${VERSION}.${GROUP}`, '-n', NAMESPACE]);
    assert.notEqual(k.code, 0);
    assert.match(k.stderr, /the server is currently unable to handle the request/);
    const metrics = (await call('GET', '/metrics')).text;
    assert.match(metrics, new RegExp(`^aggregator_unavailable_apiservice\\{name="${APISERVICE.replace(/\./g, '\\.')}"\\} 1$`, 'm'));
    assert.match(metrics, /^aggregator_unavailable_apiservice\{name="v1\.apps"\} 0$/m);
    assert.match(
      metrics,
      new RegExp(`^aggregator_unavailable_apiservice_total\\{name="${APISERVICE.replace(/\./g, '\\.')}",reason="FailedDiscoveryCheck"\\} 1$`, 'm'),
    );
    // The group stays in the legacy discovery list; its aggregated entry says it is stale.
    const aggregated = await call('GET', '/apis', undefined, { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
    assert.equal(aggregated.json.items.find((i: { metadata: { name: string } }) => i.metadata.name === GROUP).versions[0].freshness, 'Stale');
  });
});
