import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { Code } from '../../framework/status.js';
import type { Pod, Toleration } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';
import { ERR_REASON_UNKNOWN_CONDITION, ERR_REASON_UNSCHEDULABLE, NodeUnschedulable } from './node-unschedulable.js';

const pod = (tolerations?: Toleration[]): Pod => ({ metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [], tolerations } });
const node = (unschedulable?: boolean) => new NodeInfo({ metadata: { name: 'n' }, spec: { unschedulable } });
const key = ORCH_NAMES.unschedulableTaint;

test('NodeUnschedulable.filter', () => {
  const pl = new NodeUnschedulable(key);
  const cases: [string, Pod, NodeInfo, Code, string[]][] = [
    ['schedulable node', pod(), node(false), Code.Success, []],
    ['unset unschedulable', pod(), node(), Code.Success, []],
    ['cordoned node', pod(), node(true), Code.UnschedulableAndUnresolvable, [ERR_REASON_UNSCHEDULABLE]],
    ['cordoned, pod tolerates the taint', pod([{ key, operator: 'Exists', effect: 'NoSchedule' }]), node(true), Code.Success, []],
    [
      'cordoned, toleration for another effect',
      pod([{ key, operator: 'Exists', effect: 'NoExecute' }]),
      node(true),
      Code.UnschedulableAndUnresolvable,
      [ERR_REASON_UNSCHEDULABLE],
    ],
    ['cordoned, tolerate-everything toleration', pod([{ operator: 'Exists' }]), node(true), Code.Success, []],
    ['no node object', pod(), new NodeInfo(), Code.UnschedulableAndUnresolvable, [ERR_REASON_UNKNOWN_CONDITION]],
  ];
  for (const [name, p, n, code, reasons] of cases) {
    const s = pl.filter(new CycleState(), p, n);
    assert.equal(s.code, code, name);
    assert.deepEqual(s.reasons, reasons, name);
  }
});
