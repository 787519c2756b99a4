import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brandFor } from '../machinery/brand.js';
import { judgeRequest, type RequestSubject } from './csr-signer-rules.js';

const brand = brandFor(false);
const compat = brandFor(true);
const subject = (over: Partial<RequestSubject>): RequestSubject => ({
  commonName: 'system:node:n1',
  organizations: ['system:nodes'],
  dnsNames: [],
  ipAddresses: [],
  emailAddresses: [],
  uris: [],
  ...over,
});

test('kube-apiserver-client: only client usages; another signer or domain is not ours', () => {
  assert.deepEqual(judgeRequest(brand, 'orch.io/kube-apiserver-client', subject({}), ['client auth', 'digital signature']), { ok: true });
  assert.deepEqual(judgeRequest(brand, 'orch.io/kube-apiserver-client', subject({}), ['server auth']), {
    ok: false,
    message: 'invalid usage for client certificate: server auth',
  });
  assert.equal(judgeRequest(brand, 'kubernetes.io/kube-apiserver-client', subject({}), ['client auth']), undefined);
  assert.deepEqual(judgeRequest(compat, 'kubernetes.io/kube-apiserver-client', subject({}), ['client auth']), { ok: true });
  assert.equal(judgeRequest(compat, 'kubernetes.io/legacy-unknown', subject({}), ['client auth']), undefined);
});

test('kubelet client: system:nodes, a node name, no SANs, the node client usages', () => {
  const signer = 'orch.io/kube-apiserver-client-kubelet';
  assert.deepEqual(judgeRequest(brand, signer, subject({}), ['digital signature', 'client auth']), { ok: true });
  assert.deepEqual(judgeRequest(brand, signer, subject({}), ['key encipherment', 'digital signature', 'client auth']), { ok: true });
  const fail = (s: Partial<RequestSubject>, usages = ['digital signature', 'client auth']) => judgeRequest(brand, signer, subject(s), usages);
  assert.deepEqual(fail({ organizations: ['system:nodes', 'x'] }), { ok: false, message: 'subject organization is not system:nodes' });
  assert.deepEqual(fail({ dnsNames: ['n1'] }), { ok: false, message: 'DNS subjectAltNames are not allowed' });
  assert.deepEqual(fail({ commonName: 'n1' }), { ok: false, message: 'subject common name does not begin with system:node:' });
  assert.deepEqual(fail({}, ['client auth']), { ok: false, message: 'usages did not match [client auth digital signature key encipherment]' });
});

test('kubelet serving: a DNS or IP name is required, server usages', () => {
  const signer = 'orch.io/kubelet-serving';
  assert.deepEqual(judgeRequest(brand, signer, subject({ ipAddresses: ['10.0.0.1'] }), ['digital signature', 'server auth']), { ok: true });
  assert.deepEqual(judgeRequest(brand, signer, subject({}), ['digital signature', 'server auth']), {
    ok: false,
    message: 'DNS or IP subjectAltName is required',
  });
});
