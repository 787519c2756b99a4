import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../machinery/status.js';
import { defaultIPFamilies, defaultService, normalizeClusterIPs } from './service-defaults.js';
import { validateService, validateServiceUpdate } from './service-validation.js';

const show = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const ANNOTATION = 'service.beta.orch.io/load-balancer-source-ranges';

function service(spec: Record<string, unknown>): Record<string, any> {
  const svc: Record<string, any> = { metadata: { name: 's' }, spec };
  defaultService(svc);
  normalizeClusterIPs(svc.spec, undefined);
  defaultIPFamilies(svc.spec);
  return svc;
}

test('a defaulted service is valid; headless selectorless services may be dual-stack', () => {
  assert.deepEqual(show(validateService(service({ ports: [{ port: 80 }] }), ANNOTATION)), []);
  const headless = service({ clusterIP: 'None' });
  assert.equal(headless.spec.ipFamilyPolicy, 'RequireDualStack');
  assert.deepEqual(show(validateService(headless, ANNOTATION)), []);
});

test('duplicate ports print the key as upstream', () => {
  const errs = show(
    validateService(
      service({
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 80 },
        ],
      }),
      ANNOTATION,
    ),
  );
  assert.deepEqual(errs, [
    'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
  ]);
});

test('ExternalName services need a DNS name and no cluster IPs', () => {
  const svc = service({ type: 'ExternalName' });
  assert.deepEqual(show(validateService(svc, ANNOTATION)), ['spec.externalName: Required value']);
});

test('LoadBalancer fields are refused elsewhere', () => {
  const errs = show(validateService(service({ ports: [{ port: 80 }], loadBalancerSourceRanges: ['10.0.0.0/8'] }), ANNOTATION));
  assert.deepEqual(errs, ["spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'"]);
});

test('clusterIP cannot be unset once allocated', () => {
  const old = service({ clusterIP: '10.0.0.1', ports: [{ port: 80 }] });
  const next = structuredClone(old);
  next.spec.clusterIP = '';
  next.spec.clusterIPs = [];
  const errs = show(validateServiceUpdate(next, old, ANNOTATION));
  assert.ok(errs.includes('spec.clusterIPs[0]: Invalid value: []string{}: primary clusterIP can not be unset'), errs.join('\n'));
});
