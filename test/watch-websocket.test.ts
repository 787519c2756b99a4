// Watches over WebSocket (issue 15): what browser UIs such as Headlamp send. A watch request
// with `Upgrade: websocket` is upgraded (101) and every event is one message: JSON text by
// default, base64 text under `base64.binary.k8s.io`, binary under `binary.k8s.io`. Refusals
// before the upgrade (401, 403, 400) are plain HTTP; a non-watch request is answered over HTTP.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

interface Seen {
  protocol: string;
  messages: { binary: boolean; text: string }[];
  code: number;
}

describe('watch over WebSocket', { concurrency: true }, () => {
  let cluster: TestCluster;
  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory' });
  });
  after(() => cluster.close());

  const wsUrl = (path: string) => `${cluster.url.replace('https:', 'wss:')}${path}`;
  const admin = () => ({ ca: cluster.caPem, cert: cluster.adminCertPem, key: cluster.adminKeyPem });

  /** Opens a watch, runs `during` once it is open, and collects messages until the server closes it. */
  function watch(path: string, protocols: string[], during: () => Promise<void> = async () => {}): Promise<Seen> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl(path), protocols, admin());
      const seen: Seen = { protocol: '', messages: [], code: 0 };
      ws.on('open', () => {
        seen.protocol = ws.protocol;
        during().catch(reject);
      });
      ws.on('message', (data, binary) => seen.messages.push({ binary, text: String(data) }));
      ws.on('close', (code) => resolve({ ...seen, code }));
      ws.on('error', reject);
    });
  }

  const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: name } });

  it('sends each event as a JSON text message, live events included', async () => {
    const ns = '/api/v1/namespaces/default/configmaps';
    assert.equal((await request(cluster, 'POST', ns, { body: configMap('before') })).status, 201);
    const seen = await watch(`${ns}?watch=1&timeoutSeconds=2`, [], async () => {
      assert.equal((await request(cluster, 'POST', ns, { body: configMap('during') })).status, 201);
    });
    assert.equal(seen.protocol, '');
    assert.equal(seen.code, 1000);
    const events = seen.messages.map((m) => {
      assert.equal(m.binary, false, 'JSON goes in text frames');
      return JSON.parse(m.text);
    });
    const names = events.filter((e) => e.object.metadata.name !== undefined).map((e) => [e.type, e.object.metadata.name]);
    assert.deepEqual(
      names.filter(([, n]) => n === 'before' || n === 'during'),
      [
        ['ADDED', 'before'],
        ['ADDED', 'during'],
      ],
    );
  });

  it('frames events as base64.binary.k8s.io and binary.k8s.io ask', async () => {
    await request(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('framed') });
    const b64 = await watch('/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3Dframed', ['base64.binary.k8s.io']);
    assert.equal(b64.protocol, 'base64.binary.k8s.io');
    assert.equal(b64.messages.length, 1);
    assert.equal(b64.messages[0].binary, false);
    assert.equal(JSON.parse(Buffer.from(b64.messages[0].text, 'base64').toString('utf8')).object.metadata.name, 'framed');
    const bin = await watch('/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3Dframed', ['binary.k8s.io']);
    assert.equal(bin.protocol, 'binary.k8s.io');
    assert.equal(bin.messages[0].binary, true);
    assert.equal(JSON.parse(bin.messages[0].text).type, 'ADDED');
  });

  it('answers refusals before the upgrade as HTTP', async () => {
    const status = (path: string, opts: WebSocket.ClientOptions) =>
      new Promise<{ code: number; body: string }>((resolve, reject) => {
        const ws = new WebSocket(wsUrl(path), opts);
        ws.on('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (c: Buffer) => {
            body += c.toString('utf8');
          });
          res.on('end', () => resolve({ code: res.statusCode ?? 0, body }));
        });
        ws.on('open', () => reject(new Error('upgraded')));
        ws.on('error', () => {});
      });
    const anonymous = await status('/api/v1/configmaps?watch=1', { ca: cluster.caPem });
    assert.equal(anonymous.code, 403);
    assert.equal(JSON.parse(anonymous.body).reason, 'Forbidden');
    const unknown = await status('/api/v1/configmaps?watch=1', { ca: cluster.caPem, headers: { authorization: 'Bearer nobody' } });
    assert.equal(unknown.code, 401);
    const bad = await status('/api/v1/configmaps?watch=1&resourceVersion=x', admin());
    assert.equal(bad.code, 400);
    // A list is not upgraded: its answer comes back over HTTP.
    const list = await status('/api/v1/namespaces/default/configmaps', admin());
    assert.equal(list.code, 200);
    assert.equal(JSON.parse(list.body).kind, 'ConfigMapList');
  });
});
