import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { PodInfo } from '../../framework/pod-info.js';
import { snapshotOf } from '../../framework/snapshot.js';
import { Code } from '../../framework/status.js';
import type { Node, Pod } from '../../framework/types.js';
import {
  ERR_REASON_AFFINITY_NOT_MATCH as GENERAL,
  ERR_REASON_AFFINITY_RULES_NOT_MATCH as AFFINITY,
  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH as ANTI,
  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH as EXISTING,
  type PreFilterState,
  preFilterStateKey,
} from './filtering.js';
import { InterPodAffinity, resolveArgs } from './inter-pod-affinity.js';
import { expr, exprs, node, pod, podWithTerms, term } from './testing.js';

type Want = undefined | [Code, string];
const UNRESOLVABLE_AFFINITY: Want = [Code.UnschedulableAndUnresolvable, AFFINITY];
const ANTI_FAILS: Want = [Code.Unschedulable, ANTI];
const EXISTING_FAILS: Want = [Code.Unschedulable, EXISTING];

function filterAll(incoming: Pod, pods: Pod[], nodes: Node[]) {
  const snap = snapshotOf(pods, nodes);
  const pl = new InterPodAffinity({}, { snapshotSharedLister: () => snap });
  const state = new CycleState();
  const pre = pl.preFilter(state, incoming);
  assert.ok(pre.isSuccess(), pre.message());
  return { pl, state, snap, results: nodes.map((n) => pl.filter(state, incoming, snap.get(n.metadata.name!)!)) };
}

function check(name: string, status: { code: Code; reasons: readonly string[] }, want: Want): void {
  if (want === undefined) {
    assert.equal(status.code, Code.Success, `${name}: ${status.reasons}`);
    return;
  }
  assert.equal(status.code, want[0], name);
  assert.deepEqual(status.reasons, [GENERAL, want[1]], name);
}

const podLabel = { service: 'securityscan' };
const podLabel2 = { security: 'S1' };
const node1 = node('machine1', { region: 'r1', zone: 'z11' });
const securityscanInRegion = term(expr('service', 'In', ['securityscan', 'value2']), 'region');

