import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import { findProtoDir } from './proto-root.js';
import { groupStem, isProtobufSupported, parseApiVersion, protobufTypeFor, registeredProtobufTypes } from './registry.js';

describe('protobuf registry', () => {
  it('strips either brand domain from a group', () => {
    assert.equal(groupStem(`events.${ORCH_BRAND.domain}`), 'events');
    assert.equal(groupStem(`events.${KUBERNETES_BRAND.domain}`), 'events');
    assert.equal(groupStem(`rbac.authorization.${KUBERNETES_BRAND.domain}`), 'rbac.authorization');
    assert.equal(groupStem('apps'), 'apps');
    assert.equal(groupStem(''), '');
    assert.equal(groupStem('events.example.com'), 'events.example.com');
  });

  it('splits apiVersion into group and version', () => {
    assert.deepEqual(parseApiVersion('v1'), { group: '', version: 'v1' });
    assert.deepEqual(parseApiVersion('events.k8s.io/v1'), { group: 'events.k8s.io', version: 'v1' });
  });

  it('answers support without loading anything', () => {
    assert.equal(isProtobufSupported('v1', 'ConfigMap'), true);
    assert.equal(isProtobufSupported('v1', 'Pod'), true);
    assert.equal(isProtobufSupported('v1', 'Frobnicator'), false);
    assert.equal(isProtobufSupported('apps/v1', 'DeleteOptions'), true);
  });

  it('resolves every registered message in the loaded .proto files', () => {
    for (const [stem, version, kind, message] of registeredProtobufTypes()) {
      const apiVersion = stem === '*' ? 'v1' : stem === '' ? version : `${stem}.${ORCH_BRAND.domain}/${version}`;
      assert.equal(protobufTypeFor(apiVersion, kind).fullName, `.${message}`);
    }
  });

  it('finds the .proto directory from dist/', () => {
    assert.match(findProtoDir(), /src[/\\]codec[/\\]protobuf[/\\]proto$/);
  });
});
