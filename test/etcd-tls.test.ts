/**
 * etcd over TLS with client certificates (--etcd-cafile, --etcd-certfile, --etcd-keyfile): the
 * control plane stores through it; without a client certificate etcd refuses it at start.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureCertificates, pkiPaths } from '../src/pki/certificates.js';
import { startControlPlane } from '../src/cmd/control-plane.js';
import { request, startTestCluster } from './helpers/cluster.js';
import { type EtcdProcess, startEtcd } from './helpers/etcd.js';

describe('etcd over TLS', () => {
  let etcd: EtcdProcess;
  let dir: string;
  let pki: ReturnType<typeof pkiPaths>;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-etcd-tls-'));
    // Any CA does: orch's own PKI makes a serving certificate for 127.0.0.1 and a client one.
    await ensureCertificates(join(dir, 'etcd-pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
    pki = pkiPaths(join(dir, 'etcd-pki'));
    etcd = await startEtcd({ tls: { certFile: pki.serverCert, keyFile: pki.serverKey, trustedCaFile: pki.caCert } });
  });
  after(async () => {
    await etcd?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores through etcd with the CA and a client certificate', async () => {
    assert.match(etcd.endpoint, /^https:/);
    const cp = await startTestCluster({
      storageBackend: 'etcd3',
      etcd: { servers: [etcd.endpoint], caFile: pki.caCert, certFile: pki.adminCert, keyFile: pki.adminKey },
      controllers: false,
    });
    try {
      const created = await request(cp, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'tls' } },
      });
      assert.equal(created.status, 201, created.text);
      assert.match((await request(cp, 'GET', '/readyz?verbose')).text, /\[\+\]etcd ok/);
    } finally {
      await cp.close();
    }
  });

  it('without a client certificate etcd refuses the control plane at start', async () => {
    await assert.rejects(
      startControlPlane({ securePort: 0, dataDir: join(dir, 'refused'), storageBackend: 'etcd3', etcd: { servers: [etcd.endpoint], caFile: pki.caCert } }),
      /cannot reach etcd at https:\/\/127\.0\.0\.1:\d+ .*start etcd or fix --etcd-servers/,
    );
  });
});
