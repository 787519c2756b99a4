import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ALL_RESOURCES } from '../api/catalogue.js';
import { ORCH_BRAND } from '../machinery/brand.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import type { RequestContext } from './context.js';
import { bindPod } from './pod-binding.js';
import { sharedEntryObject } from './cache-entry.js';
import { Registry } from './registry.js';

// SQLite hands the bytes a writer stored to its watch, so the cache entries of this server's own
// writes take the selector attributes the writer noted: they must be those of the stored object.
const dir = mkdtempSync(join(tmpdir(), 'orch-cache-entry-'));
const store = SqliteStore.open(join(dir, 'orch.db'));
let registry: Registry;
const ctx: RequestContext = { user: { name: 'admin', groups: ['system:masters'] }, brand: ORCH_BRAND, now: new Date('2024-01-02T03:04:05Z') };

before(async () => {
  registry = new Registry(ALL_RESOURCES, ORCH_BRAND, store);
  await registry.startCaches();
});

after(async () => {
  registry.stopCaches();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function entryOf(group: string, resource: string, namespace: string, name: string) {
  const gs = registry.byResource(group, resource);
  assert.ok(gs);
  await gs.waitForRevision(store.currentRevision());
  return gs.readEntry(namespace, name, { kind: 'latest' });
}

test("a written pod's cache entry has its labels and field values, through a create and a binding", async () => {
  const pods = registry.byResource('', 'pods');
  assert.ok(pods);
  const created = await pods.create(
    ctx,
    'default',
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    { dryRun: false },
  );
  // The answered object is the caller's: changing it changes no cache entry.
  (created.metadata as { labels: Record<string, string> }).labels.app = 'changed';
  let entry = await entryOf('', 'pods', 'default', 'p');
  assert.deepEqual(entry.labels, { app: 'a' });
  assert.equal(entry.fields['metadata.name'], 'p');
  assert.equal(entry.fields['spec.nodeName'], '');
  assert.equal(entry.fields['status.phase'], 'Pending');
  await bindPod(registry, ctx, 'default', { metadata: { name: 'p' }, target: { name: 'n1' } }, { dryRun: false, urlName: 'p' });
  entry = await entryOf('', 'pods', 'default', 'p');
  assert.equal(entry.fields['spec.nodeName'], 'n1');
  assert.deepEqual(entry.labels, { app: 'a' });
});

test('a view over the same storage computes its own field values (events.<group>/v1 over core events)', async () => {
  const group = ORCH_BRAND.group('events', true);
  const events = registry.byResource(group, 'events');
  assert.ok(events);
  await events.create(
    ctx,
    'default',
    {
      apiVersion: `${group}/v1`,
      kind: 'Event',
      metadata: { name: 'e' },
      eventTime: '2024-01-02T03:04:05.000000Z',
      reportingController: 'c',
      reportingInstance: 'i',
      action: 'Binding',
      reason: 'Scheduled',
      regarding: { kind: 'Pod', namespace: 'default', name: 'p' },
      note: 'n',
      type: 'Normal',
    },
    { dryRun: false },
  );
  const core = await entryOf('', 'events', 'default', 'e');
  assert.equal(core.fields['involvedObject.name'], 'p');
  assert.equal(core.fields.reason, 'Scheduled');
  const view = await entryOf(group, 'events', 'default', 'e');
  assert.equal(view.fields['metadata.name'], 'e');
  assert.equal(JSON.parse(view.json.toString()).regarding.name, 'p');
});

test("an event's readers share the written object while it is delivered, and a parse of the entry after", async () => {
  const pods = registry.byResource('', 'pods');
  assert.ok(pods?.cache);
  await pods.create(
    ctx,
    'default',
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'q' }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    { dryRun: false },
  );
  await pods.waitForRevision(store.currentRevision());
  const seen: { nodeName: unknown; again: boolean }[] = [];
  let last: import('../storage/cacher/types.js').CacheEntry | undefined;
  const stop = pods.cache.listen((event) => {
    if (!event.entry.key.endsWith('/q')) return true;
    const obj = sharedEntryObject(event.entry);
    seen.push({ nodeName: (obj.spec as { nodeName?: string }).nodeName, again: sharedEntryObject(event.entry) === obj });
    last = event.entry;
    return true;
  });
  await bindPod(registry, ctx, 'default', { metadata: { name: 'q' }, target: { name: 'n2' } }, { dryRun: false, urlName: 'q' });
  await pods.waitForRevision(store.currentRevision());
  stop();
  assert.deepEqual(seen, [{ nodeName: 'n2', again: true }]);
  assert.ok(last);
  // Later, the entry's object is its served JSON, resourceVersion included.
  await new Promise((resolve) => setImmediate(resolve));
  const later = sharedEntryObject(last);
  assert.equal((later.metadata as { resourceVersion?: string }).resourceVersion, String(last.modRevision));
  assert.equal((later.spec as { nodeName?: string }).nodeName, 'n2');
});
