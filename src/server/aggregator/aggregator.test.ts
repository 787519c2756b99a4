import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { headerKeyEscape, identityHeaders } from './identity-headers.js';
import { remoteGroups } from './remote-discovery.js';
import { builtinPriorities } from './priorities.js';
import { validateAPIService } from '../../api/apiregistration/apiservice-validation.js';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';

describe('identity headers', () => {
  it('escape extra keys as client-go does: illegal header bytes and % as %XX, UTF-8 byte by byte', () => {
    assert.equal(headerKeyEscape('scopes'), 'scopes');
    assert.equal(headerKeyEscape('example.org/key'), 'example.org%2Fkey');
    assert.equal(headerKeyEscape('100%'), '100%25');
    assert.equal(headerKeyEscape('clé'), 'cl%C3%A9');
  });

  it('name the user, each group and each extra value', () => {
    assert.deepEqual(identityHeaders({ name: 'alice', groups: ['a', 'b'], extra: { 'x/y': ['1', '2'] } }), {
      'X-Remote-User': 'alice',
      'X-Remote-Group': ['a', 'b'],
      'X-Remote-Extra-x%2Fy': ['1', '2'],
    });
  });
});

describe('remote discovery', () => {
  const gv = (group: string, version: string, g: number, v: number) => ({ group, version, groupPriorityMinimum: g, versionPriority: v, stale: false });
  it('orders groups by their highest groupPriorityMinimum, versions by versionPriority then kube-aware order', () => {
    const groups = remoteGroups([
      gv('b.example', 'v1', 100, 10),
      gv('a.example', 'v1beta1', 100, 10),
      gv('a.example', 'v1', 100, 10),
      gv('c.example', 'v2', 2000, 1),
    ]);
    assert.deepEqual(
      groups.map((g) => [g.group, g.versions]),
      [
        ['c.example', ['v2']],
        ['a.example', ['v1', 'v1beta1']],
        ['b.example', ['v1']],
      ],
    );
  });

  it('leaves a version never fetched out of aggregated discovery and marks a failed one Stale', () => {
    const [g] = remoteGroups([
      { ...gv('a.example', 'v1', 100, 10), resources: [{ name: 'things', namespaced: false, kind: 'Thing', verbs: ['get'] }], stale: true },
      gv('a.example', 'v2', 100, 5),
    ]);
    assert.deepEqual(g.aggregated, [
      {
        version: 'v1',
        freshness: 'Stale',
        resources: [
          { resource: 'things', responseKind: { group: 'a.example', version: 'v1', kind: 'Thing' }, scope: 'Cluster', singularResource: '', verbs: ['get'] },
        ],
      },
    ]);
  });
});

describe('built-in priorities', () => {
  it("are upstream's, under each brand's group names", () => {
    assert.deepEqual(builtinPriorities(ORCH_BRAND).get('/v1'), { groupPriorityMinimum: 18000, versionPriority: 1 });
    assert.deepEqual(builtinPriorities(ORCH_BRAND).get('rbac.authorization.orch.io/v1'), { groupPriorityMinimum: 17000, versionPriority: 15 });
    assert.deepEqual(builtinPriorities(KUBERNETES_BRAND).get('autoscaling/v2'), { groupPriorityMinimum: 17500, versionPriority: 30 });
  });
});

describe('APIService validation', () => {
  const apiService = (name: string, spec: Record<string, unknown>) => ({ metadata: { name }, spec });
  it('accepts a local core APIService and a remote one', () => {
    assert.deepEqual(validateAPIService(apiService('v1.', { group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 })), []);
    assert.deepEqual(
      validateAPIService(
        apiService('v1.a.example', {
          group: 'a.example',
          version: 'v1',
          groupPriorityMinimum: 1,
          versionPriority: 1,
          service: { namespace: 'n', name: 's', port: 443 },
        }),
      ),
      [],
    );
  });

  it("gives upstream's errors", () => {
    const errs = validateAPIService(
      apiService('v2.', { group: '', version: 'v2', groupPriorityMinimum: 20001, versionPriority: 0, caBundle: 'AAAA', insecureSkipTLSVerify: true }),
    );
    assert.deepEqual(
      errs.map((e) => [e.field, e.detail]),
      [
        ['spec.group', 'only v1 may have an empty group and it better be legacy kube'],
        ['spec.groupPriorityMinimum', 'must be positive and less than 20000'],
        ['spec.versionPriority', 'must be positive and less than 1000'],
        ['spec.caBundle', 'local APIServices may not have a caBundle'],
        ['spec.insecureSkipTLSVerify', 'local APIServices may not have insecureSkipTLSVerify'],
      ],
    );
    const remote = validateAPIService(
      apiService('v1.a.example', {
        group: 'a.example',
        version: 'v1',
        groupPriorityMinimum: 1,
        versionPriority: 1,
        caBundle: 'AAAA',
        insecureSkipTLSVerify: true,
        service: { port: 0 },
      }),
    );
    assert.deepEqual(
      remote.map((e) => [e.field, e.detail]),
      [
        ['spec.service.namespace', ''],
        ['spec.service.name', ''],
        ['spec.service.port', 'port is not valid: must be between 1 and 65535, inclusive'],
        ['spec.insecureSkipTLSVerify', 'may not be true if caBundle is present'],
      ],
    );
  });
});
