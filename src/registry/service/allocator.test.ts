import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Obj } from '../../machinery/object.js';
import { StatusError } from '../../machinery/status.js';
import { ServiceAllocator } from './allocator.js';
import { RangeBitmap } from './bitmap.js';
import { parseClusterIPRange, parseNodePortRange } from './ranges.js';

function svc(name: string, spec: Record<string, unknown>): Obj {
  return { metadata: { name, namespace: 'default' }, spec: { type: 'ClusterIP', ports: [{ port: 80 }], ...spec } };
}

/** A /29 (six usable addresses) and ten node ports, scanned from the start. */
function small(): ServiceAllocator {
  return new ServiceAllocator(parseClusterIPRange('10.1.0.0/29'), parseNodePortRange('30000-30009'), () => 0);
}

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 422);
    return e.message;
  }
  assert.fail('expected a 422');
}

describe('RangeBitmap', () => {
  it('allocates each offset once, frees it, and finds free ones from a start, wrapping', () => {
    const b = new RangeBitmap(20);
    for (let i = 0; i < 20; i++) if (i !== 3 && i !== 17) assert.equal(b.allocate(i), true);
    assert.equal(b.allocate(5), false);
    assert.equal(b.allocate(20), false);
    assert.equal(b.findFree(4), 17);
    assert.equal(b.findFree(18), 3);
    b.allocate(3);
    b.allocate(17);
    assert.equal(b.findFree(0), undefined);
    b.release(9);
    assert.equal(b.count, 19);
    assert.equal(b.findFree(10), 9);
  });
});

describe('ServiceAllocator', () => {
  it('gives the network and broadcast addresses to no one, and says when the range is full', () => {
    const a = small();
    const ips = [];
    for (let i = 0; i < 6; i++) {
      const s = svc(`s${i}`, {});
      a.allocate(s, undefined, false).commit(s);
      ips.push((s.spec as { clusterIP: string }).clusterIP);
    }
    assert.deepEqual(ips, ['10.1.0.1', '10.1.0.2', '10.1.0.3', '10.1.0.4', '10.1.0.5', '10.1.0.6']);
    assert.equal(
      message(() => a.allocate(svc('full', {}), undefined, false)),
      'Service "full" is invalid: spec.clusterIPs: Invalid value: []string{}: failed to allocate a serviceIP: range is full',
    );
  });

  it('a reverted allocation frees what it took; a dry run takes nothing', () => {
    const a = small();
    a.allocate(svc('dry', { type: 'NodePort', clusterIP: '10.1.0.3' }), undefined, true).commit(svc('x', {}));
    assert.deepEqual(a.usage(), { ips: 0, ports: 0 });
    const failed = svc('failed', { type: 'NodePort' });
    a.allocate(failed, undefined, false).revert();
    assert.deepEqual(a.usage(), { ips: 0, ports: 0 });
  });

  it('an invalid request takes nothing, not even the values before the bad one', () => {
    const a = small();
    const bad = svc('bad', { type: 'NodePort', ports: [{ port: 80 }, { port: 81, nodePort: 40000 }] });
    assert.equal(
      message(() => a.allocate(bad, undefined, false)),
      'Service "bad" is invalid: spec.ports[1].nodePort: Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-30009',
    );
    assert.deepEqual(a.usage(), { ips: 0, ports: 0 });
  });

  it('ports with one port number (TCP and UDP 53) share a node port', () => {
    const a = small();
    const dns = svc('dns', {
      type: 'NodePort',
      ports: [
        { port: 53, protocol: 'TCP' },
        { port: 53, protocol: 'UDP' },
        { port: 54, protocol: 'UDP' },
      ],
    });
    a.allocate(dns, undefined, false).commit(dns);
    assert.deepEqual(
      (dns.spec as { ports: { nodePort: number }[] }).ports.map((p) => p.nodePort),
      [30000, 30000, 30001],
    );
    assert.deepEqual(a.usage(), { ips: 1, ports: 2 });
  });

  it('an update keeps what the Service holds and frees what it no longer has', () => {
    const a = small();
    const old = svc('np', { type: 'NodePort', ports: [{ port: 80 }, { port: 81 }] });
    a.allocate(old, undefined, false).commit(old);
    assert.deepEqual(a.usage(), { ips: 1, ports: 2 });
    const next = structuredClone(old);
    (next.spec as { ports: unknown[] }).ports.pop();
    a.allocate(next, old, false).commit(next);
    assert.deepEqual(a.usage(), { ips: 1, ports: 1 });
    const external = { ...structuredClone(next), spec: { type: 'ExternalName', externalName: 'example.com' } };
    a.allocate(external, next, false).commit(external);
    assert.deepEqual(a.usage(), { ips: 0, ports: 0 });
  });

  it('a failed update frees only what it took; the old Service keeps its own', () => {
    const a = small();
    const old = svc('grow', {});
    a.allocate(old, undefined, false).commit(old);
    const next = { ...structuredClone(old), spec: { ...(structuredClone(old.spec) as object), type: 'NodePort' } };
    a.allocate(next, old, false).revert();
    assert.deepEqual(a.usage(), { ips: 1, ports: 0 });
  });
});
