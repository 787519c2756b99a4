import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALL_RESOURCES } from '../api/catalogue.js';
import type { ResourceDefinition } from '../api/types.js';
import { ORCH_BRAND } from '../machinery/brand.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { verbsOf } from './capabilities.js';
import { Registry } from './registry.js';

const GADGETS: ResourceDefinition = {
  groupStem: 'gadgets.example.com',
  branded: false,
  version: 'v1',
  kind: 'Gadget',
  plural: 'gadgets',
  singular: 'gadget',
  namespaced: false,
  nameRule: 'subdomain',
  verbs: ['get', 'list', 'create'],
};

describe('Registry', () => {
  it('serves exactly the verbs a resource and each subresource implement', () => {
    const registry = new Registry(ALL_RESOURCES, ORCH_BRAND, new MemoryStore());
    const pods = registry.served('', 'v1', 'pods');
    assert.ok(pods);
    assert.deepEqual([...verbsOf(pods.capabilities)].sort(), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    assert.deepEqual([...verbsOf(pods.subresources.get('status') ?? {})].sort(), ['get', 'patch', 'update']);
    assert.deepEqual([...verbsOf(pods.subresources.get('binding') ?? {})], ['create']);
    const finalize = registry.served('', 'v1', 'namespaces')?.subresources.get('finalize');
    assert.deepEqual([...verbsOf(finalize ?? {})], ['update']);
    const reviews = registry.served(ORCH_BRAND.group('authorization', true), 'v1', 'selfsubjectaccessreviews');
    assert.deepEqual([...verbsOf(reviews?.capabilities ?? {})], ['create']);
  });

  it('adds and removes a resource in one call each, moving its generation', async () => {
    const registry = new Registry(ALL_RESOURCES, ORCH_BRAND, new MemoryStore());
    const seen: number[] = [];
    registry.onChange(() => seen.push(registry.generation));
    await registry.register(GADGETS);
    assert.deepEqual([...verbsOf(registry.served('gadgets.example.com', 'v1', 'gadgets')?.capabilities ?? {})].sort(), ['create', 'get', 'list']);
    assert.ok(registry.groups.some((g) => g.group === 'gadgets.example.com'));
    assert.equal(registry.unregister('gadgets.example.com', 'v1', 'gadgets'), true);
    assert.equal(registry.unregister('gadgets.example.com', 'v1', 'gadgets'), false);
    assert.ok(!registry.groups.some((g) => g.group === 'gadgets.example.com'));
    assert.deepEqual(seen, [1, 2]);
  });

  it('refuses a registration that clashes, changing nothing', async () => {
    const registry = new Registry(ALL_RESOURCES, ORCH_BRAND, new MemoryStore());
    const count = registry.resources.length;
    const pods = ALL_RESOURCES.find((d) => d.groupStem === '' && d.plural === 'pods') as ResourceDefinition;
    await assert.rejects(registry.register(GADGETS, pods), /already registered/);
    assert.equal(registry.resources.length, count);
    assert.equal(registry.served('gadgets.example.com', 'v1', 'gadgets'), undefined);
    assert.equal(registry.generation, 0);
  });

  it('refuses a subresource no declaration describes', () => {
    const bad = { ...GADGETS, subresources: { teleport: true } } as unknown as ResourceDefinition;
    assert.throws(() => new Registry([bad], ORCH_BRAND, new MemoryStore()), /unknown subresource teleport/);
  });
});
