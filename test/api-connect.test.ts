// The connect subresources (issue 15): pods/log, exec, attach, portforward and the proxies are
// routed, authorized and answered as upstream's: streamed from the node agent when it answers,
// and with upstream's error texts when there is none (what kwok-like clusters show).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { rawTlsConnected, request } from './helpers/cluster.js';
import { kubectlWorkspace } from './helpers/kubectl.js';

const PODS = '/api/v1/namespaces/default/pods';

describe('connect subresources', { concurrency: true }, () => {
  const ws = kubectlWorkspace();
  /** A stand-in node agent: answers container logs, and accepts exec upgrades, echoing what it reads. */
  let kubelet: https.Server;
  const seen: string[] = [];

  before(async () => {
    const serving = await selfSigned();
    kubelet = https.createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('line one\nline two\n');
    });
    kubelet.on('upgrade', (req, socket) => {
      seen.push(`UPGRADE ${req.url} ${req.headers.upgrade}`);
      socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n\r\n');
      socket.pipe(socket);
    });
    await new Promise<void>((resolve) => kubelet.listen(0, '127.0.0.1', resolve));
    const port = (kubelet.address() as AddressInfo).port;
    const nodes = [
      { name: 'agent', addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], port },
      // Port 1 on loopback refuses at once: an agent that is not there.
      { name: 'absent', addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], port: 1 },
      { name: 'nowhere', addresses: [], port: 0 },
    ];
    for (const n of nodes) {
      const r = await request(ws.cluster, 'POST', '/api/v1/nodes', {
        body: {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: n.name },
          status: { addresses: n.addresses, daemonEndpoints: { kubeletEndpoint: { Port: n.port } } },
        },
      });
      assert.equal(r.status, 201, r.text);
    }
    const pod = (name: string, node?: string, containers = ['c']) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: {
        ...(node ? { nodeName: node } : {}),
        containers: containers.map((c) => ({ name: c, image: 'nginx' })),
        initContainers: [{ name: 'init', image: 'busybox' }],
      },
    });
    for (const p of [pod('on-agent', 'agent'), pod('on-absent', 'absent', ['a', 'b']), pod('unscheduled'), pod('on-nowhere', 'nowhere')]) {
      const r = await request(ws.cluster, 'POST', PODS, { body: p });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(() => new Promise<void>((resolve) => kubelet.close(() => resolve())));

  it('streams a log from the node agent, with the log options passed on', async () => {
    const k = ws.kubectl('1.33');
    assert.equal(await k.ok(['logs', 'on-agent', '--tail=5', '--timestamps']), 'line one\nline two\n');
    assert.ok(seen.includes('GET /containerLogs/default/on-agent/c?timestamps=true&tailLines=5'), seen.join('\n'));
  });

  it('answers an empty log for a pod on no node', async () => {
    const r = await request(ws.cluster, 'GET', `${PODS}/unscheduled/log`);
    assert.equal(r.status, 200);
    assert.equal(r.text, '');
  });

  it('says what upstream says when the node agent cannot be reached', async () => {
    const r = await request(ws.cluster, 'GET', `${PODS}/on-absent/log?container=a`);
    assert.equal(r.status, 500);
    assert.equal(r.json.reason, undefined, 'upstream passes the dial error on without a reason');
    assert.equal(r.json.message, 'Get "https://127.0.0.1:1/containerLogs/default/on-absent/a": dial tcp 127.0.0.1:1: connect: connection refused');
    const k = ws.kubectl('1.33');
    const exec = await k.run(['exec', 'on-absent', '-c', 'a', '--', 'ls']);
    assert.notEqual(exec.code, 0);
    assert.match(exec.stderr, /error dialing backend: dial tcp 127\.0\.0\.1:1: connect: connection refused/);
    const nowhere = await request(ws.cluster, 'GET', `${PODS}/on-nowhere/log`);
    assert.equal(nowhere.status, 500);
    assert.equal(nowhere.json.message, 'no preferred addresses found; known addresses: []');
  });

  it('checks the container and the node as upstream', async () => {
    const choose = await request(ws.cluster, 'GET', `${PODS}/on-absent/log`);
    assert.equal(choose.status, 400);
    assert.equal(choose.json.message, 'a container name must be specified for pod on-absent, choose one of: [a b] or one of the init containers: [init]');
    const wrong = await request(ws.cluster, 'GET', `${PODS}/on-agent/log?container=zz`);
    assert.equal(wrong.json.message, 'container zz is not valid for pod on-agent');
    const noHost = await request(ws.cluster, 'POST', `${PODS}/unscheduled/exec?command=ls&stdout=true`);
    assert.equal(noHost.status, 400);
    assert.equal(noHost.json.message, 'pod unscheduled does not have a host assigned');
    const plain = await request(ws.cluster, 'POST', `${PODS}/on-agent/exec?command=ls&stdout=true`);
    assert.equal(plain.status, 400);
    assert.equal(plain.json.message, 'Upgrade request required');
  });

  it('pipes an exec upgrade to the node agent and back', async () => {
    const socket = await rawTlsConnected(ws.cluster);
    socket.write(
      `POST ${PODS}/on-agent/exec?command=ls&stdout=true HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n`,
    );
    const got = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (c: Buffer) => {
        text += c.toString('utf8');
        if (text.includes('\r\n\r\n') && !text.includes('ping')) socket.write('ping');
        if (text.includes('ping')) resolve(text);
      });
    });
    socket.destroy();
    assert.match(got, /^HTTP\/1\.1 101 Switching Protocols/);
    assert.ok(seen.includes('UPGRADE /exec/default/on-agent/c?command=ls&stdout=true&container=c SPDY/3.1'), seen.join('\n'));
  });

  it('proxies only to addresses upstream allows, and a service needs endpoints', async () => {
    const noIp = await request(ws.cluster, 'GET', `${PODS}/on-agent/proxy/healthz`);
    assert.equal(noIp.status, 400);
    assert.equal(noIp.json.message, 'address not allowed');
    const loopbackNode = await request(ws.cluster, 'GET', '/api/v1/nodes/agent/proxy/healthz');
    assert.equal(loopbackNode.json.message, 'address not allowed');
    const svc = await request(ws.cluster, 'POST', '/api/v1/namespaces/default/services', {
      body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } },
    });
    assert.equal(svc.status, 201, svc.text);
    const eps = await request(ws.cluster, 'POST', '/api/v1/namespaces/default/endpoints', {
      body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web' } },
    });
    assert.equal(eps.status, 201, eps.text);
    const none = await request(ws.cluster, 'GET', '/api/v1/namespaces/default/services/web/proxy/');
    assert.equal(none.status, 503);
    assert.equal(none.json.reason, 'ServiceUnavailable');
    assert.equal(none.json.message, 'no endpoints available for service "web"');
    const port = await request(ws.cluster, 'GET', '/api/v1/namespaces/default/services/web:81/proxy/');
    assert.equal(port.json.message, 'no service port 81 found for service "web"');
    const redirect = await request(ws.cluster, 'GET', '/api/v1/namespaces/default/services/web/proxy?a=1');
    assert.equal(redirect.status, 503, 'the endpoint is looked up before the redirect');
  });

  it('is in discovery as upstream lists it', async () => {
    const core = await request(ws.cluster, 'GET', '/api/v1');
    const subs = core.json.resources.filter((r: { name: string }) => /^(pods|nodes|services)\/(log|exec|attach|portforward|proxy)$/.test(r.name));
    assert.deepEqual(
      subs.map((r: { name: string; kind: string; verbs: string[] }) => [r.name, r.kind, r.verbs.join(',')]),
      [
        ['nodes/proxy', 'NodeProxyOptions', 'create,delete,get,patch,update'],
        ['pods/attach', 'PodAttachOptions', 'create,get'],
        ['pods/exec', 'PodExecOptions', 'create,get'],
        ['pods/log', 'Pod', 'get'],
        ['pods/portforward', 'PodPortForwardOptions', 'create,get'],
        ['pods/proxy', 'PodProxyOptions', 'create,delete,get,patch,update'],
        ['services/proxy', 'ServiceProxyOptions', 'create,delete,get,patch,update'],
      ],
    );
  });
});

/** A throwaway serving pair for the stand-in node agent. */
async function selfSigned(): Promise<{ certPem: string; keyPem: string }> {
  const { ensureCertificates } = await import('../src/pki/certificates.js');
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const pki = await ensureCertificates(await mkdtemp(join(tmpdir(), 'kubelet-')), { hosts: ['localhost'], ips: ['127.0.0.1'] });
  return { certPem: pki.serverCertPem, keyPem: pki.serverKeyPem };
}
