import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { corePrinters } from './core.js';
import type { TablePrinter } from './types.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const SEC = 1000;
const DAY = 24 * 3600 * SEC;

const printers = corePrinters(KUBERNETES_BRAND);
const row = (printer: TablePrinter, obj: Obj) => printer.rows(obj, NOW)[0];
const names = (printer: TablePrinter) => printer.columns.map((c) => `${c.name}${c.priority ? '*' : ''}`);

describe('core printers: pods (printPod)', () => {
  const pod = printers.Pod;
  const pods = (spec: Obj, status: Obj, metadata: Obj = {}): Obj => ({ metadata: { name: 'p', ...metadata }, spec, status });
  const two = { containers: [{ name: 'a' }, { name: 'b' }] };

  it('has upstream columns, wide ones last', () => {
    assert.deepEqual(names(pod), ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP*', 'Node*', 'Nominated Node*', 'Readiness Gates*']);
    assert.equal(pod.columns[0].format, 'name');
    assert.equal(pod.columns[3].type, 'string');
  });

  it('counts ready running containers and sums restarts (test1)', () => {
    const p = pods(two, { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: { running: {} } }, { restartCount: 3 }] });
    assert.deepEqual(row(pod, p).slice(0, 5), ['p', '1/2', 'podPhase', '6', '<unknown>']);
  });

  it('lets a container waiting reason override the phase, the first container winning (test2, test3)', () => {
    const waiting = { state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 };
    assert.equal(
      row(pod, pods(two, { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: { running: {} } }, waiting] }))[2],
      'ContainerWaitingReason',
    );
    const terminated = { state: { terminated: { reason: 'ContainerTerminatedReason' } }, restartCount: 3 };
    assert.equal(row(pod, pods(two, { phase: 'podPhase', containerStatuses: [waiting, terminated] }))[2], 'ContainerWaitingReason');
  });

  it('prefers status.reason over the phase (test5)', () => {
    assert.equal(row(pod, pods(two, { reason: 'podReason', phase: 'podPhase', containerStatuses: [] }))[2], 'podReason');
  });

  it('turns Completed back into Running or NotReady while a container runs (test6)', () => {
    const statuses = [
      { ready: true, restartCount: 3, state: { terminated: { reason: 'Completed', exitCode: 0 } } },
      { ready: true, restartCount: 3, state: { running: {} } },
    ];
    assert.deepEqual(row(pod, pods(two, { phase: 'Running', containerStatuses: statuses })).slice(1, 4), ['1/2', 'NotReady', '6']);
    const ready = { phase: 'Running', containerStatuses: statuses, conditions: [{ type: 'Ready', status: 'True' }] };
    assert.equal(row(pod, pods(two, ready))[2], 'Running');
  });

  it('shows init progress and counts init restarts with the last restart age (test7-test10)', () => {
    const restarting = { restartCount: 3, state: { running: {} }, lastState: { terminated: { finishedAt: ago(10 * SEC) } } };
    const spec = (n: number) => ({ initContainers: Array.from({ length: n }, () => ({})), containers: [{}] });
    const waiting = { state: { waiting: {} } };
    assert.deepEqual(row(pod, pods(spec(1), { phase: 'podPhase', initContainerStatuses: [restarting], containerStatuses: [waiting] })).slice(1, 4), [
      '0/1',
      'Init:0/1',
      '3 (10s ago)',
    ]);
    assert.equal(row(pod, pods(spec(2), { phase: 'podPhase', initContainerStatuses: [restarting, waiting], containerStatuses: [waiting] }))[2], 'Init:0/2');
    assert.equal(row(pod, pods(spec(2), { phase: 'podPhase', initContainerStatuses: [{ state: { terminated: {} } }, restarting] }))[2], 'Init:1/2');
    const doneWithRestarts = { restartCount: 2, state: { terminated: {} }, lastState: { terminated: { finishedAt: ago(120 * SEC) } } };
    assert.deepEqual(row(pod, pods(spec(2), { phase: 'podPhase', initContainerStatuses: [doneWithRestarts, restarting] })).slice(2, 4), [
      'Init:1/2',
      '5 (10s ago)',
    ]);
  });

  it('counts only app container restarts once initialized (test11)', () => {
    const p = pods(
      { initContainers: [{}], containers: [{}] },
      {
        phase: 'Running',
        initContainerStatuses: [{ restartCount: 2, state: { terminated: {} }, lastState: { terminated: { finishedAt: ago(120 * SEC) } } }],
        containerStatuses: [{ restartCount: 4, state: { running: {} }, lastState: { terminated: { finishedAt: ago(20 * SEC) } } }],
      },
    );
    assert.deepEqual(row(pod, p).slice(1, 4), ['0/1', 'Running', '4 (20s ago)']);
  });

  it('dates RESTARTS by the latest container restart (test12-test14)', () => {
    const running = (restartCount: number, finishedAgo?: number) => ({
      ready: true,
      restartCount,
      state: { running: {} },
      ...(finishedAgo === undefined ? {} : { lastState: { terminated: { finishedAt: ago(finishedAgo) } } }),
    });
    assert.equal(row(pod, pods({ containers: [{}] }, { phase: 'Running', containerStatuses: [running(3, 5 * DAY)] }))[3], '3 (5d ago)');
    assert.equal(row(pod, pods(two, { phase: 'Running', containerStatuses: [running(0), running(3, 10 * DAY)] }))[3], '3 (10d ago)');
    assert.equal(row(pod, pods(two, { phase: 'Running', containerStatuses: [running(6, 5 * DAY), running(3, 20 * DAY)] }))[3], '9 (5d ago)');
  });

  it('reports init failures by reason, signal or exit code', () => {
    const failed = (terminated: Obj) =>
      pods({ initContainers: [{}], containers: [{}] }, { phase: 'Pending', initContainerStatuses: [{ state: { terminated } }] });
    assert.equal(row(pod, failed({ exitCode: 1, reason: 'Error' }))[2], 'Init:Error');
    assert.equal(row(pod, failed({ exitCode: 137, signal: 9 }))[2], 'Init:Signal:9');
    assert.equal(row(pod, failed({ exitCode: 2 }))[2], 'Init:ExitCode:2');
    const crashing = pods({ initContainers: [{}], containers: [{}] }, { initContainerStatuses: [{ state: { waiting: { reason: 'CrashLoopBackOff' } } }] });
    assert.equal(row(pod, crashing)[2], 'Init:CrashLoopBackOff');
    const initializing = pods(
      { initContainers: [{}], containers: [{}] },
      { phase: 'Pending', initContainerStatuses: [{ state: { waiting: { reason: 'PodInitializing' } } }] },
    );
    assert.equal(row(pod, initializing)[2], 'Init:0/1');
  });

  it('reports app container failures and waiting reasons', () => {
    const one = { containers: [{}] };
    assert.equal(row(pod, pods(one, { phase: 'Running', containerStatuses: [{ state: { waiting: { reason: 'CrashLoopBackOff' } } }] }))[2], 'CrashLoopBackOff');
    assert.equal(row(pod, pods(one, { phase: 'Running', containerStatuses: [{ state: { terminated: { signal: 15 } } }] }))[2], 'Signal:15');
    assert.equal(row(pod, pods(one, { phase: 'Running', containerStatuses: [{ state: { terminated: { exitCode: 3 } } }] }))[2], 'ExitCode:3');
    assert.equal(row(pod, pods(one, { phase: 'Succeeded', containerStatuses: [{ state: { terminated: { reason: 'Completed' } } }] }))[2], 'Completed');
  });

  it('shows Terminating while deleted, Unknown when the node was lost', () => {
    const deleting = { deletionTimestamp: ago(SEC) };
    assert.equal(row(pod, pods({ containers: [{}] }, { phase: 'Running' }, deleting))[2], 'Terminating');
    assert.equal(row(pod, pods({ containers: [{}] }, { phase: 'Running', reason: 'NodeLost' }, deleting))[2], 'Unknown');
  });

  it('fills the wide columns (TestPrintPodwide)', () => {
    const p = pods(
      {
        containers: [{}, {}],
        nodeName: 'test1',
        readinessGates: [{ conditionType: 'condition1' }, { conditionType: 'condition2' }, { conditionType: 'condition3' }],
      },
      {
        phase: 'podPhase',
        podIPs: [{ ip: '1.1.1.1' }],
        nominatedNodeName: 'node1',
        conditions: [
          { type: 'condition1', status: 'False' },
          { type: 'condition2', status: 'True' },
        ],
        containerStatuses: [{ ready: true, restartCount: 3, state: { running: {} } }, { restartCount: 3 }],
      },
    );
    assert.deepEqual(row(pod, p), ['p', '1/2', 'podPhase', '6', '<unknown>', '1.1.1.1', 'test1', 'node1', '1/3']);
    assert.deepEqual(row(pod, pods({ containers: [{}] }, {})).slice(5), ['<none>', '<none>', '<none>', '<none>']);
    assert.equal(row(pod, pods({ containers: [{}] }, { podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] }))[5], '10.0.0.1');
  });

  it('marks finished pods Completed in the row conditions', () => {
    assert.deepEqual(pod.conditions?.(pods({}, { phase: 'Succeeded' })), [
      { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' },
    ]);
    assert.deepEqual(pod.conditions?.(pods({}, { phase: 'Failed' })), [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }]);
    assert.equal(pod.conditions?.(pods({}, { phase: 'Running' })), undefined);
  });
});

