import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { Code } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { ERR_REASON, NodeName } from './node-name.js';

const pod = (nodeName?: string): Pod => ({ metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [], nodeName } });

test('NodeName.filter', () => {
  const pl = new NodeName();
  const node = new NodeInfo({ metadata: { name: 'foo' } });
  const cases: [string, Pod, Code, string[]][] = [
    ['no host specified', pod(), Code.Success, []],
    ['host matches', pod('foo'), Code.Success, []],
    ['host differs', pod('bar'), Code.UnschedulableAndUnresolvable, [ERR_REASON]],
  ];
  for (const [name, p, code, reasons] of cases) {
    const s = pl.filter(new CycleState(), p, node);
    assert.equal(s.code, code, name);
    assert.deepEqual(s.reasons, reasons, name);
  }
  assert.equal(pl.filter(new CycleState(), pod(), new NodeInfo()).code, Code.Error, 'node-less NodeInfo');
});