// Upstream TestRequiredAffinitySingleNode.
test('InterPodAffinity Filter on a single node (upstream cases)', () => {
  const cases: [string, Pod, Pod[], Want][] = [
    ['no required pod affinity, no existing pods', pod(''), [], undefined],
    ['In operator matches the existing pod', podWithTerms('', '', podLabel2, [securityscanInRegion]), [pod('machine1', podLabel)], undefined],
    [
      'NotIn operator in labelSelector matches the existing pod',
      podWithTerms('', '', podLabel2, [term(expr('service', 'NotIn', ['securityscan3', 'value3']), 'region')]),
      [pod('machine1', podLabel)],
      undefined,
    ],
    [
      'does not satisfy the PodAffinity because of a different namespace',
      podWithTerms('', '', podLabel2, [term(expr('service', 'In', ['securityscan', 'value2']), '', ['DiffNameSpace'])]),
      [pod('machine1', podLabel, undefined, 'ns')],
      UNRESOLVABLE_AFFINITY,
    ],
    [
      "doesn't satisfy the PodAffinity because of an unmatching labelSelector",
      podWithTerms('', '', podLabel, [term(expr('service', 'In', ['antivirusscan', 'value2']), '')]),
      [pod('machine1', podLabel)],
      UNRESOLVABLE_AFFINITY,
    ],
    [
      'different label operators in multiple required terms',
      podWithTerms('', '', podLabel2, [
        term(exprs(['service', 'Exists'], ['wrongkey', 'DoesNotExist']), 'region'),
        term(exprs(['service', 'In', ['securityscan']], ['service', 'NotIn', ['WrongValue']]), 'region'),
      ]),
      [pod('machine1', podLabel)],
      undefined,
    ],
    [
      'matchExpressions are ANDed: one item does not match',
      podWithTerms('', '', podLabel2, [
        term(exprs(['service', 'Exists'], ['wrongkey', 'DoesNotExist']), 'region'),
        term(exprs(['service', 'In', ['securityscan2']], ['service', 'NotIn', ['WrongValue']]), 'region'),
      ]),
      [pod('machine1', podLabel)],
      UNRESOLVABLE_AFFINITY,
    ],
    [
      'satisfies PodAffinity and PodAntiAffinity with the existing pod',
      podWithTerms('', '', podLabel2, [securityscanInRegion], [term(expr('service', 'In', ['antivirusscan', 'value2']), 'node')]),
      [pod('machine1', podLabel)],
      undefined,
    ],
    [
      'satisfies PodAffinity, PodAntiAffinity and anti-affinity symmetry',
      podWithTerms('', '', podLabel2, [securityscanInRegion], [term(expr('service', 'In', ['antivirusscan', 'value2']), 'node')]),
      [podWithTerms('', 'machine1', podLabel, undefined, [term(expr('service', 'In', ['antivirusscan', 'value2']), 'node')])],
      undefined,
    ],
    [
      "satisfies PodAffinity but doesn't satisfy PodAntiAffinity",
      podWithTerms('', '', podLabel2, [securityscanInRegion], [term(expr('service', 'In', ['securityscan', 'value2']), 'zone')]),
      [pod('machine1', podLabel)],
      ANTI_FAILS,
    ],
    [
      "satisfies PodAffinity and PodAntiAffinity but doesn't satisfy anti-affinity symmetry",
      podWithTerms('', '', podLabel, [securityscanInRegion], [term(expr('service', 'In', ['antivirusscan', 'value2']), 'node')]),
      [podWithTerms('', 'machine1', podLabel, undefined, [term(expr('service', 'In', ['securityscan', 'value2']), 'zone')])],
      EXISTING_FAILS,
    ],
    [
      'pod matches its own label in PodAffinity; the existing pod is on an unknown node',
      podWithTerms('', '', podLabel, [term(expr('service', 'NotIn', ['securityscan', 'value2']), 'region')]),
      [pod('machine2', podLabel)],
      UNRESOLVABLE_AFFINITY,
    ],
    [
      'existing anti-affinity is respected when the pod has none: violated',
      pod('', podLabel),
      [podWithTerms('', 'machine1', podLabel, undefined, [term(expr('service', 'In', ['securityscan', 'value2']), 'zone')])],
      EXISTING_FAILS,
    ],
    [
      'existing anti-affinity is respected when the pod has none: satisfied',
      pod('', podLabel),
      [podWithTerms('', 'machine1', podLabel, undefined, [term(expr('service', 'NotIn', ['securityscan', 'value2']), 'zone')])],
      undefined,
    ],
    [
      'incoming anti-affinity with multiple terms, one matches an existing pod',
      podWithTerms('', '', podLabel, undefined, [term(expr('service', 'Exists'), 'region'), term(expr('security', 'Exists'), 'region')]),
      [podWithTerms('', 'machine1', podLabel2, undefined, [term(expr('security', 'Exists'), 'zone')])],
      ANTI_FAILS,
    ],
    [
      'the first pod of a group with affinity to itself may schedule',
      podWithTerms('', '', podLabel, [term(expr('service', 'In', ['securityscan']), 'region')]),
      [],
      undefined,
    ],
    [
      'the first pod of a group still needs the topology key on the node',
      podWithTerms('', '', podLabel, [term(expr('service', 'In', ['securityscan']), 'rack')]),
      [],
      UNRESOLVABLE_AFFINITY,
    ],
  ];
  for (const [name, incoming, pods, want] of cases) check(name, filterAll(incoming, pods, [node1]).results[0], want);
});

// Upstream TestRequiredAffinityMultipleNodes (a selection).
test('InterPodAffinity Filter across nodes (upstream cases)', () => {
  const zoneNodes = [node('machine1', { region: 'r1', zone: 'z1', hostname: 'h1' }), node('machine2', { region: 'r1', zone: 'z2', hostname: 'h2' })];
  const regionNodes = [
    node('machine1', { region: 'r1', hostname: 'h1' }),
    node('machine2', { region: 'r1', hostname: 'h2' }),
    node('machine3', { region: 'r2' }),
  ];
  const cases: [string, Pod, Pod[], Node[], Want[]][] = [
    [
      'a pod can be scheduled onto all nodes of the region of the matching pod',
      podWithTerms('', '', {}, [term(expr('foo', 'In', ['bar']), 'region')]),
      [pod('machine1', { foo: 'bar' })],
      regionNodes,
      [undefined, undefined, UNRESOLVABLE_AFFINITY],
    ],
    [
      'anti-affinity by zone: only the other zone fits',
      podWithTerms('', '', { foo: 'bar' }, undefined, [term(expr('foo', 'In', ['bar']), 'zone')]),
      [pod('machine1', { foo: 'bar' })],
      zoneNodes,
      [ANTI_FAILS, undefined],
    ],
    [
      'existing anti-affinity by region keeps the pod out of the whole region',
      pod('', { foo: 'bar' }),
      [podWithTerms('', 'machine1', {}, undefined, [term(expr('foo', 'In', ['bar']), 'region')])],
      regionNodes,
      [EXISTING_FAILS, EXISTING_FAILS, undefined],
    ],
    [
      'existing pods in another namespace are not matched by a namespaced term',
      podWithTerms('ns1', '', { foo: 'bar' }, undefined, [term(expr('foo', 'In', ['bar']), 'hostname')]),
      [pod('machine1', { foo: 'bar' }, undefined, 'ns2')],
      zoneNodes,
      [undefined, undefined],
    ],
    [
      'nodes without the topology key fail required affinity even when the pod matches itself',
      podWithTerms('', '', { foo: 'bar' }, [term(expr('foo', 'In', ['bar']), 'zone')]),
      [],
      regionNodes,
      [UNRESOLVABLE_AFFINITY, UNRESOLVABLE_AFFINITY, UNRESOLVABLE_AFFINITY],
    ],
  ];
  for (const [name, incoming, pods, nodes, wants] of cases) {
    const { results } = filterAll(incoming, pods, nodes);
    wants.forEach((w, i) => {
      check(`${name} [${nodes[i].metadata.name}]`, results[i], w);
    });
  }
});

