import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALL_RESOURCES } from '../../api/catalogue.js';
import { ORCH_BRAND } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { forbidden, StatusError } from '../../machinery/status.js';
import { MemoryStore } from '../../storage/memory/memory-store.js';
import type { RequestContext } from '../context.js';
import { Registry } from '../registry.js';
import { ServiceStore } from './service-store.js';

const ctx: RequestContext = { user: { name: 'admin', groups: ['system:masters'] }, brand: ORCH_BRAND, now: new Date('2024-01-02T03:04:05Z') };

/** A registry whose Services get addresses from a /29 (six usable) and ports 30000-30004. */
function services(store = new MemoryStore()): ServiceStore {
  const registry = new Registry(ALL_RESOURCES, ORCH_BRAND, store, {}, { services: { clusterIPRange: '10.1.0.0/29', nodePortRange: '30000-30004' } });
  const s = registry.byResource('', 'services');
  assert.ok(s instanceof ServiceStore);
  return s;
}

function service(name: string, spec: Record<string, unknown> = {}): Obj {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], selector: { app: 'x' }, ...spec } };
}

async function rejects(p: Promise<unknown>, code: number): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    assert.equal(e.code, code, e.message);
    return e.message;
  }
  assert.fail(`expected ${code}`);
}

describe('Service storage allocation', () => {
  it('a create that fails validation after allocation holds nothing', async () => {
    const s = services();
    // Admission refusing after the IP was chosen, and validation refusing the object, both free it.
    const refuse = () => {
      throw forbidden({ group: '', resource: 'services' }, 'denied', 'no');
    };
    await rejects(s.create(ctx, 'default', service('denied', { clusterIP: '10.1.0.2' }), { dryRun: false, validatingAdmission: refuse }), 403);
    await rejects(s.create(ctx, 'default', service('Bad_Name', { type: 'NodePort', clusterIP: '10.1.0.2' }), { dryRun: false }), 422);
    assert.deepEqual(s.allocator.usage(), { ips: 0, ports: 0 });
    const ok = await s.create(ctx, 'default', service('ok', { clusterIP: '10.1.0.2' }), { dryRun: false });
    assert.equal((ok.spec as { clusterIP: string }).clusterIP, '10.1.0.2');
  });

  it('a create that loses to an existing name holds nothing', async () => {
    const s = services();
    await s.create(ctx, 'default', service('a'), { dryRun: false });
    await rejects(s.create(ctx, 'default', service('a', { type: 'NodePort' }), { dryRun: false }), 409);
    assert.deepEqual(s.allocator.usage(), { ips: 1, ports: 0 });
  });

  it('a dry-run create answers with an IP but takes none', async () => {
    const s = services();
    const dry = await s.create(ctx, 'default', service('dry', { type: 'NodePort' }), { dryRun: true });
    assert.match((dry.spec as { clusterIP: string }).clusterIP, /^10\.1\.0\.[1-6]$/);
    assert.deepEqual(s.allocator.usage(), { ips: 0, ports: 0 });
  });

  it('deleting a Service frees its IP and node ports at once; a dry-run delete frees nothing', async () => {
    const s = services();
    await s.create(ctx, 'default', service('np', { type: 'NodePort', clusterIP: '10.1.0.3', ports: [{ port: 80, nodePort: 30002 }] }), { dryRun: false });
    await s.delete(ctx, 'default', 'np', { dryRun: true });
    assert.deepEqual(s.allocator.usage(), { ips: 1, ports: 1 });
    await s.delete(ctx, 'default', 'np', { dryRun: false });
    assert.deepEqual(s.allocator.usage(), { ips: 0, ports: 0 });
    await s.create(ctx, 'default', service('np2', { type: 'NodePort', clusterIP: '10.1.0.3', ports: [{ port: 80, nodePort: 30002 }] }), { dryRun: false });
  });

  it('a Service with a finalizer frees its addresses when its last finalizer goes', async () => {
    const s = services();
    await s.create(ctx, 'default', { ...service('fin', { type: 'NodePort' }), metadata: { name: 'fin', finalizers: ['example.com/hold'] } }, { dryRun: false });
    const marked = await s.delete(ctx, 'default', 'fin', { dryRun: false });
    assert.equal(marked.removed, false);
    assert.deepEqual(s.allocator.usage(), { ips: 1, ports: 1 });
    await s.guaranteedUpdate(
      ctx,
      'default',
      'fin',
      (cur) => {
        (cur.metadata as { finalizers?: string[] }).finalizers = [];
        return cur;
      },
      { dryRun: false, subresource: '' },
    );
    assert.deepEqual(s.allocator.usage(), { ips: 0, ports: 0 });
  });

  it('concurrent creates never get the same IP; the rest find the range full', async () => {
    const s = services();
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => s.create(ctx, 'default', service(`c${i}`), { dryRun: false })));
    const ips = results.flatMap((r) => (r.status === 'fulfilled' ? [(r.value.spec as { clusterIP: string }).clusterIP] : []));
    assert.equal(ips.length, 6);
    assert.equal(new Set(ips).size, 6);
    for (const r of results) if (r.status === 'rejected') assert.match((r.reason as Error).message, /range is full$/);
  });

  it('concurrent updates to NodePort never share a node port', async () => {
    const s = services();
    for (const name of ['u0', 'u1', 'u2', 'u3']) await s.create(ctx, 'default', service(name), { dryRun: false });
    const toNodePort = (cur: Obj) => ({ ...cur, spec: { ...(cur.spec as object), type: 'NodePort' } });
    const done = await Promise.all(['u0', 'u1', 'u2', 'u3'].map((n) => s.guaranteedUpdate(ctx, 'default', n, toNodePort, { dryRun: false, subresource: '' })));
    const ports = done.map((r) => (r.obj.spec as { ports: { nodePort: number }[] }).ports[0].nodePort);
    assert.equal(new Set(ports).size, 4);
    assert.deepEqual(s.allocator.usage(), { ips: 4, ports: 4 });
  });

  it('an update that drops the node ports frees them; a failed update keeps the old ones', async () => {
    const s = services();
    await s.create(ctx, 'default', service('t', { type: 'NodePort' }), { dryRun: false });
    await rejects(
      s.guaranteedUpdate(
        ctx,
        'default',
        't',
        (cur) => ({ ...cur, spec: { ...(cur.spec as object), ports: [{ port: 80 }, { port: 81, protocol: 'Bogus' }] } }),
        {
          dryRun: false,
          subresource: '',
        },
      ),
      422,
    );
    assert.deepEqual(s.allocator.usage(), { ips: 1, ports: 1 });
    const { obj } = await s.guaranteedUpdate(
      ctx,
      'default',
      't',
      (cur) => {
        const spec = cur.spec as { type: string; ports: { nodePort?: number }[] };
        spec.type = 'ClusterIP';
        for (const p of spec.ports) delete p.nodePort;
        return cur;
      },
      { dryRun: false, subresource: '' },
    );
    assert.equal((obj.spec as { type: string }).type, 'ClusterIP');
    assert.deepEqual(s.allocator.usage(), { ips: 1, ports: 0 });
  });

  it('a PUT that omits the allocated values keeps them', async () => {
    const s = services();
    const created = await s.create(ctx, 'default', service('keep', { type: 'NodePort' }), { dryRun: false });
    const { obj } = await s.guaranteedUpdate(ctx, 'default', 'keep', () => service('keep', { type: 'NodePort' }), { dryRun: false, subresource: '' });
    assert.deepEqual(obj.spec, created.spec);
    assert.deepEqual(s.allocator.usage(), { ips: 1, ports: 1 });
  });

  it('what stored Services hold is known before the first write after a restart', async () => {
    const store = new MemoryStore();
    const first = services(store);
    await first.create(ctx, 'default', service('old', { clusterIP: '10.1.0.4' }), { dryRun: false });
    const second = services(store);
    const msg = await rejects(second.create(ctx, 'default', service('new', { clusterIP: '10.1.0.4' }), { dryRun: false }), 422);
    assert.match(msg, /provided IP is already allocated$/);
  });
});
