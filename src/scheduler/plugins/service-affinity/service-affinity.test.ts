import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import type { FrameworkHandle, SelectorObject } from '../../framework/handle.js';
import { PodInfo } from '../../framework/pod-info.js';
import { snapshotOf, type Snapshot } from '../../framework/snapshot.js';
import { Code } from '../../framework/status.js';
import type { Node, Pod } from '../../framework/types.js';
import { ERR_REASON, ServiceAffinity, type ServiceAffinityArgs } from './service-affinity.js';

let seq = 0;
const pod = (o: { node?: string; labels?: Record<string, string>; ns?: string; nodeSelector?: Record<string, string> } = {}): Pod => ({
  metadata: { name: `p${++seq}`, uid: `u${seq}`, namespace: o.ns ?? '', labels: o.labels },
  spec: { nodeName: o.node, nodeSelector: o.nodeSelector, containers: [] },
});
const svc = (selector: Record<string, string>, ns = ''): SelectorObject => ({ metadata: { name: `s${++seq}`, namespace: ns }, spec: { selector } });
const node = (name: string, labels: Record<string, string>): Node => ({ metadata: { name, labels } });

function plugin(snap: Snapshot, services: SelectorObject[], args: ServiceAffinityArgs): ServiceAffinity {
  const listers = {
    services: {
      list: () => services,
      listInNamespace: (ns: string) => services.filter((s) => (s.metadata.namespace ?? '') === ns),
      get: () => undefined,
    },
  };
  return new ServiceAffinity(args, { snapshotSharedLister: () => snap, listers } as unknown as FrameworkHandle);
}

// Upstream TestServiceAffinity.
test('ServiceAffinity Filter (upstream cases)', () => {
  const selector = { foo: 'bar' };
  const nodes = [
    node('machine1', { region: 'r1', zone: 'z11' }),
    node('machine2', { region: 'r1', zone: 'z12' }),
    node('machine3', { region: 'r2', zone: 'z21' }),
    node('machine4', { region: 'r2', zone: 'z22' }),
    node('machine5', { region: 'r2', zone: 'z22' }),
  ];
  const region = ['region'];
  const cases: [string, Pod, Pod[], SelectorObject[], string, string[], Code][] = [
    ['nothing scheduled', pod(), [], [], 'machine1', region, Code.Success],
    ['pod with region label match', pod({ nodeSelector: { region: 'r1' } }), [], [], 'machine1', region, Code.Success],
    ['pod with region label mismatch', pod({ nodeSelector: { region: 'r2' } }), [], [], 'machine1', region, Code.Unschedulable],
    ['service pod on same node', pod({ labels: selector }), [pod({ node: 'machine1', labels: selector })], [svc(selector)], 'machine1', region, Code.Success],
    [
      'service pod on different node, region match',
      pod({ labels: selector }),
      [pod({ node: 'machine2', labels: selector })],
      [svc(selector)],
      'machine1',
      region,
      Code.Success,
    ],
    [
      'service pod on different node, region mismatch',
      pod({ labels: selector }),
      [pod({ node: 'machine3', labels: selector })],
      [svc(selector)],
      'machine1',
      region,
      Code.Unschedulable,
    ],
    [
      'service in different namespace, region mismatch',
      pod({ labels: selector, ns: 'ns1' }),
      [pod({ node: 'machine3', labels: selector, ns: 'ns1' })],
      [svc(selector, 'ns2')],
      'machine1',
      region,
      Code.Success,
    ],
    [
      'pod in different namespace, region mismatch',
      pod({ labels: selector, ns: 'ns1' }),
      [pod({ node: 'machine3', labels: selector, ns: 'ns2' })],
      [svc(selector, 'ns1')],
      'machine1',
      region,
      Code.Success,
    ],
    [
      'service and pod in same namespace, region mismatch',
      pod({ labels: selector, ns: 'ns1' }),
      [pod({ node: 'machine3', labels: selector, ns: 'ns1' })],
      [svc(selector, 'ns1')],
      'machine1',
      region,
      Code.Unschedulable,
    ],
    [
      'service pod on different node, multiple labels, not all match',
      pod({ labels: selector }),
      [pod({ node: 'machine2', labels: selector })],
      [svc(selector)],
      'machine1',
      ['region', 'zone'],
      Code.Unschedulable,
    ],
    [
      'service pod on different node, multiple labels, all match',
      pod({ labels: selector }),
      [pod({ node: 'machine5', labels: selector })],
      [svc(selector)],
      'machine4',
      ['region', 'zone'],
      Code.Success,
    ],
  ];
  for (const [name, p, pods, services, target, labels, code] of cases) {
    const snap = snapshotOf(pods, nodes);
    const pl = plugin(snap, services, { affinityLabels: labels });
    const state = new CycleState();
    assert.ok(pl.preFilter(state, p).isSuccess(), name);
    const s = pl.filter(state, p, snap.get(target)!);
    assert.equal(s.code, code, name);
    if (code !== Code.Success) assert.deepEqual(s.reasons, [ERR_REASON], name);
  }
});