test('InterPodAffinity PreFilter rejects unparsable selectors and Filter needs PreFilter', () => {
  const bad = podWithTerms('', '', {}, [term(expr('foo', 'In', ['{{.bad-value.}}']), 'region')]);
  const snap = snapshotOf([], [node1]);
  const pl = new InterPodAffinity({}, { snapshotSharedLister: () => snap });
  const s = pl.preFilter(new CycleState(), bad);
  assert.equal(s.code, Code.UnschedulableAndUnresolvable);
  assert.match(s.message(), /^parsing pod: requiredAffinityTerms: /);
  const f = pl.filter(new CycleState(), pod(''), snap.get('machine1')!);
  assert.equal(f.code, Code.Error);
  assert.equal(f.message(), 'error reading "PreFilterInterPodAffinity" from cycleState: not found');
});

// Upstream TestPreFilterStateAddRemovePod: adding a pod gives the state computed with it; removing restores.
test('InterPodAffinity AddPod/RemovePod keep the PreFilter state consistent', () => {
  const nodes = [node('nodeA', { region: 'r1', zone: 'z11' }), node('nodeB', { region: 'r1', zone: 'z12' }), node('nodeC', { region: 'r2', zone: 'z21' })];
  const sel = expr('service', 'In', ['securityscan', 'value2']);
  const pending = podWithTerms('', '', { service: 'securityscan' }, [term(sel, 'region')], [term(expr('service', 'In', ['antivirusscan']), 'zone')]);
  const existing = [podWithTerms('', 'nodeA', { service: 'securityscan' }, undefined, [term(sel, 'zone')]), pod('nodeC', { service: 'antivirusscan' })];
  const added = podWithTerms('', 'nodeB', { service: 'antivirusscan' }, undefined, [term(sel, 'region')]);
  const counts = (s: PreFilterState) => [s.existingAntiAffinityCounts, s.affinityCounts, s.antiAffinityCounts].map((m) => [...m].sort());
  const all = filterAll(pending, [...existing, added], nodes);
  const base = filterAll(pending, existing, nodes);
  const before = counts(base.state.read(preFilterStateKey)!);
  const cloned = base.state.clone();
  const ext = base.pl.preFilterExtensions();
  const pi = new PodInfo(added);
  assert.ok(ext.addPod(base.state, pending, pi, base.snap.get('nodeB')!).isSuccess());
  assert.deepEqual(counts(base.state.read(preFilterStateKey)!), counts(all.state.read(preFilterStateKey)!));
  assert.deepEqual(counts(cloned.read(preFilterStateKey)!), before, 'clone is independent');
  assert.ok(ext.removePod(base.state, pending, pi, base.snap.get('nodeB')!).isSuccess());
  assert.deepEqual(counts(base.state.read(preFilterStateKey)!), before);
  // With the added pod: its region-wide anti-affinity blocks r1, and nodeB's zone holds an antivirusscan pod.
  assert.deepEqual(
    all.results.map((r) => r.reasons[1]),
    [EXISTING, ANTI, AFFINITY],
  );
});

test('InterPodAffinity args: hardPodAffinityWeight defaults to 1 and must be in [0, 100]', () => {
  assert.deepEqual(resolveArgs(undefined), { hardPodAffinityWeight: 1 });
  assert.deepEqual(resolveArgs({ hardPodAffinityWeight: 0 }), { hardPodAffinityWeight: 0 });
  assert.throws(() => resolveArgs({ hardPodAffinityWeight: 101 }), /not in valid range \[0-100\]/);
  assert.throws(() => resolveArgs({ hardPodAffinityWeight: -1 }), /not in valid range \[0-100\]/);
});
