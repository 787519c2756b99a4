/**
 * A Warning header whose text is not Latin-1 (an unknown field named `名前`): the write succeeds
 * (201, as upstream) and the header carries the text as UTF-8 bytes, as Go writes it, over
 * HTTP/1.1 and HTTP/2; kubectl prints it and @kubernetes/client-node accepts the response.
 */
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { describe, it } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import fetch, { type RequestInit } from 'node-fetch';
import { connectRawTls, request } from './helpers/cluster.js';
import { kubectlWorkspace } from './helpers/kubectl.js';

const CM = '/api/v1/namespaces/default/configmaps';
const WARNING = '299 - "unknown field \\"名前\\""';

function body(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' }, 名前: 1 });
}

describe('a Warning header with text outside Latin-1', () => {
  const ws = kubectlWorkspace({ storageBackend: 'memory' });

  it('HTTP/1.1: 201 with the warning as UTF-8 bytes on the wire', async () => {
    const { cluster } = ws;
    const url = new URL(cluster.url);
    const payload = body('h1');
    // A raw TLS socket, so the assertion is on the bytes, not on a client's decoding of them.
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const socket = connectRawTls(cluster);
      const chunks: Buffer[] = [];
      socket.on('secureConnect', () => {
        socket.write(
          `POST ${CM} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
        );
      });
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks)));
      socket.on('error', reject);
    });
    const head = raw.subarray(0, raw.indexOf('\r\n\r\n')).toString('utf8');
    assert.match(head, /^HTTP\/1\.1 201 /);
    assert.ok(
      head.split('\r\n').some((line) => line.toLowerCase().startsWith('warning: ') && line.slice('warning: '.length) === WARNING),
      head,
    );
  });

  it('HTTP/2: 201 with the warning as UTF-8 bytes', async () => {
    const { cluster } = ws;
    const session = http2.connect(cluster.url, { ca: cluster.caPem, cert: cluster.adminCertPem, key: cluster.adminKeyPem });
    try {
      const headers = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
        const stream = session.request({ ':method': 'POST', ':path': CM, 'content-type': 'application/json' });
        stream.on('response', resolve);
        stream.on('error', reject);
        stream.resume();
        stream.end(body('h2'));
      });
      assert.equal(headers[':status'], 201);
      // Node hands header bytes over as Latin-1 characters; read back as bytes they are UTF-8.
      assert.equal(Buffer.from(String(headers.warning), 'latin1').toString('utf8'), WARNING);
    } finally {
      session.close();
    }
  });

  it('many or huge unknown fields give bounded warnings that a Node client (16 KiB of headers) still reads', async () => {
    const obj: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'many' }, [`名${'x'.repeat(200_000)}`]: 1 };
    for (let i = 0; i < 5000; i++) obj[`unknown${i}`] = i;
    const res = await request(ws.cluster, 'POST', CM, { body: obj });
    assert.equal(res.status, 201, res.text);
    // Node's client joins the Warning headers with `, `.
    const all = String(res.headers.warning);
    assert.ok(all.length < 10_000, String(all.length));
    assert.ok(Buffer.from(all, 'latin1').toString('utf8').startsWith('299 - "unknown field \\"名xxx'));
    assert.match(all, /unknown field \\"unknown0\\"/);
  });

  it('kubectl prints the warning and creates the object', async () => {
    const kubectl = ws.kubectl('1.27');
    const file = await ws.file('cm.json', body('kubectl'));
    const r = await kubectl.run(['create', '-f', file, '--validate=warn']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /configmap\/kubectl created/);
    assert.match(r.stderr, /Warning: unknown field "名前"/);
  });

  it("@kubernetes/client-node's HTTP stack (node-fetch with its options) reads the response", async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(ws.cluster.kubeconfigPath);
    // client-node's typed serializers drop an unknown field before sending, so the request is
    // made the way client-node makes every request: its fetch options, its fetch.
    const init = await kc.applyToFetchOptions({ method: 'POST', headers: { 'content-type': 'application/json' } });
    const res = await fetch(`${kc.getCurrentCluster()?.server}${CM}`, { ...init, body: body('client-node') } as RequestInit);
    assert.equal(res.status, 201);
    assert.equal(Buffer.from(res.headers.get('warning') ?? '', 'latin1').toString('utf8'), WARNING);
    assert.equal(((await res.json()) as { metadata: { name: string } }).metadata.name, 'client-node');
  });
});
