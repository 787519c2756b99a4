/**
 * Selectors over watch-cache entries: name and namespace come from the storage key, so a
 * selector on them decides without parsing the object; the answers are those of the object.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_BRAND } from '../machinery/brand.js';
import { configMaps } from '../api/core/configmaps.js';
import { namespaces } from '../api/core/namespaces.js';
import { pods } from '../api/core/pods.js';
import type { CacheEntry } from '../storage/cacher/types.js';
import { objectKey, resolveResource } from './resource-info.js';
import { selectionFor } from './selection.js';

/** An entry whose attributes fail the test if read: only the key may decide. */
function keyOnlyEntry(key: string): CacheEntry {
  return {
    key,
    modRevision: 1,
    json: Buffer.from('{}'),
    get labels(): Record<string, string> {
      throw new Error('labels read');
    },
    get fields(): Record<string, string> {
      throw new Error('fields read');
    },
  } as unknown as CacheEntry;
}

describe('field selectors on cache entries', () => {
  const cm = resolveResource(configMaps, ORCH_BRAND);
  const ns = resolveResource(namespaces, ORCH_BRAND);
  const entry = (info: typeof cm, namespace: string, name: string) => keyOnlyEntry(objectKey(info, namespace, name));

  it('metadata.name and metadata.namespace of a namespaced object are read from its key', () => {
    const byName = selectionFor(cm, { fieldSelector: 'metadata.name=orch-root-ca.crt' });
    assert.equal(byName.matchesEntry(entry(cm, 'team-a', 'orch-root-ca.crt')), true);
    assert.equal(byName.matchesEntry(entry(cm, 'team-a', 'other')), false);
    const byNamespace = selectionFor(cm, { fieldSelector: 'metadata.namespace!=kube-public,metadata.name=x' });
    assert.equal(byNamespace.matchesEntry(entry(cm, 'default', 'x')), true);
    assert.equal(byNamespace.matchesEntry(entry(cm, 'kube-public', 'x')), false);
  });

  it('a cluster-scoped object has its name in the key and no namespace', () => {
    assert.equal(selectionFor(ns, { fieldSelector: 'metadata.name=default' }).matchesEntry(entry(ns, '', 'default')), true);
    assert.equal(selectionFor(ns, { fieldSelector: 'metadata.name=default' }).matchesEntry(entry(ns, '', 'other')), false);
  });

  it('other fields are read from the entry', () => {
    const po = resolveResource(pods, ORCH_BRAND);
    const e: CacheEntry = {
      key: objectKey(po, 'a', 'b'),
      modRevision: 1,
      json: Buffer.from('{}'),
      labels: undefined,
      fields: { 'spec.nodeName': 'n1' },
    } as CacheEntry;
    assert.equal(selectionFor(po, { fieldSelector: 'spec.nodeName=n1,metadata.name=b' }).matchesEntry(e), true);
    assert.equal(selectionFor(po, { fieldSelector: 'spec.nodeName=n2' }).matchesEntry(e), false);
  });
});
