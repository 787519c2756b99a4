import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Obj } from '../../machinery/object.js';
import { defaultJobLabels, generatedSelectorErrors, generateSelector } from './job-selector.js';

function job(labels?: Record<string, string>, spec: Record<string, unknown> = {}): Obj {
  return { metadata: { name: 'pi', uid: 'u-1' }, spec: { template: { metadata: labels ? { labels } : {} }, ...spec } };
}

test('the generated selector and labels, shared with Job labels defaulted from the template', () => {
  const j = job({ app: 'pi' });
  defaultJobLabels(j);
  generateSelector(j);
  assert.deepEqual(j.spec, {
    template: { metadata: { labels: { app: 'pi', 'job-name': 'pi', 'controller-uid': 'u-1' } } },
    selector: { matchLabels: { 'controller-uid': 'u-1' } },
  });
  assert.deepEqual(j.metadata?.labels, { app: 'pi', 'job-name': 'pi', 'controller-uid': 'u-1' });
  assert.deepEqual(generatedSelectorErrors(j), []);
});

test('a Job with its own labels keeps them; a manual selector is left alone', () => {
  const own = job({ app: 'pi' });
  (own.metadata as Record<string, unknown>).labels = { team: 'a' };
  defaultJobLabels(own);
  generateSelector(own);
  assert.deepEqual(own.metadata?.labels, { team: 'a' });
  const manual = job({ app: 'pi' }, { manualSelector: true, selector: { matchLabels: { app: 'pi' } } });
  generateSelector(manual);
  assert.deepEqual((manual.spec as Record<string, unknown>).selector, { matchLabels: { app: 'pi' } });
  assert.deepEqual(generatedSelectorErrors(manual), []);
});

test('generated labels that were changed are reported as upstream does', () => {
  const j = job({ 'job-name': 'other' });
  generateSelector(j);
  const errs = generatedSelectorErrors(j);
  assert.deepEqual(
    errs.map((e) => e.field),
    ['spec.template.metadata.labels[job-name]'],
  );
});
