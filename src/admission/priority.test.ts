import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ALL_RESOURCES } from '../api/catalogue.js';
import { ORCH_BRAND } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { StatusError } from '../machinery/status.js';
import { bootstrapPriorityClasses } from '../registry/bootstrap.js';
import type { RequestContext } from '../registry/context.js';
import { Registry } from '../registry/registry.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import type { AdmissionAttributes } from './admission.js';
import { priorityAdmission } from './priority.js';

let registry: Registry;
const ctx: RequestContext = { user: { name: 'admin', groups: ['system:masters'] }, brand: ORCH_BRAND, now: new Date() };

before(async () => {
  registry = new Registry(ALL_RESOURCES, ORCH_BRAND, new MemoryStore());
  await registry.startCaches();
  await bootstrapPriorityClasses(registry);
});

after(() => registry.stopCaches());

function podAttributes(spec: Record<string, unknown>, operation: 'CREATE' | 'UPDATE' = 'CREATE', oldObject?: Obj): AdmissionAttributes {
  const pods = registry.byResource('', 'pods');
  assert.ok(pods);
  return {
    operation,
    resource: pods.info,
    namespace: 'default',
    name: '',
    subresource: '',
    object: { metadata: { name: 'p' }, spec },
    oldObject,
    ctx,
    dryRun: false,
  };
}

test('a pod without a class gets priority 0 and PreemptLowerPriority', async () => {
  const a = podAttributes({});
  await priorityAdmission(registry).admit(a);
  assert.equal((a.object.spec as Record<string, unknown>).priority, 0);
  assert.equal((a.object.spec as Record<string, unknown>).preemptionPolicy, 'PreemptLowerPriority');
});

test('a named class sets its value; an unknown class is Forbidden', async () => {
  const a = podAttributes({ priorityClassName: 'system-cluster-critical' });
  await priorityAdmission(registry).admit(a);
  assert.equal((a.object.spec as Record<string, unknown>).priority, 2000000000);
  await assert.rejects(
    async () => priorityAdmission(registry).admit(podAttributes({ priorityClassName: 'nope' })),
    (e: unknown) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.code, 403);
      assert.equal(e.message, 'pods "p" is forbidden: no PriorityClass with name nope was found');
      return true;
    },
  );
});

test('an update keeps the priority create set', async () => {
  const a = podAttributes({}, 'UPDATE', { spec: { priority: 5, preemptionPolicy: 'Never' } });
  await priorityAdmission(registry).admit(a);
  assert.deepEqual(a.object.spec, { priority: 5, preemptionPolicy: 'Never' });
});

test('subresource writes are left alone', async () => {
  const a = { ...podAttributes({}), subresource: 'status' };
  await priorityAdmission(registry).admit(a);
  assert.deepEqual(a.object.spec, {});
});
