import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Obj } from '../machinery/object.js';
import { flowcontrolPrinters } from './flowcontrol.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const printers = flowcontrolPrinters();

describe('flowcontrol.apiserver printers', () => {
  it('flow schemas: priority level, precedence, distinguisher, missing level (TestPrintFlowSchema)', () => {
    const fs = printers.FlowSchema;
    assert.deepEqual(
      fs.columns.map((c) => c.name),
      ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL'],
    );
    const obj = {
      metadata: { name: 'all-matcher' },
      spec: { priorityLevelConfiguration: { name: 'allee' }, matchingPrecedence: 1, distinguisherMethod: { type: 'ByUser' } },
      status: { conditions: [{ type: 'Dangling', status: 'True' }] },
    };
    assert.deepEqual(fs.rows(obj, NOW)[0], ['all-matcher', 'allee', 1, 'ByUser', '<unknown>', 'True']);
    assert.deepEqual(fs.rows({ metadata: { name: 'x' }, spec: { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 5 } }, NOW)[0].slice(3), [
      '<none>',
      '<unknown>',
      '?',
    ]);
  });

  it('flow schema lists print by precedence, then name', () => {
    const fs = (name: string, matchingPrecedence: number): Obj => ({ metadata: { name }, spec: { matchingPrecedence } });
    const sorted = printers.FlowSchema.sortList?.([fs('b', 500), fs('z', 100), fs('a', 500)]) ?? [];
    assert.deepEqual(
      sorted.map((o) => o.metadata?.name),
      ['z', 'a', 'b'],
    );
  });

  it('priority level configurations (1.25: AssuredConcurrencyShares)', () => {
    const plc = printers.PriorityLevelConfiguration;
    assert.deepEqual(
      plc.columns.map((c) => c.name),
      ['Name', 'Type', 'AssuredConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age'],
    );
    const queued = {
      metadata: { name: 'workload-high' },
      spec: {
        type: 'Limited',
        limited: { assuredConcurrencyShares: 40, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } } },
      },
    };
    assert.deepEqual(plc.rows(queued, NOW)[0], ['workload-high', 'Limited', 40, 128, 6, 50, '<unknown>']);
    const rejecting = { metadata: { name: 'r' }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } };
    assert.deepEqual(plc.rows(rejecting, NOW)[0].slice(2, 6), [5, '<none>', '<none>', '<none>']);
    assert.deepEqual(plc.rows({ metadata: { name: 'exempt' }, spec: { type: 'Exempt' } }, NOW)[0].slice(1, 6), [
      'Exempt',
      '<none>',
      '<none>',
      '<none>',
      '<none>',
    ]);
  });
});