// Upstream TestServiceAffinityScore.
test('ServiceAffinity Score (upstream cases)', () => {
  const labels1 = { foo: 'bar', baz: 'blah' };
  const labels2 = { bar: 'foo', baz: 'blah' };
  const labeled = {
    machine01: { name: 'value' },
    machine02: { name: 'value' },
    machine11: { zone: 'zone1' },
    machine12: { zone: 'zone1' },
    machine21: { zone: 'zone2' },
    machine22: { zone: 'zone2' },
  };
  const racks = {
    machine01: { name: 'value' },
    machine02: { name: 'value' },
    machine11: { zone: 'zone1', rack: 'rack1' },
    machine12: { zone: 'zone1', rack: 'rack2' },
    machine21: { zone: 'zone2', rack: 'rack1' },
    machine22: { zone: 'zone2', rack: 'rack1' },
  };
  const at = (n: string, labels?: Record<string, string>, ns?: string) => pod({ node: n, labels, ns });
  const order = ['machine11', 'machine12', 'machine21', 'machine22', 'machine01', 'machine02'];
  const cases: [string, Pod, Pod[], Record<string, Record<string, string>>, SelectorObject[], string[], number[]][] = [
    ['nothing scheduled', pod(), [], labeled, [], ['zone'], [100, 100, 100, 100, 0, 0]],
    ['no services', pod({ labels: labels1 }), [at('machine11')], labeled, [], ['zone'], [100, 100, 100, 100, 0, 0]],
    ['different services', pod({ labels: labels1 }), [at('machine11', labels2)], labeled, [svc({ key: 'value' })], ['zone'], [100, 100, 100, 100, 0, 0]],
    [
      'three pods, one service pod',
      pod({ labels: labels1 }),
      [at('machine01', labels2), at('machine11', labels2), at('machine21', labels1)],
      labeled,
      [svc(labels1)],
      ['zone'],
      [100, 100, 0, 0, 0, 0],
    ],
    [
      'three pods, two service pods on different machines',
      pod({ labels: labels1 }),
      [at('machine11', labels2), at('machine11', labels1), at('machine21', labels1)],
      labeled,
      [svc(labels1)],
      ['zone'],
      [50, 50, 50, 50, 0, 0],
    ],
    [
      'three service label match pods in different namespaces',
      pod({ labels: labels1, ns: 'default' }),
      [at('machine11', labels1), at('machine11', labels1, 'default'), at('machine21', labels1), at('machine21', labels1, 'ns1')],
      labeled,
      [svc(labels1, 'default')],
      ['zone'],
      [0, 0, 100, 100, 0, 0],
    ],
    [
      'four pods, three service pods',
      pod({ labels: labels1 }),
      [at('machine11', labels2), at('machine11', labels1), at('machine21', labels1), at('machine21', labels1)],
      labeled,
      [svc(labels1)],
      ['zone'],
      [66, 66, 33, 33, 0, 0],
    ],
    [
      'service with partial pod label matches',
      pod({ labels: labels1 }),
      [at('machine11', labels2), at('machine11', labels1), at('machine21', labels1)],
      labeled,
      [svc({ baz: 'blah' })],
      ['zone'],
      [33, 33, 66, 66, 0, 0],
    ],
    [
      'service pod on non-zoned node',
      pod({ labels: labels1 }),
      [at('machine01', labels1), at('machine11', labels1), at('machine21', labels1), at('machine21', labels1)],
      labeled,
      [svc(labels1)],
      ['zone'],
      [75, 75, 50, 50, 0, 0],
    ],
    [
      'three pods, two service pods, with rack label',
      pod({ labels: labels1 }),
      [at('machine01', labels2), at('machine11', labels1), at('machine21', labels1)],
      racks,
      [svc(labels1)],
      ['zone', 'rack'],
      [25, 75, 25, 25, 0, 0],
    ],
  ];
  const got = cases.map(([name, p, pods, nodeLabels, services, labels]) => {
    const snap = snapshotOf(
      pods,
      Object.entries(nodeLabels).map(([n, l]) => node(n, l)),
    );
    const pl = plugin(snap, services, { antiAffinityLabelsPreference: labels });
    const st = new CycleState();
    const list = order.map((n) => ({ name: n, score: pl.score(st, p, snap.get(n)!) }));
    assert.ok(pl.normalizeScore(st, p, list).isSuccess());
    return [name, list.map((x) => x.score)];
  });
  assert.deepEqual(
    got,
    cases.map(([name, , , , , , want]) => [name, want]),
  );
});

// Upstream TestPreFilterStateAddRemovePod / TestPreFilterDisabled.
test('ServiceAffinity AddPod/RemovePod and a missing PreFilter state', () => {
  const sel = { foo: 'bar' };
  const nodes = [node('nodeA', { region: 'r1', zone: 'z11' }), node('nodeB', { region: 'r1', zone: 'z12' }), node('nodeC', { region: 'r2', zone: 'z21' })];
  const pending = pod({ labels: sel });
  const snap = snapshotOf([pod({ node: 'nodeC' })], nodes);
  const pl = plugin(snap, [svc(sel)], { affinityLabels: ['region'] });
  const st = new CycleState();
  pl.preFilter(st, pending);
  assert.ok(pl.filter(st, pending, snap.get('nodeC')!).isSuccess(), 'no service pod yet');
  const added = new PodInfo(pod({ node: 'nodeB', labels: sel }));
  const before = st.clone();
  pl.preFilterExtensions().addPod(st, pending, added, snap.get('nodeB')!);
  assert.equal(pl.filter(st, pending, snap.get('nodeC')!).code, Code.Unschedulable, 'the added pod pins region r1');
  assert.ok(pl.filter(before, pending, snap.get('nodeC')!).isSuccess(), 'clone is independent');
  pl.preFilterExtensions().removePod(st, pending, added, snap.get('nodeB')!);
  assert.ok(pl.filter(st, pending, snap.get('nodeC')!).isSuccess());
  const missing = pl.filter(new CycleState(), pending, snap.get('nodeA')!);
  assert.equal(missing.code, Code.Error);
  assert.equal(missing.message(), 'error reading "PreFilterServiceAffinity" from cycleState: not found');
});
