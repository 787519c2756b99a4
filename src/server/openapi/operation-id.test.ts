import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { operationIdAndTag, toValidOperationId } from './operation-id.js';

describe('toValidOperationId', () => {
  it('drops separators and capitalizes what follows them', () => {
    assert.equal(toValidOperationId('rbac.authorization', true), 'RbacAuthorization');
    assert.equal(toValidOperationId('rbac.authorization', false), 'rbacAuthorization');
    assert.equal(toValidOperationId('flowcontrol.apiserver', true), 'FlowcontrolApiserver');
    assert.equal(toValidOperationId('v1beta2', true), 'V1beta2');
  });
  it('keeps digits except in first position', () => {
    assert.equal(toValidOperationId('1abc', false), 'Abc');
  });
});

describe('operationIdAndTag', () => {
  it('treats /api as group core', () => {
    assert.deepEqual(operationIdAndTag('listNamespacedPod', '/api/v1/namespaces/{namespace}/pods', 'k8s.io'), {
      operationId: 'listCoreV1NamespacedPod',
      tag: 'core_v1',
    });
  });
  it('splices the group and version after the shortest verb prefix', () => {
    assert.deepEqual(operationIdAndTag('deletecollectionNamespacedDeployment', '/apis/apps/v1/namespaces/{namespace}/deployments', 'k8s.io'), {
      operationId: 'deleteAppsV1CollectionNamespacedDeployment',
      tag: 'apps_v1',
    });
    assert.equal(
      operationIdAndTag('patchNamespacedDeployment', '/apis/apps/v1/namespaces/{namespace}/deployments/{name}', 'k8s.io').operationId,
      'patchAppsV1NamespacedDeployment',
    );
  });
  it('drops the brand domain of a group, so ids read the same under either brand', () => {
    const orch = operationIdAndTag('readNamespacedEvent', '/apis/events.orch.io/v1/namespaces/{namespace}/events/{name}', 'orch.io');
    const k8s = operationIdAndTag('readNamespacedEvent', '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}', 'k8s.io');
    assert.deepEqual(orch, k8s);
    assert.deepEqual(k8s, { operationId: 'readEventsV1NamespacedEvent', tag: 'events_v1' });
    assert.equal(operationIdAndTag('listClusterRole', '/apis/rbac.authorization.k8s.io/v1/clusterroles', 'k8s.io').tag, 'rbacAuthorization_v1');
  });
  it('names discovery routes as upstream', () => {
    assert.deepEqual(operationIdAndTag('getAPIVersions', '/api/', 'k8s.io'), { operationId: 'getCoreAPIVersions', tag: 'core' });
    assert.deepEqual(operationIdAndTag('getAPIVersions', '/apis/', 'k8s.io'), { operationId: 'getAPIVersions', tag: 'apis' });
    assert.deepEqual(operationIdAndTag('getAPIGroup', '/apis/apps/', 'k8s.io'), { operationId: 'getAppsAPIGroup', tag: 'apps' });
    assert.deepEqual(operationIdAndTag('getCodeVersion', '/version/', 'k8s.io'), { operationId: 'getCodeVersion', tag: 'version' });
  });
});
