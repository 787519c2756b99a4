/**
 * A resource registered while the server runs is served at once — routes, its status
 * subresource, discovery and OpenAPI — and unregistering it removes all of them, each in one
 * call on the registry and without a restart.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResourceDefinition } from '../src/api/types.js';
import { ensureCertificates } from '../src/pki/certificates.js';
import { ORCH_BRAND } from '../src/machinery/brand.js';
import { startApiServer, type ApiServer } from '../src/server/apiserver.js';
import { MemoryStore } from '../src/storage/memory/memory-store.js';
import { request, type RawResponse } from './helpers/cluster.js';

const WIDGETS: ResourceDefinition = {
  groupStem: 'widgets.example.com',
  branded: false,
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  singular: 'widget',
  namespaced: true,
  nameRule: 'subdomain',
  subresources: { status: true },
};

const BASE = '/apis/widgets.example.com/v1';
let dir: string;
let server: ApiServer;
let target: { url: string; caPem: string; adminCertPem: string; adminKeyPem: string };

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-registration-'));
  const pki = await ensureCertificates(join(dir, 'pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
  server = await startApiServer({
    brand: ORCH_BRAND,
    store: new MemoryStore(),
    bindAddress: '127.0.0.1',
    port: 0,
    certPem: pki.serverCertPem,
    keyPem: pki.serverKeyPem,
    clientCaPem: pki.caCertPem,
    eventTtlMs: 3_600_000,
    shutdownDelayMs: 0,
    livezGracePeriodMs: 0,
    watchHistoryMs: 60_000,
  });
  target = { url: `https://127.0.0.1:${server.port}`, caPem: pki.caCertPem, adminCertPem: pki.adminCertPem, adminKeyPem: pki.adminKeyPem };
});

after(async () => {
  await server?.shutdown();
  await rm(dir, { recursive: true, force: true });
});

function call(method: string, path: string, body?: object): Promise<RawResponse> {
  return request(target as Parameters<typeof request>[0], method, path, { body });
}

async function served(): Promise<{ group: boolean; list: RawResponse; openapi: boolean }> {
  const groups = (await call('GET', '/apis')).json as { groups: { name: string }[] };
  const openapi = (await call('GET', '/openapi/v2')).json as { paths: Record<string, unknown> };
  return {
    group: groups.groups.some((g) => g.name === 'widgets.example.com'),
    list: await call('GET', `${BASE}/namespaces/default/widgets`),
    openapi: Object.hasOwn(openapi.paths, `${BASE}/namespaces/{namespace}/widgets/{name}/status`),
  };
}

describe('run-time registration', () => {
  it('serves nothing of a resource before it is registered', async () => {
    const before = await served();
    assert.equal(before.group, false);
    assert.equal(before.list.status, 404);
    assert.equal(before.openapi, false);
  });

  it('serves routes, status, discovery and OpenAPI right after one register call', async () => {
    await server.registry.register(WIDGETS);
    const now = await served();
    assert.equal(now.group, true);
    assert.equal(now.list.status, 200, now.list.text);
    assert.equal(now.openapi, true);

    const resources = (await call('GET', BASE)).json as { resources: { name: string; verbs: string[] }[] };
    assert.deepEqual(
      resources.resources.map((r) => [r.name, r.verbs]),
      [
        ['widgets', ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']],
        ['widgets/status', ['get', 'patch', 'update']],
      ],
    );

    const created = await call('POST', `${BASE}/namespaces/default/widgets`, { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
    assert.equal(created.status, 201, created.text);
    const status = await call('PUT', `${BASE}/namespaces/default/widgets/w/status`, { ...created.json, status: { ready: true } });
    assert.equal(status.status, 200, status.text);
    assert.deepEqual(status.json.status, { ready: true });
    // The status subresource serves get, update and patch only.
    assert.equal((await call('DELETE', `${BASE}/namespaces/default/widgets/w/status`)).status, 405);
  });

  it('stops serving it after one unregister call', async () => {
    assert.equal(server.registry.unregister('widgets.example.com', 'v1', 'widgets'), true);
    const after = await served();
    assert.equal(after.group, false);
    assert.equal(after.list.status, 404);
    assert.equal(after.openapi, false);
    assert.equal((await call('GET', BASE)).status, 404);
  });
});
