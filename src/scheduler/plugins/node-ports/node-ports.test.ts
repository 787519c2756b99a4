import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { PodInfo } from '../../framework/pod-info.js';
import { Code } from '../../framework/status.js';
import type { ContainerPort, Pod } from '../../framework/types.js';
import { ERR_REASON, fitsPorts, NodePorts, wantedPorts } from './node-ports.js';

let n = 0;
/** Upstream's newPod: ports as "PROTOCOL/IP/PORT". */
const pod = (...ports: string[]): Pod => {
  const cps: ContainerPort[] = ports.map((s) => {
    const [protocol, hostIP, port] = s.split('/');
    return { containerPort: Number(port), hostPort: Number(port), hostIP, protocol };
  });
  return { metadata: { name: `p${++n}`, namespace: 'ns', uid: `u${n}` }, spec: { nodeName: 'm1', containers: [{ name: 'c', ports: cps }] } };
};
const nodeWith = (...pods: Pod[]): NodeInfo => {
  const ni = new NodeInfo({ metadata: { name: 'm1' } });
  for (const p of pods) ni.addPod(new PodInfo(p));
  return ni;
};

// Upstream's TestNodePorts.
test('NodePorts PreFilter + Filter (upstream cases)', () => {
  const pl = new NodePorts();
  const cases: [string, Pod, NodeInfo, boolean][] = [
    ['other port', pod('UDP/127.0.0.1/8080'), nodeWith(pod('UDP/127.0.0.1/9090')), true],
    ['same udp port', pod('UDP/127.0.0.1/8080'), nodeWith(pod('UDP/127.0.0.1/8080')), false],
    ['same tcp port', pod('TCP/127.0.0.1/8080'), nodeWith(pod('TCP/127.0.0.1/8080')), false],
    ['different host ip', pod('TCP/127.0.0.1/8080'), nodeWith(pod('TCP/127.0.0.2/8080')), true],
    ['different protocol', pod('UDP/127.0.0.1/8080'), nodeWith(pod('TCP/127.0.0.1/8080')), true],
    ['second udp port conflict', pod('UDP/127.0.0.1/8000', 'UDP/127.0.0.1/8080'), nodeWith(pod('UDP/127.0.0.1/8080')), false],
    ['first tcp port conflict', pod('TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8080'), nodeWith(pod('TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8081')), false],
    ['first tcp port conflict due to 0.0.0.0 hostIP', pod('TCP/0.0.0.0/8001'), nodeWith(pod('TCP/127.0.0.1/8001')), false],
    ['TCP hostPort conflict due to 0.0.0.0 hostIP', pod('TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'), nodeWith(pod('TCP/127.0.0.1/8001')), false],
    ['second tcp port conflict to 0.0.0.0 hostIP', pod('TCP/127.0.0.1/8001'), nodeWith(pod('TCP/0.0.0.0/8001')), false],
    ['second different protocol', pod('UDP/127.0.0.1/8001'), nodeWith(pod('TCP/0.0.0.0/8001')), true],
    ['UDP hostPort conflict due to 0.0.0.0 hostIP', pod('UDP/127.0.0.1/8001'), nodeWith(pod('TCP/0.0.0.0/8001', 'UDP/0.0.0.0/8001')), false],
    ['empty IP and protocol mean 0.0.0.0 and TCP', pod('//8001'), nodeWith(pod('TCP/127.0.0.1/8001')), false],
  ];
  for (const [name, p, ni, fits] of cases) {
    const st = new CycleState();
    assert.equal(pl.preFilter(st, p).code, Code.Success, name);
    const s = pl.filter(st, p, ni);
    assert.equal(s.code, fits ? Code.Success : Code.Unschedulable, name);
    assert.deepEqual(s.reasons, fits ? [] : [ERR_REASON], name);
  }
});

test('NodePorts skips pods without host ports; init container ports are not host ports (1.21)', () => {
  const pl = new NodePorts();
  assert.equal(pl.preFilter(new CycleState(), { metadata: { name: 'x' }, spec: { containers: [] } }).code, Code.Skip);
  const withInit: Pod = {
    metadata: { name: 'i' },
    spec: { containers: [{ name: 'c' }], initContainers: [{ name: 'i', ports: [{ containerPort: 8001, hostPort: 8001, protocol: 'TCP' }] }] },
  };
  assert.equal(pl.preFilter(new CycleState(), withInit).code, Code.Skip);
  assert.equal(pl.preFilter(new CycleState(), pod('TCP/0.0.0.0/0')).code, Code.Skip, 'hostPort 0 is no host port');
});

// Upstream's TestPreFilterDisabled.
test('NodePorts Filter without PreFilter state is an error', () => {
  const s = new NodePorts().filter(new CycleState(), pod('TCP/0.0.0.0/80'), nodeWith());
  assert.equal(s.code, Code.Error);
  assert.match(s.message(), /PreFilterNodePorts/);
});

// Upstream's TestFits.
test('fitsPorts (upstream TestFits)', () => {
  const cases: [string, Pod, NodeInfo, boolean][] = [
    ['non-conflicting ports', pod('TCP/127.0.0.1/80'), nodeWith(pod('TCP/127.0.0.1/9090')), true],
    [
      'multiple non-conflicting ports',
      pod('TCP/127.0.0.1/80', 'TCP/127.0.1.1/80', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/100'),
      nodeWith(pod('TCP/127.0.0.1/9090', 'TCP/127.0.0.1/9191', 'TCP/127.0.1.1/8080')),
      true,
    ],
    ['same ports on different protocols', pod('TCP/127.0.0.1/80'), nodeWith(pod('UDP/127.0.0.1/80')), true],
    ['conflicting ports', pod('TCP/127.0.0.1/80'), nodeWith(pod('TCP/127.0.0.1/80')), false],
    [
      'multiple ports, some conflicting',
      pod('TCP/127.0.0.1/80', 'TCP/127.0.1.1/80', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/100'),
      nodeWith(pod('TCP/127.0.0.1/9090', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/8080')),
      false,
    ],
  ];
  for (const [name, p, ni, want] of cases) assert.equal(fitsPorts(wantedPorts(p), ni), want, name);
});

test('a port frees up when its pod leaves the node', () => {
  const holder = pod('TCP/0.0.0.0/80');
  const ni = nodeWith(holder);
  const wanted = wantedPorts(pod('TCP/0.0.0.0/80'));
  assert.equal(fitsPorts(wanted, ni), false);
  ni.removePod(holder.metadata.uid!);
  assert.equal(fitsPorts(wanted, ni), true);
});
