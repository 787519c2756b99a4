/** networking/v1 Ingress, IngressClass and NetworkPolicy defaulting and validation through HTTP, as upstream 1.25. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterClient, MERGE } from './helpers/cluster-client.js';
import { assertInvalid, assertInvalidExactly, assertOk } from './helpers/invalid.js';

const NET = '/apis/networking.orch.io/v1';
const INGRESSES = `${NET}/namespaces/default/ingresses`;
const POLICIES = `${NET}/namespaces/default/networkpolicies`;

const call = clusterClient();

const BACKEND = { service: { name: 'web', port: { number: 80 } } };

describe('Ingress', () => {
  it('needs a default backend or rules, and starts with an empty load balancer status', async () => {
    assertInvalidExactly(await call('POST', INGRESSES, { metadata: { name: 'empty' }, spec: {} }), 'Ingress', [
      ['spec', 'Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified'],
    ]);
    const ing = assertOk(await call('POST', INGRESSES, { metadata: { name: 'ok' }, spec: { defaultBackend: BACKEND } }), 201);
    assert.deepEqual(ing.status, { loadBalancer: {} });
  });

  it('checks hosts, paths and backends', async () => {
    const r = await call('POST', INGRESSES, {
      metadata: { name: 'bad' },
      spec: {
        rules: [
          { host: '10.0.0.1', http: { paths: [{ path: '/a', backend: BACKEND }] } },
          {
            host: '*.example.com',
            http: { paths: [{ path: 'relative', pathType: 'Prefix', backend: { service: { name: 'web', port: { name: 'http', number: 80 } } } }] },
          },
          {
            http: {
              paths: [
                { path: '/x//y', pathType: 'Exact', backend: {} },
                { path: '/', pathType: 'Regex', backend: { service: { name: 'web', port: {} } } },
              ],
            },
          },
        ],
      },
    });
    assertInvalid(r, 'Ingress', [
      ['spec.rules[0].host', 'Invalid value: "10.0.0.1": must be a DNS name, not an IP address'],
      ['spec.rules[0].http.paths[0].pathType', 'Required value: pathType must be specified'],
      ['spec.rules[1].http.paths[0].path', 'Invalid value: "relative": must be an absolute path'],
      ['spec.rules[1].http.paths[0].backend', 'Invalid value: "": cannot set both port name & port number'],
      ['spec.rules[2].http.paths[0].path', 'Invalid value: "/x//y": must not contain \'//\''],
      ['spec.rules[2].http.paths[0].backend', 'Invalid value: "": resource or service backend is required'],
      ['spec.rules[2].http.paths[1].pathType', 'Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"'],
      ['spec.rules[2].http.paths[1].backend', 'Required value: port name or number is required'],
    ]);
  });

  it('keeps the class annotation and the class field apart', async () => {
    const r = await call('POST', INGRESSES, {
      metadata: { name: 'cls', annotations: { 'orch.io/ingress.class': 'nginx' } },
      spec: { ingressClassName: 'nginx', defaultBackend: BACKEND },
    });
    assertInvalidExactly(r, 'Ingress', [['annotations.orch.io/ingress.class', 'Invalid value: "nginx": can not be set when the class field is also set']]);
  });
});

describe('IngressClass', () => {
  it('needs a domain-prefixed controller that never changes, and scopes its parameters', async () => {
    assertInvalidExactly(await call('POST', `${NET}/ingressclasses`, { metadata: { name: 'c' }, spec: { controller: 'nginx' } }), 'IngressClass', [
      ['spec.controller', 'Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")'],
    ]);
    const withParams = assertOk(
      await call('POST', `${NET}/ingressclasses`, {
        metadata: { name: 'c' },
        spec: { controller: 'example.com/ingress', parameters: { kind: 'Params', name: 'p' } },
      }),
      201,
    );
    assert.equal(withParams.spec.parameters.scope, 'Cluster');
    assertInvalidExactly(
      await call('PATCH', `${NET}/ingressclasses/c`, { spec: { controller: 'example.com/other', parameters: { namespace: 'x' } } }, MERGE),
      'IngressClass',
      [
        ['spec.controller', 'Invalid value: "example.com/other": field is immutable'],
        ['spec.parameters.namespace', "Forbidden: `parameters.scope` is set to 'Cluster'"],
      ],
    );
    assertInvalidExactly(
      await call('POST', `${NET}/ingressclasses`, {
        metadata: { name: 'ns' },
        spec: { controller: 'example.com/i', parameters: { kind: 'P', name: 'p', scope: 'Namespace' } },
      }),
      'IngressClass',
      [['spec.parameters.namespace', "Required value: `parameters.scope` is set to 'Namespace'"]],
    );
  });
});

describe('NetworkPolicy', () => {
  it('defaults protocols and policy types', async () => {
    const np = assertOk(await call('POST', POLICIES, { metadata: { name: 'np' }, spec: { podSelector: {}, egress: [{ ports: [{ port: 53 }] }] } }), 201);
    assert.deepEqual(np.spec.policyTypes, ['Ingress', 'Egress']);
    assert.equal(np.spec.egress[0].ports[0].protocol, 'TCP');
    const bare = assertOk(await call('POST', POLICIES, { metadata: { name: 'bare' }, spec: { podSelector: {} } }), 201);
    assert.deepEqual(bare.spec.policyTypes, ['Ingress']);
  });

  it('checks ports, peers and policy types', async () => {
    const r = await call('POST', POLICIES, {
      metadata: { name: 'bad' },
      spec: {
        podSelector: {},
        ingress: [
          {
            ports: [
              { protocol: 'ICMP', port: 70000 },
              { port: 'dns', endPort: 60 },
              { port: 80, endPort: 79 },
            ],
            from: [{}, { ipBlock: { cidr: '10.0.0.0/8', except: ['11.0.0.0/16', '10.0.0.0/8'] }, podSelector: {} }, { ipBlock: { cidr: 'nope' } }],
          },
        ],
        policyTypes: ['Ingress', 'Sideways'],
      },
    });
    assertInvalidExactly(r, 'NetworkPolicy', [
      ['spec.ingress[0].ports[0].protocol', 'Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"'],
      ['spec.ingress[0].ports[0].port', 'Invalid value: 70000: must be between 1 and 65535, inclusive'],
      ['spec.ingress[0].ports[1].endPort', 'Invalid value: 60: may not be specified when `port` is non-numeric'],
      ['spec.ingress[0].ports[2].endPort', 'Invalid value: 80: must be greater than or equal to `port`'],
      ['spec.ingress[0].from[0]', 'Required value: must specify a peer'],
      ['spec.ingress[0].from[1].ipBlock.except[0]', 'Invalid value: "11.0.0.0/16": must be a strict subset of `cidr`'],
      ['spec.ingress[0].from[1].ipBlock.except[1]', 'Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`'],
      ['spec.ingress[0].from[1]', 'Forbidden: may not specify both ipBlock and another peer'],
      ['spec.ingress[0].from[2].ipBlock.cidr', 'Invalid value: "nope": not a valid CIDR'],
      ['spec.policyTypes[1]', 'Unsupported value: "Sideways": supported values: "Ingress", "Egress"'],
    ]);
  });
});
