/**
 * Strategic merge patch of long lists costs linear time: matching by merge key, partitioning and
 * ordering all look items up by key instead of scanning (20,000 containers took ~8 s when
 * quadratic, blocking every other request). Bounds are loose for a loaded machine; 40,000 items
 * keep them far from what quadratic work would take (~30 s).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSchemas } from '../api/schema/index.js';
import { PatchSchema, strategicMergePatch } from './strategic-merge-patch.js';

type JsonMap = Record<string, unknown>;

function podSchema(): PatchSchema {
  const name = apiSchemas().nameOfKind('', 'v1', 'Pod');
  assert.ok(name !== undefined);
  return PatchSchema.forDefinition(apiSchemas(), name);
}

const containers = (n: number, image: string) => Array.from({ length: n }, (_, i) => ({ name: `c${i}`, image }));
const pod = (n: number): JsonMap => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: containers(n, 'old') } });

function timed(f: () => JsonMap): { ms: number; out: JsonMap } {
  const start = performance.now();
  const out = f();
  return { ms: performance.now() - start, out };
}

describe('strategic merge patch at scale', () => {
  const schema = podSchema();

  it('merges 40,000 containers by name in linear time', () => {
    const patch = { spec: { containers: containers(40_000, 'new').reverse() } };
    const { ms, out } = timed(() => strategicMergePatch(pod(40_000), patch, schema));
    const got = (out.spec as JsonMap).containers as JsonMap[];
    assert.equal(got.length, 40_000);
    // Patch items follow the patch's order; every one merged into its live item.
    assert.deepEqual(got[0], { name: 'c39999', image: 'new' });
    assert.deepEqual(got[39_999], { name: 'c0', image: 'new' });
    assert.ok(ms < 8000, `took ${ms.toFixed(0)} ms`);
  });

  it('orders by $setElementOrder and deletes by merge key over 20,000 items in linear time', () => {
    const order = containers(20_000, '').map((c) => ({ name: c.name }));
    const patch = {
      spec: {
        '$setElementOrder/containers': order.slice(0, 10_000).reverse(),
        containers: [...order.slice(10_000).map((c) => ({ ...c, $patch: 'delete' })), { name: 'c5', image: 'five' }],
      },
    };
    const { ms, out } = timed(() => strategicMergePatch(pod(20_000), patch, schema));
    const got = (out.spec as JsonMap).containers as JsonMap[];
    assert.equal(got.length, 10_000);
    assert.deepEqual(got[0], { name: 'c9999', image: 'old' });
    assert.deepEqual(got[9_994], { name: 'c5', image: 'five' });
    assert.ok(ms < 8000, `took ${ms.toFixed(0)} ms`);
  });

  it('unites and orders 100,000 scalars in linear time', () => {
    const live = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', finalizers: Array.from({ length: 50_000 }, (_, i) => `f/${i}`) } };
    const patch = { metadata: { finalizers: Array.from({ length: 50_000 }, (_, i) => `f/${i + 25_000}`) } };
    const { ms, out } = timed(() => strategicMergePatch(live, patch, schema));
    const got = (out.metadata as JsonMap).finalizers as string[];
    assert.equal(got.length, 75_000);
    assert.equal(new Set(got).size, 75_000);
    assert.ok(ms < 8000, `took ${ms.toFixed(0)} ms`);
  });
});
