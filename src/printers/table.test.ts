import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { META_V1 } from './descriptions.js';
import { buildTable, DEFAULT_PRINTER, printerFor, toPartialObjectMetadata } from './index.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const API_VERSION = 'meta.orch.io/v1';

const ns = (name: string, rv: string): Obj => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, resourceVersion: rv, creationTimestamp: '2024-05-01T11:59:55Z', labels: { a: 'b' } },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
});

describe('buildTable', () => {
  const printer = printerFor('', 'Namespace', ORCH_BRAND);

  it("builds upstream's Table with PartialObjectMetadata rows by default", () => {
    const table = buildTable(printer, [ns('default', '7'), ns('kube-system', '9')], {
      includeObject: 'Metadata',
      apiVersion: API_VERSION,
      listMeta: { resourceVersion: '12', continue: '', remainingItemCount: undefined },
      now: NOW,
    });
    assert.deepEqual(table, {
      kind: 'Table',
      apiVersion: API_VERSION,
      metadata: { resourceVersion: '12' },
      columnDefinitions: [
        { name: 'Name', type: 'string', format: 'name', description: META_V1['ObjectMeta.name'], priority: 0 },
        { name: 'Status', type: 'string', format: '', description: 'The status of the namespace', priority: 0 },
        { name: 'Age', type: 'string', format: '', description: META_V1['ObjectMeta.creationTimestamp'], priority: 0 },
      ],
      rows: [
        {
          cells: ['default', 'Active', '5s'],
          object: { kind: 'PartialObjectMetadata', apiVersion: API_VERSION, metadata: ns('default', '7').metadata },
        },
        {
          cells: ['kube-system', 'Active', '5s'],
          object: { kind: 'PartialObjectMetadata', apiVersion: API_VERSION, metadata: ns('kube-system', '9').metadata },
        },
      ],
    });
  });

  it('includes the whole object, or null for includeObject=None (RawExtension of nil)', () => {
    const obj = ns('default', '7');
    assert.deepEqual(buildTable(printer, [obj], { includeObject: 'Object', apiVersion: API_VERSION, now: NOW }).rows, [
      { cells: ['default', 'Active', '5s'], object: obj },
    ]);
    assert.deepEqual(buildTable(printer, [obj], { includeObject: 'None', apiVersion: API_VERSION, now: NOW }).rows, [
      { cells: ['default', 'Active', '5s'], object: null },
    ]);
  });

  it('drops the column definitions for noHeaders', () => {
    const table = buildTable(printer, [ns('default', '7')], { includeObject: 'None', apiVersion: API_VERSION, noHeaders: true, now: NOW });
    assert.equal(table.columnDefinitions, null);
    assert.equal((table.rows as unknown[]).length, 1);
  });

  it("carries a single object's resourceVersion when no list metadata is given", () => {
    const table = buildTable(printer, [ns('default', '7')], { includeObject: 'None', apiVersion: API_VERSION, now: NOW });
    assert.deepEqual(table.metadata, { resourceVersion: '7' });
    assert.deepEqual(buildTable(printer, [{ metadata: { name: 'x' } }], { includeObject: 'None', apiVersion: API_VERSION, now: NOW }).metadata, {});
  });

  it('keeps continue and remainingItemCount of a paged list', () => {
    const table = buildTable(printer, [], {
      includeObject: 'Metadata',
      apiVersion: API_VERSION,
      listMeta: { resourceVersion: '3', continue: 'tok', remainingItemCount: 0 },
      now: NOW,
    });
    assert.deepEqual(table.metadata, { resourceVersion: '3', continue: 'tok', remainingItemCount: 0 });
    assert.deepEqual(table.rows, []);
  });

  it('adds row conditions of finished pods', () => {
    const pod = { metadata: { name: 'done' }, spec: { containers: [{}] }, status: { phase: 'Succeeded' } };
    const rows = buildTable(printerFor('', 'Pod', ORCH_BRAND), [pod], { includeObject: 'None', apiVersion: API_VERSION, now: NOW }).rows as Obj[];
    assert.deepEqual(rows[0].conditions, [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
    assert.deepEqual(Object.keys(rows[0]), ['cells', 'conditions', 'object']);
  });

  it('sorts flow schemas of a list by precedence', () => {
    const fs = (name: string, matchingPrecedence: number): Obj => ({
      metadata: { name },
      spec: { matchingPrecedence, priorityLevelConfiguration: { name: 'p' } },
    });
    const rows = buildTable(printerFor('flowcontrol.apiserver', 'FlowSchema', ORCH_BRAND), [fs('b', 2), fs('a', 1)], {
      includeObject: 'None',
      apiVersion: API_VERSION,
      now: NOW,
    }).rows as Obj[];
    assert.deepEqual(
      rows.map((r) => (r.cells as unknown[])[0]),
      ['a', 'b'],
    );
  });
});

describe('the default table (rest.NewDefaultTableConvertor)', () => {
  it('prints name and creation time for kinds without a printer', () => {
    const printer = printerFor('rbac.authorization', 'Role', ORCH_BRAND);
    assert.equal(printer, DEFAULT_PRINTER);
    const role = { metadata: { name: 'reader', creationTimestamp: '2024-04-30T10:11:12Z' }, rules: [] };
    const table = buildTable(printer, [role, { metadata: { name: 'new' } }], { includeObject: 'None', apiVersion: API_VERSION, now: NOW });
    assert.deepEqual(table.columnDefinitions, [
      { name: 'Name', type: 'string', format: 'name', description: META_V1['ObjectMeta.name'], priority: 0 },
      { name: 'Created At', type: 'date', format: '', description: META_V1['ObjectMeta.creationTimestamp'], priority: 0 },
    ]);
    assert.deepEqual(
      (table.rows as Obj[]).map((r) => r.cells),
      [
        ['reader', '2024-04-30T10:11:12Z'],
        ['new', '0001-01-01T00:00:00Z'],
      ],
    );
  });

  it('leaves rows null for an empty list, as upstream appends to a nil slice', () => {
    assert.equal(buildTable(DEFAULT_PRINTER, [], { includeObject: 'Metadata', apiVersion: API_VERSION, now: NOW }).rows, null);
  });
});

describe('printerFor', () => {
  it('finds group printers by stem and kind, else the default', () => {
    assert.deepEqual(
      printerFor('apps', 'Deployment', KUBERNETES_BRAND).columns.map((c) => c.name),
      ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector'],
    );
    assert.equal(printerFor('', 'LimitRange', KUBERNETES_BRAND), DEFAULT_PRINTER);
    assert.equal(printerFor('apiextensions', 'CustomResourceDefinition', KUBERNETES_BRAND), DEFAULT_PRINTER);
    assert.equal(printerFor('authorization', 'SubjectAccessReview', KUBERNETES_BRAND), DEFAULT_PRINTER);
    assert.equal(printerFor('nonexistent.example.com', 'Widget', KUBERNETES_BRAND), DEFAULT_PRINTER);
    assert.equal(printerFor('', 'toString', KUBERNETES_BRAND), DEFAULT_PRINTER);
    assert.equal(printerFor('extensions', 'Ingress', KUBERNETES_BRAND), printerFor('networking', 'Ingress', KUBERNETES_BRAND));
  });

  it("builds a brand's printers once", () => {
    assert.equal(printerFor('', 'Node', ORCH_BRAND), printerFor('', 'Node', ORCH_BRAND));
    assert.notEqual(printerFor('', 'Node', ORCH_BRAND), printerFor('', 'Node', KUBERNETES_BRAND));
  });

  it('has a printer for every kind upstream 1.25 prints that orch serves', () => {
    const expected: [string, string][] = [
      ['', 'Pod'],
      ['', 'PodTemplate'],
      ['', 'ReplicationController'],
      ['', 'Service'],
      ['', 'Endpoints'],
      ['', 'Node'],
      ['', 'Event'],
      ['', 'Namespace'],
      ['', 'Secret'],
      ['', 'ServiceAccount'],
      ['', 'PersistentVolume'],
      ['', 'PersistentVolumeClaim'],
      ['', 'ComponentStatus'],
      ['', 'ConfigMap'],
      ['', 'ResourceQuota'],
      ['apps', 'ReplicaSet'],
      ['apps', 'DaemonSet'],
      ['apps', 'Deployment'],
      ['apps', 'StatefulSet'],
      ['apps', 'ControllerRevision'],
      ['batch', 'Job'],
      ['batch', 'CronJob'],
      ['events', 'Event'],
      ['rbac.authorization', 'RoleBinding'],
      ['rbac.authorization', 'ClusterRoleBinding'],
      ['storage', 'StorageClass'],
      ['storage', 'VolumeAttachment'],
      ['storage', 'CSINode'],
      ['storage', 'CSIDriver'],
      ['scheduling', 'PriorityClass'],
      ['networking', 'Ingress'],
      ['networking', 'IngressClass'],
      ['networking', 'NetworkPolicy'],
      ['extensions', 'Ingress'],
      ['policy', 'PodDisruptionBudget'],
      ['policy', 'PodSecurityPolicy'],
      ['coordination', 'Lease'],
      ['autoscaling', 'HorizontalPodAutoscaler'],
      ['certificates', 'CertificateSigningRequest'],
      ['discovery', 'EndpointSlice'],
      ['flowcontrol.apiserver', 'FlowSchema'],
      ['flowcontrol.apiserver', 'PriorityLevelConfiguration'],
      ['admissionregistration', 'MutatingWebhookConfiguration'],
      ['admissionregistration', 'ValidatingWebhookConfiguration'],
      ['node', 'RuntimeClass'],
      ['apiregistration', 'APIService'],
    ];
    for (const [stem, kind] of expected) assert.notEqual(printerFor(stem, kind, ORCH_BRAND), DEFAULT_PRINTER, `${stem}/${kind}`);
  });

  it('gives every printer rows with a cell per column', () => {
    const samples: Obj[] = [{ metadata: { name: 'x' } }, { metadata: { name: 'y', creationTimestamp: '2024-05-01T00:00:00Z' }, spec: {}, status: {} }];
    for (const stem of [
      '',
      'apps',
      'batch',
      'events',
      'rbac.authorization',
      'storage',
      'scheduling',
      'networking',
      'extensions',
      'policy',
      'coordination',
      'autoscaling',
      'certificates',
      'discovery',
      'flowcontrol.apiserver',
      'admissionregistration',
      'node',
      'apiregistration',
    ]) {
      for (const kind of [
        'Pod',
        'PodTemplate',
        'ReplicationController',
        'Service',
        'Endpoints',
        'Node',
        'Event',
        'Namespace',
        'Secret',
        'ServiceAccount',
        'PersistentVolume',
        'PersistentVolumeClaim',
        'ComponentStatus',
        'ConfigMap',
        'ResourceQuota',
        'ReplicaSet',
        'DaemonSet',
        'Deployment',
        'StatefulSet',
        'ControllerRevision',
        'Job',
        'CronJob',
        'RoleBinding',
        'ClusterRoleBinding',
        'StorageClass',
        'VolumeAttachment',
        'CSINode',
        'CSIDriver',
        'PriorityClass',
        'Ingress',
        'IngressClass',
        'NetworkPolicy',
        'PodDisruptionBudget',
        'PodSecurityPolicy',
        'Lease',
        'HorizontalPodAutoscaler',
        'CertificateSigningRequest',
        'EndpointSlice',
        'FlowSchema',
        'PriorityLevelConfiguration',
        'MutatingWebhookConfiguration',
        'ValidatingWebhookConfiguration',
        'RuntimeClass',
        'APIService',
      ]) {
        const printer = printerFor(stem, kind, ORCH_BRAND);
        for (const obj of samples) for (const cells of printer.rows(obj, NOW)) assert.equal(cells.length, printer.columns.length, `${stem}/${kind}`);
      }
    }
  });
});

describe('toPartialObjectMetadata', () => {
  it('keeps the whole metadata under the meta group version', () => {
    const obj = ns('default', '7');
    assert.deepEqual(toPartialObjectMetadata(obj, 'meta.k8s.io/v1'), { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });
    assert.deepEqual(toPartialObjectMetadata({}, 'meta.k8s.io/v1beta1'), { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: {} });
  });
});
