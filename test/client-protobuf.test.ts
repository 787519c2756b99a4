/**
 * client/'s REST client with a Protobuf content type, as orch-scheduler's default clientConnection
 * (client-go's ContentType): built-in kinds go out as Protobuf and answers come back as
 * Protobuf, read into the same objects a JSON client gets; kinds without a Protobuf message and
 * patches fall back to JSON; a Protobuf-typed answer without the envelope prefix is refused.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RestClient } from '../src/client/rest-client.js';
import { encodeProtobufObject, decodeProtobufObject } from '../src/codec/protobuf/index.js';
import { ensureCertificates } from '../src/pki/certificates.js';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

const PROTOBUF = 'application/vnd.orch.protobuf';

describe('Protobuf client against the API server', () => {
  let cluster: TestCluster;
  let pb: RestClient;
  let json: RestClient;

  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory' });
    const creds = { server: cluster.url, caPem: cluster.caPem, certPem: cluster.adminCertPem, keyPem: cluster.adminKeyPem };
    pb = new RestClient({ ...creds, contentType: PROTOBUF });
    json = new RestClient(creds);
    assert.equal((await request(cluster, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'pb' } } })).status, 201);
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } };
    assert.equal((await json.request('POST', '/api/v1/nodes', node)).status, 201);
  });

  after(async () => {
    pb?.close();
    json?.close();
    await cluster?.close();
  });

  it('creates, reads and binds a pod in Protobuf, with the objects a JSON client sees', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p1', labels: { app: 'x' } },
      spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
    };
    const created = await pb.request('POST', '/api/v1/namespaces/pb/pods', pod);
    assert.equal(created.status, 201);
    const viaJson = await json.request('GET', '/api/v1/namespaces/pb/pods/p1');
    assert.deepEqual(created.body, viaJson.body);
    const viaPb = await pb.request('GET', '/api/v1/namespaces/pb/pods/p1');
    assert.deepEqual(viaPb.body, viaJson.body);

    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p1' }, target: { apiVersion: 'v1', kind: 'Node', name: 'n1' } };
    const bound = await pb.request('POST', '/api/v1/namespaces/pb/pods/p1/binding', binding);
    assert.equal(bound.status, 201);
    assert.equal((bound.body as { status?: string }).status, 'Success');
    const after = await json.request<{ spec: { nodeName?: string } }>('GET', '/api/v1/namespaces/pb/pods/p1');
    assert.equal(after.body.spec.nodeName, 'n1');
  });

  it('writes events.orch.io/v1 Events and Leases in Protobuf', async () => {
    const event = {
      apiVersion: 'events.orch.io/v1',
      kind: 'Event',
      metadata: { name: 'p1.1', namespace: 'pb' },
      eventTime: '2026-11-26T23:00:00.123456Z',
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-host',
      action: 'Binding',
      reason: 'Scheduled',
      type: 'Normal',
      note: 'Successfully assigned pb/p1 to n1',
      regarding: { apiVersion: 'v1', kind: 'Pod', namespace: 'pb', name: 'p1' },
    };
    const res = await pb.request<typeof event>('POST', '/apis/events.orch.io/v1/namespaces/pb/events', event);
    assert.equal(res.status, 201);
    assert.equal(res.body.eventTime, event.eventTime);
    assert.equal(res.body.note, event.note);
    const lease = { apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } };
    const created = await pb.request<typeof lease>('POST', '/apis/coordination.orch.io/v1/namespaces/pb/leases', lease);
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.spec, lease.spec);
  });

  it('reads error Statuses sent as Protobuf', async () => {
    const missing = await pb.request<{ kind: string; reason: string; code: number }>('GET', '/api/v1/namespaces/pb/pods/none');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.kind, 'Status');
    assert.equal(missing.body.reason, 'NotFound');
    assert.equal(missing.body.code, 404);
  });

  it('sends patches and kinds without a Protobuf message as JSON', async () => {
    const patched = await pb.request<{ metadata: { labels: Record<string, string> } }>(
      'PATCH',
      '/api/v1/namespaces/pb/pods/p1',
      { metadata: { labels: { patched: 'yes' } } },
      'application/merge-patch+json',
    );
    assert.equal(patched.status, 200);
    assert.equal(patched.body.metadata.labels.patched, 'yes');
    const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p1', namespace: 'pb' } };
    const evicted = await pb.request<{ status?: string }>('POST', '/api/v1/namespaces/pb/pods/p1/eviction', eviction);
    assert.equal(evicted.status, 201);
    assert.equal(evicted.body.status, 'Success');
  });
});

describe('Protobuf client on the wire', () => {
  let dir: string;
  let server: https.Server;
  let client: RestClient;
  const seen: { accept?: string; contentType?: string; body: Buffer }[] = [];
  /** What the server answers next: bytes and content type. */
  let answer: { contentType: string; body: Buffer } = { contentType: PROTOBUF, body: Buffer.alloc(0) };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-client-pb-'));
    const pki = await ensureCertificates(dir, { hosts: ['localhost'], ips: ['127.0.0.1'] });
    server = https.createServer({ cert: pki.serverCertPem, key: pki.serverKeyPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ accept: req.headers.accept, contentType: req.headers['content-type'], body: Buffer.concat(chunks) });
        res.writeHead(201, { 'content-type': answer.contentType, 'content-length': answer.body.length });
        res.end(answer.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    client = new RestClient({
      server: `https://127.0.0.1:${port}`,
      caPem: pki.caCertPem,
      certPem: pki.adminCertPem,
      keyPem: pki.adminKeyPem,
      contentType: PROTOBUF,
    });
  });

  after(async () => {
    client?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  it('sends a built-in kind as Protobuf and asks for Protobuf, then anything (client-go)', async () => {
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { apiVersion: 'v1', kind: 'Node', name: 'n' } };
    answer = { contentType: PROTOBUF, body: Buffer.from(encodeProtobufObject({ apiVersion: 'v1', kind: 'Status', status: 'Success', code: 201 })) };
    const res = await client.request('POST', '/api/v1/namespaces/d/pods/p/binding', binding);
    const sent = seen.at(-1);
    assert.equal(sent?.accept, `${PROTOBUF}, */*`);
    assert.equal(sent?.contentType, PROTOBUF);
    // Read back as upstream's decoder would (Go writes the zero creationTimestamp as null).
    const decoded = decodeProtobufObject(sent?.body ?? Buffer.alloc(0)) as typeof binding;
    assert.equal(decoded.kind, 'Binding');
    assert.equal(decoded.metadata.name, 'p');
    assert.deepEqual(decoded.target, binding.target);
    assert.equal((res.body as { status?: string }).status, 'Success');
  });

  it('refuses a Protobuf-typed answer without the envelope prefix', async () => {
    answer = { contentType: PROTOBUF, body: Buffer.from('{"kind":"Status"}') };
    await assert.rejects(client.request('GET', '/api/v1/namespaces/d/pods/p'), /without the envelope prefix/);
  });

  it('reads a JSON answer to a Protobuf client (the server had no Protobuf form)', async () => {
    answer = { contentType: 'application/json', body: Buffer.from('{"kind":"Widget","apiVersion":"example.com/v1"}') };
    const res = await client.request('POST', '/apis/example.com/v1/widgets', { apiVersion: 'example.com/v1', kind: 'Widget' });
    assert.equal(seen.at(-1)?.contentType, 'application/json');
    assert.deepEqual(res.body, { kind: 'Widget', apiVersion: 'example.com/v1' });
  });
});
