import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import type { Binding } from '../../framework/handle.js';
import { Code } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { DefaultBinder } from './default-binder.js';

const pod: Pod = { metadata: { name: 'foo', namespace: 'ns', uid: 'u1' }, spec: { containers: [] } };

test('DefaultBinder posts a Binding to the node', async () => {
  const seen: Binding[] = [];
  const pl = new DefaultBinder({ bind: async (b) => void seen.push(b) });
  const s = await pl.bind(new CycleState(), pod, 'node-1');
  assert.equal(s.code, Code.Success);
  assert.deepEqual(seen, [
    { apiVersion: 'v1', kind: 'Binding', metadata: { namespace: 'ns', name: 'foo', uid: 'u1' }, target: { kind: 'Node', name: 'node-1' } },
  ]);
});

test('DefaultBinder returns Error when the API refuses', async () => {
  const pl = new DefaultBinder({
    bind: async () => {
      throw new Error('binding rejected');
    },
  });
  const s = await pl.bind(new CycleState(), pod, 'node-1');
  assert.equal(s.code, Code.Error);
  assert.deepEqual(s.reasons, ['binding rejected']);
});