describe('core printers: nodes (printNode)', () => {
  const node = printers.Node;
  const n = (extra: Obj): Obj => ({ metadata: { name: 'foo', ...((extra.metadata as Obj) ?? {}) }, spec: extra.spec ?? {}, status: extra.status ?? {} });

  it('has upstream columns', () => {
    assert.deepEqual(names(node), [
      'Name',
      'Status',
      'Roles',
      'Age',
      'Version',
      'Internal-IP*',
      'External-IP*',
      'OS-Image*',
      'Kernel-Version*',
      'Container-Runtime*',
    ]);
  });

  it('derives the status from the Ready condition and unschedulable (TestPrintNodeStatus)', () => {
    const ready = { conditions: [{ type: 'Ready', status: 'True' }] };
    assert.equal(row(node, n({ status: ready }))[1], 'Ready');
    assert.equal(row(node, n({ spec: { unschedulable: true }, status: ready }))[1], 'Ready,SchedulingDisabled');
    assert.equal(row(node, n({ status: { conditions: [{ type: 'Ready', status: 'False' }] } }))[1], 'NotReady');
    assert.equal(row(node, n({ status: { conditions: [{ type: 'InvalidValue', status: 'True' }] } }))[1], 'Unknown');
    assert.equal(row(node, n({ spec: { unschedulable: true }, status: { conditions: [{}] } }))[1], 'Unknown,SchedulingDisabled');
  });

  it("lists roles from the brand's role labels (TestPrintNodeRole)", () => {
    const labels = { 'node-role.kubernetes.io/master': '', 'node-role.kubernetes.io/proxy': '', 'kubernetes.io/role': 'node' };
    assert.deepEqual(row(node, n({ metadata: { labels } })).slice(0, 5), ['foo', 'Unknown', 'master,node,proxy', '<unknown>', '']);
    assert.equal(row(node, n({}))[2], '<none>');
    const orch = corePrinters(ORCH_BRAND).Node;
    assert.equal(row(orch, n({ metadata: { labels: { 'node-role.orch.io/control-plane': '', 'node-role.kubernetes.io/master': '' } } }))[2], 'control-plane');
  });

  it('fills the wide columns (TestPrintNodeOSImage, ExternalIP, InternalIP)', () => {
    const status = {
      nodeInfo: { osImage: 'fake-os-image', kubeletVersion: 'v1.25.0' },
      addresses: [
        { type: 'ExternalIP', address: '2.2.2.2' },
        { type: 'InternalIP', address: '3.3.3.3' },
        { type: 'ExternalIP', address: '4.4.4.4' },
      ],
    };
    assert.deepEqual(row(node, n({ status })), [
      'foo',
      'Unknown',
      '<none>',
      '<unknown>',
      'v1.25.0',
      '3.3.3.3',
      '2.2.2.2',
      'fake-os-image',
      '<unknown>',
      '<unknown>',
    ]);
    assert.deepEqual(row(node, n({})).slice(5), ['<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });
});

describe('core printers: events (printEvent)', () => {
  const event = printers.Event;
  const base = {
    metadata: { name: 'event2' },
    source: { component: 'kubelet', host: 'Node1' },
    involvedObject: { kind: 'Deployment', name: 'Deployment Name', fieldPath: 'spec.containers{foo}' },
    reason: 'Event Reason',
    message: 'Message Data',
    type: 'Warning',
  };

  it('has the wide event columns', () => {
    assert.deepEqual(names(event), ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*']);
    assert.equal(event.columns[9].format, 'name');
  });

  it('prints a basic event', () => {
    const e = { ...base, firstTimestamp: ago(3 * DAY), lastTimestamp: ago(2 * DAY), count: 6 };
    assert.deepEqual(row(event, e), [
      '2d',
      'Warning',
      'Event Reason',
      'deployment/Deployment Name',
      'spec.containers{foo}',
      'kubelet, Node1',
      'Message Data',
      '3d',
      6,
      'event2',
    ]);
  });

  it('falls back from lastTimestamp to firstTimestamp to eventTime', () => {
    const eventTime = `${ago(3 * DAY).slice(0, 19)}.000000Z`;
    assert.deepEqual(row(event, { ...base, eventTime, lastTimestamp: ago(3 * DAY), count: 1 }).slice(7, 9), ['3d', 1]);
    assert.equal(row(event, { ...base, eventTime, firstTimestamp: ago(3 * DAY), count: 1 })[0], '3d');
    assert.deepEqual(row(event, { ...base, eventTime })[0], '3d');
  });

  it('prints a series by its last observation and count; a singleton counts 1', () => {
    const eventTime = ago(3 * DAY);
    const series = { count: 2, lastObservedTime: ago(2 * DAY) };
    assert.deepEqual([row(event, { ...base, eventTime, series })[0], row(event, { ...base, eventTime, series })[8]], ['2d', 2]);
    assert.equal(row(event, { ...base, eventTime })[8], 1);
  });

  it('uses the reporting controller and instance without a source', () => {
    const e = { ...base, source: undefined, reportingComponent: 'kubelet', reportingInstance: 'test', firstTimestamp: ago(3 * DAY) };
    assert.equal(row(event, e)[5], 'kubelet, test');
    assert.equal(row(event, { ...base, source: { component: 'kubelet' } })[5], 'kubelet');
  });

  it('prints the kind alone without a name, and trims the message', () => {
    assert.deepEqual(row(event, { ...base, involvedObject: { kind: 'Node' }, message: '  hi \n' }).slice(3, 7), ['node', '', 'kubelet, Node1', 'hi']);
  });
});

describe('core printers: services and endpoints', () => {
  const svc = printers.Service;
  const s = (spec: Obj, status: Obj = {}): Obj => ({ metadata: { name: 'svc' }, spec, status });

  it('has upstream columns', () => {
    assert.deepEqual(names(svc), ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector*']);
  });

  it('prints cluster IP services with ports and selector', () => {
    const spec = { type: 'ClusterIP', clusterIP: '10.9.8.7', ports: [{ protocol: 'TCP', port: 2233 }], selector: { foo: 'bar', a: 'b' } };
    assert.deepEqual(row(svc, s(spec)), ['svc', 'ClusterIP', '10.9.8.7', '<none>', '2233/TCP', '<unknown>', 'a=b,foo=bar']);
  });

  it('prints node ports, external IPs and no selector', () => {
    const spec = { type: 'NodePort', clusterIP: '10.9.8.7', externalIPs: ['1.2.3.4'], ports: [{ protocol: 'TCP', port: 8888, nodePort: 9999 }] };
    assert.deepEqual(row(svc, s(spec)).slice(1, 7), ['NodePort', '10.9.8.7', '1.2.3.4', '8888:9999/TCP', '<unknown>', '<none>']);
  });

  it('prints load balancer addresses, pending without them', () => {
    const spec = { type: 'LoadBalancer', clusterIP: '10.9.8.7', ports: [{ protocol: 'TCP', port: 8888, nodePort: 9999 }] };
    assert.equal(row(svc, s(spec))[3], '<pending>');
    const status = { loadBalancer: { ingress: [{ ip: '3.4.5.6' }, { ip: '2.3.4.5' }, { hostname: 'lb.example.com' }] } };
    assert.equal(row(svc, s(spec, status))[3], '2.3.4.5,3.4.5.6,lb.example.com');
    assert.equal(row(svc, s({ ...spec, externalIPs: ['9.9.9.9'] }, status))[3], '2.3.4.5,3.4.5.6,lb.example.com,9.9.9.9');
  });

  it('prints external names and headless services', () => {
    assert.deepEqual(row(svc, s({ type: 'ExternalName', externalName: 'my.database.example.com' })).slice(1, 5), [
      'ExternalName',
      '<none>',
      'my.database.example.com',
      '<none>',
    ]);
    assert.equal(row(svc, s({ type: 'ClusterIP', clusterIP: 'None' }))[2], 'None');
    assert.equal(row(svc, s({ type: 'ClusterIP', clusterIPs: ['10.0.0.1', 'fd00::1'] }))[2], '10.0.0.1');
  });

  it('prints up to three endpoints (formatEndpoints)', () => {
    const ep = (subsets: unknown[]): Obj => ({ metadata: { name: 'ep' }, subsets });
    const e = printers.Endpoints;
    assert.equal(row(e, ep([]))[1], '<none>');
    assert.equal(row(e, ep([{ addresses: [{ ip: '127.0.0.1' }, { ip: '::1' }], ports: [{ port: 8080 }] }]))[1], '127.0.0.1:8080,[::1]:8080');
    const many = [{ addresses: [{ ip: '1.1.1.1' }, { ip: '2.2.2.2' }, { ip: '3.3.3.3' }, { ip: '4.4.4.4' }], ports: [{ port: 80 }, { port: 443 }] }];
    assert.equal(row(e, ep(many))[1], '1.1.1.1:80,2.2.2.2:80,3.3.3.3:80 + 5 more...');
    assert.equal(row(e, ep([{ addresses: [{ ip: '1.1.1.1' }] }]))[1], '1.1.1.1');
  });
});

describe('core printers: other kinds', () => {
  it('namespaces: name, phase, age (TestPrintNamespace)', () => {
    const future = new Date(NOW.getTime() + 1900).toISOString();
    assert.deepEqual(row(printers.Namespace, { metadata: { name: 'namespace1', creationTimestamp: future }, status: { phase: 'FooStatus' } }), [
      'namespace1',
      'FooStatus',
      '0s',
    ]);
    assert.deepEqual(row(printers.Namespace, { metadata: { name: 'namespace2' } }), ['namespace2', '', '<unknown>']);
  });

  it('secrets, service accounts and config maps count their entries (TestPrintSecret, TestPrintServiceAccount)', () => {
    const secret = { metadata: { name: 'secret1', creationTimestamp: ago(5 * SEC) }, type: 'kubernetes.io/service-account-token', data: { token: 'c2VjcmV0' } };
    assert.deepEqual(row(printers.Secret, secret), ['secret1', 'kubernetes.io/service-account-token', 1, '5s']);
    assert.deepEqual(row(printers.ServiceAccount, { metadata: { name: 'sa1' }, secrets: [{ name: 'a' }, { name: 'b' }] }), ['sa1', 2, '<unknown>']);
    assert.deepEqual(row(printers.ConfigMap, { metadata: { name: 'cm' }, data: { a: '1' }, binaryData: { b: 'AA==' } }), ['cm', 2, '<unknown>']);
    assert.deepEqual(names(printers.Secret), ['Name', 'Type', 'Data', 'Age']);
  });

  it('persistent volumes (TestPrintPersistentVolume)', () => {
    const pv = {
      metadata: { name: 'test1' },
      spec: {
        claimRef: { name: 'test', namespace: 'default' },
        accessModes: ['ReadOnlyMany', 'ReadWriteOnce', 'ReadOnlyMany'],
        capacity: { storage: '4Gi' },
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: 'fast',
      },
      status: { phase: 'Bound', reason: 'why' },
    };
    assert.deepEqual(row(printers.PersistentVolume, pv), ['test1', '4Gi', 'RWO,ROX', 'Retain', 'Bound', 'default/test', 'fast', 'why', '<unknown>', '<unset>']);
    const deleting = {
      ...pv,
      metadata: { name: 'test2', deletionTimestamp: ago(SEC), annotations: { 'volume.beta.kubernetes.io/storage-class': 'beta' } },
      spec: { volumeMode: 'Block' },
    };
    assert.deepEqual(row(printers.PersistentVolume, deleting), ['test2', '0', '', '', 'Terminating', '', 'beta', 'why', '<unknown>', 'Block']);
  });

  it('persistent volume claims show capacity and modes once bound (TestPrintPersistentVolumeClaim)', () => {
    const pvc = (spec: Obj): Obj => ({
      metadata: { name: 'c' },
      spec,
      status: { phase: 'Bound', capacity: { storage: '4Gi' }, accessModes: ['ReadWriteOnce'] },
    });
    assert.deepEqual(row(printers.PersistentVolumeClaim, pvc({ volumeName: 'my-volume', volumeMode: 'Filesystem' })), [
      'c',
      'Bound',
      'my-volume',
      '4Gi',
      'RWO',
      '',
      '<unknown>',
      'Filesystem',
    ]);
    assert.deepEqual(row(printers.PersistentVolumeClaim, pvc({ storageClassName: 'std' })), ['c', 'Bound', '', '', '', 'std', '<unknown>', '<unset>']);
  });

  it('replication controllers and pod templates', () => {
    const rc = {
      metadata: { name: 'rc1' },
      spec: {
        replicas: 5,
        selector: { a: 'b' },
        template: {
          spec: {
            containers: [
              { name: 'fake-container1', image: 'fake-image1' },
              { name: 'fake-container2', image: 'fake-image2' },
            ],
          },
        },
      },
      status: { replicas: 5, readyReplicas: 2 },
    };
    assert.deepEqual(row(printers.ReplicationController, rc), [
      'rc1',
      5,
      5,
      2,
      '<unknown>',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
      'a=b',
    ]);
    const pt = { metadata: { name: 'pt' }, template: { metadata: { labels: { b: '2', a: '1' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } };
    assert.deepEqual(row(printers.PodTemplate, pt), ['pt', 'c', 'i', 'a=1,b=2']);
    assert.deepEqual(row(printers.PodTemplate, { metadata: { name: 'pt' }, template: {} }), ['pt', '', '', '<none>']);
  });

  it('component statuses read the Healthy condition', () => {
    const cs = (conditions: unknown[]): Obj => ({ metadata: { name: 'etcd-0' }, conditions });
    assert.deepEqual(row(printers.ComponentStatus, cs([{ type: 'Healthy', status: 'True', message: 'ok' }])), ['etcd-0', 'Healthy', 'ok', '']);
    assert.deepEqual(row(printers.ComponentStatus, cs([{ type: 'Healthy', status: 'False', error: 'down' }])), ['etcd-0', 'Unhealthy', '', 'down']);
    assert.deepEqual(row(printers.ComponentStatus, cs([])), ['etcd-0', 'Unknown', '', '']);
  });

  it('resource quotas split requests and limits (TestPrintResourceQuota)', () => {
    const quota = {
      metadata: { name: 'q' },
      status: {
        hard: { cpu: '1', 'limits.memory': '1Gi', pods: '10', 'requests.memory': '500Mi' },
        used: { cpu: '0.5', 'limits.memory': '512Mi', pods: '1' },
      },
    };
    assert.deepEqual(row(printers.ResourceQuota, quota), ['q', '<unknown>', 'cpu: 500m/1, pods: 1/10, requests.memory: 0/500Mi', 'limits.memory: 512Mi/1Gi']);
  });

  it('has no printer for limit ranges and bindings (they use the default table)', () => {
    assert.equal(printers.LimitRange, undefined);
    assert.equal(printers.Binding, undefined);
  });
});
