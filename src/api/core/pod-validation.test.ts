import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ORCH_BRAND } from '../../machinery/brand.js';
import { fieldErrorBody, type FieldError } from '../../machinery/status.js';
import { defaultPod, defaultPodTemplateSpec } from './pod-defaults.js';
import { validatePodBinding, validatePodCreate, validatePodSpec, validatePodTemplateSpec, validatePodUpdate } from './pod-validation.js';

const show = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

function pod(spec: Record<string, unknown>): Record<string, any> {
  const p: Record<string, any> = { metadata: { name: 'p' }, spec };
  defaultPod(p);
  return p;
}

test('a defaulted minimal pod is valid', () => {
  assert.deepEqual(show(validatePodCreate(pod({ containers: [{ name: 'a', image: 'x' }] }), ORCH_BRAND)), []);
});

test('validatePodSpec reports paths under the given spec path', () => {
  const spec = { containers: [{ name: 'a', image: '' }], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationMessagePolicy: 'File' };
  const errs = show(validatePodSpec(spec, 'spec.template.spec'));
  assert.ok(errs.includes('spec.template.spec.containers[0].image: Required value'), errs.join('\n'));
});

test('validatePodTemplateSpec checks template labels and refuses ephemeral containers', () => {
  const template: Record<string, any> = {
    metadata: { labels: { 'bad key': 'v' } },
    spec: { containers: [{ name: 'a', image: 'x' }], ephemeralContainers: [{ name: 'e', image: 'x' }] },
  };
  defaultPodTemplateSpec(template);
  const errs = show(validatePodTemplateSpec(template, 'spec.template'));
  assert.ok(
    errs.some((e) => e.startsWith('spec.template.labels: Invalid value: "bad key"')),
    errs.join('\n'),
  );
  assert.ok(errs.includes('spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template'), errs.join('\n'));
});

test('host ports may not collide across containers', () => {
  const p = pod({
    containers: [
      { name: 'a', image: 'x', ports: [{ containerPort: 80, hostPort: 8080 }] },
      { name: 'b', image: 'x', ports: [{ containerPort: 81, hostPort: 8080 }] },
    ],
  });
  assert.deepEqual(show(validatePodCreate(p, ORCH_BRAND)), ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"']);
});

test('init containers may not share names with containers or carry probes', () => {
  const p = pod({
    containers: [{ name: 'a', image: 'x' }],
    initContainers: [{ name: 'a', image: 'x', readinessProbe: { exec: { command: ['true'] } } }],
  });
  const errs = show(validatePodCreate(p, ORCH_BRAND));
  assert.ok(errs.includes('spec.initContainers[0].name: Duplicate value: "a"'), errs.join('\n'));
  assert.ok(
    errs.some((e) => e.startsWith('spec.initContainers[0].readinessProbe: Invalid value:') && e.endsWith('must not be set for init containers')),
    errs.join('\n'),
  );
});

test('pod updates: tolerations may only be added; other spec changes are forbidden', () => {
  const old = pod({ containers: [{ name: 'a', image: 'x' }], tolerations: [{ key: 'k', operator: 'Exists' }] });
  old.metadata.resourceVersion = '1';
  const added = structuredClone(old);
  added.spec.tolerations.push({ key: 'j', operator: 'Exists' });
  assert.deepEqual(show(validatePodUpdate(added, old, ORCH_BRAND)), []);
  const removed = structuredClone(old);
  removed.spec.tolerations = [];
  assert.deepEqual(show(validatePodUpdate(removed, old, ORCH_BRAND)), [
    'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
  ]);
  const changed = structuredClone(old);
  changed.spec.containers = [...changed.spec.containers, { name: 'b', image: 'y' }];
  defaultPod(changed);
  assert.deepEqual(show(validatePodUpdate(changed, old, ORCH_BRAND)), ['spec.containers: Forbidden: pod updates may not add or remove containers']);
});

test('validatePodBinding', () => {
  assert.deepEqual(show(validatePodBinding({ target: { name: 'n' } })), []);
  assert.deepEqual(show(validatePodBinding({ target: { kind: 'Node' } })), ['target.name: Required value']);
});
